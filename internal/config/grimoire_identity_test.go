package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/tool"
)

func TestGrimoireIdentityRegistry(t *testing.T) {
	const reg = "0x80040000000000000000000000000000000000aA"
	want, err := tool.ParseAddress(reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, in string
		want     tool.Address
	}{
		{"set", "[grimoire]\nidentity_registry = \"" + reg + "\"\n", want},
		{"empty is local only", "[grimoire]\nidentity_registry = \"\"\n", tool.Address{}},
		{"absent is local only", "[grimoire]\nstrictness = \"strict\"\n", tool.Address{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("t.toml", []byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Grimoire.IdentityRegistry; got != c.want {
				t.Errorf("identity_registry = %x, want %x", got, c.want)
			}
		})
	}
	d, _ := Default()
	if d.Grimoire.IdentityRegistry != (tool.Address{}) {
		t.Errorf("the default config asks an on-chain registry: %x", d.Grimoire.IdentityRegistry)
	}
}

func TestGrimoireIdentityRegistryDiagnostics(t *testing.T) {
	for _, c := range []struct {
		name, in, msg string
		line          int
	}{
		{"short", "[grimoire]\nstrictness = \"standard\"\nidentity_registry = \"0x8004\"\n", "40 hex digits", 3},
		{"not hex", "[grimoire]\nidentity_registry = \"0x80040000000000000000000000000000000000aZ\"\n", "not hex", 2},
		{"no 0x", "[grimoire]\nidentity_registry = \"80040000000000000000000000000000000000aA00\"\n", "40 hex digits", 2},
		{"zero address", "[grimoire]\nidentity_registry = \"0x0000000000000000000000000000000000000000\"\n", "zero address", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("t.toml", []byte(c.in))
			var de *Error
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want diagnostics", err)
			}
			for _, d := range de.Diags {
				if d.Key == "grimoire.identity_registry" && strings.Contains(d.Msg, c.msg) && d.Line == c.line {
					return
				}
			}
			t.Errorf("diagnostics %+v, want %q at grimoire.identity_registry line %d", de.Diags, c.msg, c.line)
		})
	}
}
