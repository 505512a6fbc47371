package sqlite

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// TestLowerHex checks the args hash decoding against encoding/hex: lower-case
// hex of any even length decodes to the same bytes, anything else is kept as
// text (nil).
func TestLowerHex(t *testing.T) {
	sum := sha256.Sum256([]byte("x"))
	sumHex := hex.EncodeToString(sum[:])
	for _, tc := range []struct {
		name, in string
		want     bool // decodes
	}{
		{"sha256", sumHex, true},
		{"short", "00ff7a", true},
		{"longer than a sha256", sumHex + "0a1b", true},
		{"empty", "", false},
		{"odd", sumHex[:63], false},
		{"upper case", strings.ToUpper(sumHex), false},
		{"one upper case digit", sumHex[:10] + "A" + sumHex[11:], false},
		{"not hex", sumHex[:62] + "0g", false},
		{"slash and colon", "/0:9", false},
		{"at and backtick", "@a`f", false},
		{"non-ASCII", "\xc3\xa9", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf [32]byte
			got := lowerHex(buf[:], tc.in)
			if !tc.want {
				if got != nil {
					t.Fatalf("lowerHex(%q) = %x, want nil", tc.in, got)
				}
				return
			}
			want, err := hex.DecodeString(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("lowerHex(%q) = %x, want %x", tc.in, got, want)
			}
		})
	}
	// Every byte value in every position of a two-digit input.
	for c := range 256 {
		for _, in := range []string{string([]byte{byte(c), '0'}), string([]byte{'0', byte(c)})} {
			var buf [32]byte
			got := lowerHex(buf[:], in)
			want, err := hex.DecodeString(in)
			lower := strings.ToLower(in) == in
			if err != nil || !lower {
				if got != nil {
					t.Fatalf("lowerHex(%q) = %x, want nil", in, got)
				}
			} else if !bytes.Equal(got, want) {
				t.Fatalf("lowerHex(%q) = %x, want %x", in, got, want)
			}
		}
	}
}

// BenchmarkNewDecisionOp is the caller's side of appending a decision
// before it is queued: validation and what the writer will bind.
func BenchmarkNewDecisionOp(b *testing.B) {
	sum := sha256.Sum256([]byte("x"))
	at := time.Unix(1_800_000_000, 5).UTC()
	rec := &store.DecisionRecord{
		ID: id.New(at), Time: at, TurnID: "t", SessionID: "s", InputSource: "agent", Authority: "agent",
		Tool: "exec", Category: "system", ArgsHash: hex.EncodeToString(sum[:]), Risk: "dangerous",
		Decision: store.VerdictDeny, Reason: "FORBIDDEN_COMMAND", Message: "no", Rule: "cmd",
		RulesEvaluated: `["a","cmd"]`, RulesTriggered: `["cmd"]`, Latency: time.Microsecond,
		PolicyHash: hex.EncodeToString(sum[:]), Origin: store.OriginGate,
	}
	for b.Loop() {
		if _, err := newDecisionOp(rec, true); err != nil {
			b.Fatal(err)
		}
	}
}
