package quarantine

import (
	"encoding/hex"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/knowledge"
)

// goldenDigests are the digests ward's EIP-712 encoding gave these entries
// when it was hand-written; go-ethereum's apitypes must give the same bytes,
// or every signature already made stops verifying.
var goldenDigests = []struct {
	name   string
	domain Domain
	make   func() *knowledge.Entry
	want   string
}{
	{"fixture", NewDomain(chain), func() *knowledge.Entry {
		e := entry("pool rebalances within 3 blocks")
		e.Source.Agent = "0x1a642f0E3c3aF545E7AcBD38b07251B3990914F1"
		return e
	}, "407fe982e0d68d6590bda6a4f523af340e177d55351156dc9d9319daf02851b4"},
	{"lower-case agent", NewDomain(chain), func() *knowledge.Entry {
		e := entry("pool rebalances within 3 blocks")
		e.Source.Agent = "0x1a642f0e3c3af545e7acbd38b07251b3990914f1"
		return e
	}, "407fe982e0d68d6590bda6a4f523af340e177d55351156dc9d9319daf02851b4"},
	{"0X agent", NewDomain(chain), func() *knowledge.Entry {
		e := entry("pool rebalances within 3 blocks")
		e.Source.Agent = "0X1A642F0E3C3AF545E7ACBD38B07251B3990914F1"
		return e
	}, "407fe982e0d68d6590bda6a4f523af340e177d55351156dc9d9319daf02851b4"},
	{"no claim, heuristic or anchor", NewDomain(chain), func() *knowledge.Entry {
		e := entry("x")
		e.Source.Agent = "0x1a642f0E3c3aF545E7AcBD38b07251B3990914F1"
		e.Claim, e.Heuristic, e.Source.Anchor = nil, nil, ""
		return e
	}, "faa1b2ad6ea1d268e1a8344fe1fb5ae90d1ccce0dcf5254f4fe01ccc075c992d"},
	{"empty lists and parameters", NewDomain(chain), func() *knowledge.Entry {
		e := entry("x")
		e.Source.Agent = "0x1a642f0E3c3aF545E7AcBD38b07251B3990914F1"
		e.Claim = &knowledge.Claim{Subject: "s"}
		e.Heuristic = &knowledge.Heuristic{Conditions: []string{}, Parameters: map[string]string{}}
		return e
	}, "93c4699be652ba8f210aaa7d7b9bcd968b76b222c6b395c25e8e244b370a45c6"},
	{"clade, unicode and many parameters", NewDomain(1), func() *knowledge.Entry {
		e := entry("räumlich — 価格 ↑")
		e.Type = knowledge.TypeInsight
		e.Source.Provenance = knowledge.Clade
		e.Source.Agent = "0x2b5ad5c4795c026514f8317c7a215e218dccd6cf"
		e.Source.CladeID, e.Source.ListingID = "clade-7", ""
		e.Source.Anchor = "0X" + strings.Repeat("AB", 32)
		e.Source.Timestamp = time.Unix(1, 0)
		e.Confidence = 0.12345
		e.Claim.Conditions = []string{"a", "", "ü"}
		e.Heuristic.Parameters = map[string]string{"z": "1", "a": "", "m": "ß", "": "empty key"}
		return e
	}, "f8a0a5815979ef35c94a767fde497a32257d06ffaf8ea8de5721e7af3b057590"},
	{"confidence 1, chain 0", NewDomain(0), func() *knowledge.Entry {
		e := entry("")
		e.Source.Agent = "0x0000000000000000000000000000000000000000"
		e.Confidence = 1
		return e
	}, "f5cb5dec7e7bb126d1b900479486a3b08fa6fd186c55e637577c8f1c5abff854"},
	{"largest chain id, other domain", Domain{Name: "other-app", Version: "2", ChainID: math.MaxUint64}, func() *knowledge.Entry {
		e := entry("x")
		e.Source.Agent = "0x1a642f0E3c3aF545E7AcBD38b07251B3990914F1"
		e.Confidence = 0
		return e
	}, "decfe1b0349aa7a3b07c3c96daab81de27c0f19520641905f70e936fbf698ff8"},
}

func TestDigestGolden(t *testing.T) {
	for _, tc := range goldenDigests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.domain.Digest(tc.make())
			if err != nil {
				t.Fatal(err)
			}
			if h := hex.EncodeToString(got); h != tc.want {
				t.Errorf("Digest = %s, want %s", h, tc.want)
			}
		})
	}
}

// TestSignGolden pins the signature of the fixture: signing is
// deterministic (RFC 6979), so it moves only if the digest does.
func TestSignGolden(t *testing.T) {
	e := entry("pool rebalances within 3 blocks")
	if err := Sign(e, chain, key(t, 1)); err != nil {
		t.Fatal(err)
	}
	const want = "bd9615e718cebf3db8a02ba589f2ff8ed69fae0008a24c766111b90ae2b4055d47c710a81d0c3a86922981317a48ebbced1f04af01e5ecaf7bd8d47de5e13b501c"
	if got := hex.EncodeToString(e.Source.Signature); got != want {
		t.Errorf("signature = %s, want %s", got, want)
	}
}

// Entries that cannot be encoded are malformed, as they were when the
// encoding was hand-written.
func TestDigestMalformed(t *testing.T) {
	malformed := map[string]func(e *knowledge.Entry){
		"agent alice":         func(e *knowledge.Entry) { e.Source.Agent = "alice" },
		"agent without 0x":    func(e *knowledge.Entry) { e.Source.Agent = "00" + strings.Repeat("ab", 20) },
		"agent without 0x 40": func(e *knowledge.Entry) { e.Source.Agent = strings.Repeat("ab", 20) },
		"agent not hex":       func(e *knowledge.Entry) { e.Source.Agent = "0x" + strings.Repeat("ab", 19) + "ag" },
		"agent short":         func(e *knowledge.Entry) { e.Source.Agent = "0x" + strings.Repeat("ab", 19) },
		"agent empty":         func(e *knowledge.Entry) { e.Source.Agent = "" },
		"zero time":           func(e *knowledge.Entry) { e.Source.Timestamp = time.Time{} },
		"before 1970":         func(e *knowledge.Entry) { e.Source.Timestamp = time.Unix(-1, 0) },
		"NaN confidence":      func(e *knowledge.Entry) { e.Confidence = math.NaN() },
		"confidence above 1":  func(e *knowledge.Entry) { e.Confidence = 1.5 },
		"negative confidence": func(e *knowledge.Entry) { e.Confidence = -0.1 },
		"anchor short":        func(e *knowledge.Entry) { e.Source.Anchor = "0x" + strings.Repeat("cd", 31) },
		"anchor not hex":      func(e *knowledge.Entry) { e.Source.Anchor = "0x" + strings.Repeat("cd", 31) + "zz" },
		"anchor without 0x":   func(e *knowledge.Entry) { e.Source.Anchor = "00" + strings.Repeat("cd", 32) },
	}
	for name, mutate := range malformed {
		t.Run(name, func(t *testing.T) {
			e := entry("x")
			e.Source.Agent = "0x1a642f0E3c3aF545E7AcBD38b07251B3990914F1"
			mutate(e)
			got, err := NewDomain(chain).Digest(e)
			if !errors.Is(err, ErrMalformed) || !errors.Is(err, ErrProvenanceForgery) {
				t.Errorf("Digest = %x, %v; want ErrMalformed", got, err)
			}
		})
	}
}
