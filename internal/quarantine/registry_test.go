package quarantine

import (
	"strings"
	"testing"
)

func TestCladeMembership(t *testing.T) {
	const (
		alice = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
		bob   = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
	)
	reg, err := NewLocalRegistry(bob)
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.AddMember(strings.ToLower(alice), "alpha", 0.85); err != nil {
		t.Fatal(err)
	}
	if known, _ := reg.Known(t.Context(), alice); !known {
		t.Error("a clade member is not a known identity")
	}
	m, ok := reg.Member(alice)
	if !ok || m.Clade != "alpha" || m.Confidence != 0.85 {
		t.Errorf("Member(alice) = %+v %v, want alpha at 0.85", m, ok)
	}
	if _, ok := reg.Member(bob); ok {
		t.Error("an identity without membership is a member")
	}

	steps := []struct {
		by, want float64
	}{{0.1, 0.75}, {0.5, 0.25}, {0.5, 0}, {0.1, 0}}
	for i, s := range steps {
		got, ok := reg.Demote(alice, s.by)
		if !ok || got < s.want-1e-9 || got > s.want+1e-9 {
			t.Errorf("demotion %d: %v %v, want %v", i+1, got, ok, s.want)
		}
	}
	if _, ok := reg.Demote(bob, 0.1); ok {
		t.Error("demoted a non-member")
	}

	for _, c := range []struct {
		name, addr, clade string
		conf              float64
	}{
		{"bad address", "0x123", "alpha", 0.5},
		{"empty clade", alice, "", 0.5},
		{"long clade", alice, strings.Repeat("c", 129), 0.5},
		{"confidence above 1", alice, "alpha", 1.5},
		{"negative confidence", alice, "alpha", -0.1},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := reg.AddMember(c.addr, c.clade, c.conf); err == nil {
				t.Error("accepted")
			}
		})
	}
}
