package trust

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// scanLookup is the lookup ward made before the postings: every
// observation compared, oldest first. It is the oracle the indexed lookup
// must agree with. l.mu is held for reading.
func (l *Ledger) scanLookup(q query) Evidence {
	switch q.kind {
	case qCarries:
		return Evidence{Origin: Trusted}
	case qOpaque:
		return Evidence{Origin: Unknown}
	}
	if q.num != "" && significant(q.num) < minSignificant {
		return Evidence{Origin: Unknown}
	}
	var trusted, untrusted []Source
	found := 0
	for _, o := range l.obs {
		if !o.matches(q) {
			continue
		}
		found++
		if o.src.Kind.Trusted() {
			if o.echoes(q) {
				continue
			}
			if len(trusted) < maxEvidence {
				trusted = append(trusted, cloneSource(o.src))
			}
		} else if len(untrusted) < maxEvidence {
			untrusted = append(untrusted, cloneSource(o.src))
		}
	}
	switch {
	case q.num != "" && found >= commonNumber:
		return Evidence{Origin: Unknown}
	case len(trusted) > 0:
		return Evidence{Origin: Trusted, Sources: trusted}
	case len(untrusted) > 0:
		return Evidence{Origin: Untrusted, Sources: untrusted}
	}
	return Evidence{Origin: Unknown}
}

// scanLookupField is lookupField before the postings.
func (l *Ledger) scanLookupField(name string, v any) (Evidence, bool) {
	q := newQuery(v)
	if q.num == "" {
		return Evidence{}, false
	}
	keys := fieldKeys(name)
	var ev fieldEvidence
	for _, o := range l.obs {
		ev.add(o, keys, q.num)
	}
	return ev.answer(l.incomplete)
}

// sessionGen makes random sessions from a small vocabulary, so that
// values recur across outputs, are echoed, embedded, spaced, escaped and
// re-encoded.
type sessionGen struct{ r *rand.Rand }

var genAtoms = []string{
	"DE89 3704 0044 0532 0130 00", "DE89370400440532013000", "GB29NWBK60161331926819",
	"0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
	"alice@example.com", "bob", "id", "7", "42", "12345", "123456789", "1,234,567.50", "$98,765",
	"Shop 4", "INV-4812", "pay 100 EUR now", "&amp; co", "ﬁle", "Ａｌｉｃｅ", "zero\u200bwidth",
	"%41%42%43%44", "\\u0041\\u0042", "QUJDREVGR0g=", "4142434445464748", "café", "CAFE\u0301",
	"+44 20 7946 0958", "+442079460958", "!!!", "--", "a", "é", "x y", "1 2 3 4 5 6 7 8 9",
}

func (g sessionGen) atom() string {
	a := genAtoms[g.r.IntN(len(genAtoms))]
	switch g.r.IntN(6) {
	case 0:
		return fmt.Sprint(g.r.IntN(1_000_000))
	case 1:
		return strings.ToUpper(a)
	}
	return a
}

func (g sessionGen) text() string {
	var parts []string
	for range 1 + g.r.IntN(6) {
		switch g.r.IntN(5) {
		case 0:
			parts = append(parts, fmt.Sprintf("%s: %s", []string{"id", "amount", "scheduledId", "to"}[g.r.IntN(4)], g.atom()))
		case 1:
			parts = append(parts, "("+g.atom()+")")
		default:
			parts = append(parts, g.atom())
		}
	}
	return strings.Join(parts, []string{" ", ", ", "\n", "; "}[g.r.IntN(4)])
}

func (g sessionGen) json() []byte {
	obj := map[string]any{}
	for range 1 + g.r.IntN(4) {
		var v any = g.text()
		switch g.r.IntN(3) {
		case 0:
			v = g.r.Float64() * 1e6
		case 1:
			v = json.Number(fmt.Sprint(g.r.IntN(10_000_000)))
		}
		obj[g.atom()] = v
	}
	b, _ := json.Marshal(obj)
	return b
}

func (g sessionGen) value() any {
	switch g.r.IntN(8) {
	case 0:
		return g.r.IntN(1_000_000)
	case 1:
		return float64(g.r.IntN(100_000)) / 100
	case 2:
		return map[string]any{g.atom(): g.atom(), "n": json.Number(fmt.Sprint(g.r.IntN(100_000)))}
	case 3:
		return []any{g.atom(), g.text()}
	case 4:
		return g.text()
	}
	return g.atom()
}

// fill records n random observations in l, and returns the kinds used.
func (g sessionGen) fill(l *Ledger, n int) {
	kinds := []SourceKind{TrustedOutput, UntrustedOutput, TrustedOutput, UntrustedOutput}
	for i := range n {
		src := Source{Kind: kinds[g.r.IntN(len(kinds))], Ref: fmt.Sprintf("call:%d", i)}
		var args []byte
		if g.r.IntN(3) == 0 {
			args, _ = json.Marshal(map[string]any{"q": g.atom()})
		}
		if g.r.IntN(2) == 0 {
			l.RecordCall(src, g.json(), true, args)
		} else {
			l.RecordCall(src, []byte(g.text()), false, args)
		}
	}
}

// TestPostingsAgreeWithScan checks, on random sessions (some small enough
// that old observations are dropped and the postings rebuilt), that the
// indexed lookups answer exactly as a comparison with every observation.
func TestPostingsAgreeWithScan(t *testing.T) {
	origins := map[Origin]int{}
	for seed := range uint64(60) {
		g := sessionGen{rand.New(rand.NewPCG(seed, 22))}
		limit := 0
		if seed%3 == 0 {
			limit = 4096 // drops observations as it goes
		}
		l := NewLedger(limit)
		for round := range 6 {
			g.fill(l, 1+g.r.IntN(40))
			for range 40 {
				v := g.value()
				qs, _ := queries(v, nil)
				l.mu.RLock()
				for _, q := range qs {
					got, want := l.lookup(q), l.scanLookup(q)
					origins[want.Origin]++
					if !reflect.DeepEqual(got, want) {
						t.Errorf("seed %d round %d, %#v: indexed %+v, scan %+v", seed, round, q, got, want)
					}
				}
				l.mu.RUnlock()
				for _, name := range []string{"id", "amount", "scheduled_id", "transaction_id"} {
					n := g.r.IntN(200)
					got, gotOK := l.lookupField(name, n)
					l.mu.RLock()
					want, wantOK := l.scanLookupField(name, n)
					l.mu.RUnlock()
					if gotOK != wantOK || !reflect.DeepEqual(got, want) {
						t.Errorf("seed %d field %s=%d: indexed %+v %v, scan %+v %v", seed, name, n, got, gotOK, want, wantOK)
					}
				}
			}
		}
	}
	// The sessions must exercise every answer, or agreeing proves little.
	for _, o := range []Origin{Trusted, Untrusted, Unknown} {
		if origins[o] < 100 {
			t.Errorf("%v answers: %d, want at least 100 (%v)", o, origins[o], origins)
		}
	}
}

// BenchmarkLookupHistory measures one argument lookup against sessions of
// 10, 1,000 and 10,000 prior outputs (a read's balance answer each, as a
// long agent session makes). The ledger's limit is raised so that nothing
// is dropped. "scan" is the comparison with every observation that
// LookupArg made before the postings; "indexed" looks up an argument it
// looked up before (as an agent's next call repeats a token or an
// account), "new-value" one it never saw.
func BenchmarkLookupHistory(b *testing.B) {
	for _, n := range []int{10, 1_000, 10_000} {
		l := NewLedger(1 << 30)
		for i := range n {
			out := fmt.Sprintf(`{"token":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","balance":"%d","decimals":6,"block":%d}`, 1_000_000+i*7919, 100+i)
			args := fmt.Sprintf(`{"token":"USDC","account":"0x%040x"}`, i%8)
			l.RecordCall(Source{Kind: TrustedOutput, Ref: fmt.Sprintf("call:%d", i)}, []byte(out), true, []byte(args))
		}
		arg := map[string]any{"token_in": "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "amount": "1.5", "recipient": "0x0000000000000000000000000000000000000007"}
		_ = l.LookupArg(arg, nil) // prepare every observation
		b.Run(fmt.Sprintf("indexed/%d", n), func(b *testing.B) {
			for b.Loop() {
				_ = l.LookupArg(arg, nil)
			}
		})
		// A value not looked up before: no fold to resume, the
		// postings alone.
		b.Run(fmt.Sprintf("indexed-new-value/%d", n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				_ = l.LookupArg(map[string]any{"recipient": fmt.Sprintf("0x%040x", i)}, nil)
			}
		})
		b.Run(fmt.Sprintf("scan-new-value/%d", n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				qs, _ := queries(map[string]any{"recipient": fmt.Sprintf("0x%040x", i)}, nil)
				l.mu.RLock()
				for _, q := range qs {
					_ = l.scanLookup(q)
				}
				l.mu.RUnlock()
			}
		})
		b.Run(fmt.Sprintf("scan/%d", n), func(b *testing.B) {
			for b.Loop() {
				qs, _ := queries(arg, nil)
				l.mu.RLock()
				for _, q := range qs {
					_ = l.scanLookup(q)
				}
				l.mu.RUnlock()
			}
		})
	}
}
