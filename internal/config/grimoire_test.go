package config

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/knowledge"
)

func TestGrimoireClade(t *testing.T) {
	const alice, bob = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
	f, err := Parse("t.toml", []byte(`[grimoire]
strictness = "strict"
identities = ["`+bob+`"]
clade = "alpha"

[[grimoire.members]]
address = "`+alice+`"
confidence = 0.9

[[grimoire.members]]
address = "`+bob+`"
clade = "beta"
confidence = 0.5
`))
	if err != nil {
		t.Fatal(err)
	}
	g := f.Grimoire
	want := []CladeMember{{alice, "alpha", 0.9}, {bob, "beta", 0.5}}
	if g.Strictness != knowledge.Strict || g.Clade != "alpha" || len(g.Identities) != 1 || len(g.Members) != 2 ||
		g.Members[0] != want[0] || g.Members[1] != want[1] {
		t.Errorf("got %+v, want clade alpha and members %+v", g, want)
	}

	// [grimoire] identities alone works as before.
	f, err = Parse("t.toml", []byte("[grimoire]\nidentities = [\""+alice+"\"]\n"))
	if err != nil || f.Grimoire.Clade != "" || len(f.Grimoire.Members) != 0 || f.Grimoire.Identities[0] != alice {
		t.Errorf("identities only: %+v %v", f.Grimoire, err)
	}

	member := func(body string) string { return "[grimoire]\nclade = \"alpha\"\n[[grimoire.members]]\n" + body }
	for _, c := range []struct {
		name, in, key, msg string
	}{
		{"short address", member("address = \"0x12\"\nconfidence = 0.5\n"), "grimoire.members.0.address", "0x address"},
		{"not hex", member("address = \"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeZ\"\nconfidence = 0.5\n"), "grimoire.members.0.address", "0x address"},
		{"confidence above 1", member("address = \"" + alice + "\"\nconfidence = 1.2\n"), "grimoire.members.0.confidence", "[0, 1]"},
		{"negative confidence", member("address = \"" + alice + "\"\nconfidence = -0.1\n"), "grimoire.members.0.confidence", "[0, 1]"},
		{"no confidence", member("address = \"" + alice + "\"\n"), "grimoire.members.0", "confidence is required"},
		{"duplicate", member("address = \"" + alice + "\"\nconfidence = 0.5\n[[grimoire.members]]\naddress = \"" + strings.ToLower(alice) + "\"\nconfidence = 0.6\n"),
			"grimoire.members.1.address", "same address"},
		{"no clade anywhere", "[[grimoire.members]]\naddress = \"" + alice + "\"\nconfidence = 0.5\n", "grimoire.members.0", "clade is required"},
		{"empty clade", "[grimoire]\nclade = \"\"\n", "grimoire.clade", "1 to 128 bytes"},
		{"unknown key", member("address = \"" + alice + "\"\nconfidence = 0.5\ntrust = 1\n"), "grimoire.members.0.trust", "unknown key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("t.toml", []byte(c.in))
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), c.key+": ") || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "t.toml:") {
				t.Errorf("got %v, want %s: %s", err, c.key, c.msg)
			}
		})
	}
}

func TestGrimoireCuratorInterval(t *testing.T) {
	d, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if d.Grimoire.CuratorInterval != DefaultCuratorInterval {
		t.Errorf("default curator_interval = %v, want %v", d.Grimoire.CuratorInterval, DefaultCuratorInterval)
	}
	f, err := Parse("t.toml", []byte("[grimoire]\ncurator_interval = \"15m\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Grimoire.CuratorInterval != 15*time.Minute {
		t.Errorf("curator_interval = %v, want 15m", f.Grimoire.CuratorInterval)
	}
	for _, in := range []string{"soon", "-1h", "0s", "30s", "48h"} {
		t.Run(in, func(t *testing.T) {
			_, err := Parse("t.toml", []byte("[grimoire]\nstrictness = \"standard\"\ncurator_interval = \""+in+"\"\n"))
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want diagnostics", err)
			}
			for _, d := range de.Diags {
				if d.Key == "grimoire.curator_interval" && d.Line == 3 && strings.Contains(d.Msg, "invalid duration") {
					return
				}
			}
			t.Errorf("diagnostics %+v, want invalid duration at grimoire.curator_interval line 3", de.Diags)
		})
	}
}

func TestGrimoirePlaybook(t *testing.T) {
	d, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if d.Grimoire.Playbook != "" {
		t.Errorf("default playbook = %q, want none", d.Grimoire.Playbook)
	}
	f, err := Parse("t.toml", []byte("[grimoire]\nplaybook = \"/var/lib/ward/PLAYBOOK.md\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Grimoire.Playbook != "/var/lib/ward/PLAYBOOK.md" {
		t.Errorf("playbook = %q", f.Grimoire.Playbook)
	}
	_, err = Parse("t.toml", []byte("[grimoire]\nplaybook = \"\"\n"))
	var de *Error
	if !errors.As(err, &de) || len(de.Diags) != 1 || de.Diags[0].Key != "grimoire.playbook" {
		t.Errorf("empty playbook: %v, want a diagnostic at grimoire.playbook", err)
	}
}
