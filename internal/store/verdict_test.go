package store

import (
	"encoding/json"
	"testing"
)

func TestVerdictText(t *testing.T) {
	for _, v := range []Verdict{VerdictAllow, VerdictQuarantine, VerdictDeny} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("marshal %v: %v", v, err)
		}
		var back Verdict
		if err := json.Unmarshal(b, &back); err != nil || back != v {
			t.Errorf("%s round-trips to %v, %v", b, back, err)
		}
	}
	// The zero value and numbers past the last are no verdict: they do not
	// encode, and no name (the empty one, another case) decodes to them.
	for _, v := range []Verdict{0, numVerdicts, 255} {
		if v.Valid() {
			t.Errorf("%d is valid", v)
		}
		if _, err := json.Marshal(v); err == nil {
			t.Errorf("verdict %d marshals", v)
		}
	}
	for _, s := range []string{"", "ALLOW", "allowed", "Deny", " deny"} {
		if v, err := ParseVerdict(s); err == nil {
			t.Errorf("ParseVerdict(%q) = %v, want an error", s, v)
		}
	}
}

func TestOriginText(t *testing.T) {
	for _, o := range []Origin{OriginGate, OriginCheck} {
		b, err := o.MarshalText()
		if err != nil {
			t.Fatalf("marshal %v: %v", o, err)
		}
		var back Origin
		if err := back.UnmarshalText(b); err != nil || back != o {
			t.Errorf("%s round-trips to %v, %v", b, back, err)
		}
	}
	for _, o := range []Origin{0, numOrigins, 255} {
		if _, err := o.MarshalText(); err == nil || o.Valid() {
			t.Errorf("origin %d marshals or is valid", o)
		}
	}
	for _, s := range []string{"", "GATE", "replay"} {
		if o, err := ParseOrigin(s); err == nil {
			t.Errorf("ParseOrigin(%q) = %v, want an error", s, o)
		}
	}
}
