package rollback

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

const source = "0xAbC0000000000000000000000000000000000001"

// pattern has mean 0.001 and a daily Sharpe ratio of about 0.12.
var pattern = []float64{0.011, -0.009, 0.006, -0.004, 0.001}

// repeat returns pattern repeated to n days, shifted by add from day from.
func repeat(n, from int, add float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = pattern[i%len(pattern)]
		if i >= from {
			out[i] += add
		}
	}
	return out
}

// decisions returns one decision a day; from day used on, each is
// influenced by an entry of src.
func decisions(n, used int, src string) []Record {
	var out []Record
	for d := range n {
		r := Record{Day: d, ID: "d" + string(rune('a'+d%26)), Used: []Influence{{EntryID: "other", Source: "0xother"}}}
		if d >= used {
			r.Used = append(r.Used, Influence{EntryID: "e" + string(rune('0'+d%3)), Source: src})
		}
		out = append(out, r)
	}
	return out
}

func TestDecideAttribution(t *testing.T) {
	const n, first = 40, 20
	for _, tc := range []struct {
		name      string
		decisions []Record
		wantInfl  int
		never     bool
	}{
		{"never used", decisions(n, n, source), 0, true},
		{"used only before the window", append(decisions(n, n, source), Record{Day: 3, Used: []Influence{{EntryID: "x", Source: source}}}), 0, true},
		{"used after the series", append(decisions(n, n, source), Record{Day: n + 5, Used: []Influence{{EntryID: "x", Source: source}}}), 0, true},
		{"no decisions", nil, 0, true},
		{"used, address case differs", decisions(n, first, strings.ToLower(source)), 20, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Decide(Input{Returns: repeat(n, first, -0.02), Decisions: tc.decisions, Source: source, FirstUse: first})
			if err != nil {
				t.Fatal(err)
			}
			if d.Attribution.Influenced != tc.wantInfl {
				t.Errorf("influenced = %d, want %d", d.Attribution.Influenced, tc.wantInfl)
			}
			if got := d.Reason == NeverUsed; got != tc.never {
				t.Errorf("reason = %v, want never_used: %v", d.Reason, tc.never)
			}
			if tc.never && (d.Rollback || d.Factors != nil) {
				t.Errorf("never used: rollback %v, factors %v; want no rollback and no further step", d.Rollback, d.Factors)
			}
			if !tc.never && !slices.Equal(d.Attribution.Entries, []string{"e0", "e1", "e2"}) {
				t.Errorf("entries = %v, want [e0 e1 e2]", d.Attribution.Entries)
			}
		})
	}
}

func TestDecideMarketExplained(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const n, first = 60, 30
	eth, ret := make([]float64, n), make([]float64, n)
	for i := range n {
		eth[i] = 0.03 * r.NormFloat64()
		if i >= first {
			eth[i] -= 0.03
		}
		ret[i] = 0.001 + 1.0*eth[i] + 0.003*r.NormFloat64()
	}
	d, err := Decide(Input{Returns: ret, Factors: []Factor{{"eth", eth}}, Decisions: decisions(n, first, source), Source: source, FirstUse: first})
	if err != nil {
		t.Fatal(err)
	}
	if d.Rollback || d.Reason != MarketExplainedDrop {
		t.Fatalf("rollback %v, reason %v; want market_explained", d.Rollback, d.Reason)
	}
	f := d.Factors
	if math.Abs(f.Betas[0]-1) > 0.05 {
		t.Errorf("ETH beta = %v, want 1 ± 0.05", f.Betas[0])
	}
	if f.Share <= MarketExplained || f.Drop <= 0 || f.R2 < 0.9 {
		t.Errorf("share %v, drop %v, R² %v: want share above %v, a drop and a good fit", f.Share, f.Drop, f.R2, MarketExplained)
	}
	if d.Residual != nil {
		t.Error("the residual step ran after the market explained the drop")
	}
}

func TestDecideResidualAndCounterfactual(t *testing.T) {
	const n, first = 40, 20
	for _, tc := range []struct {
		name     string
		shift    float64
		rollback bool
		reason   Reason
	}{
		{"no change", 0, false, SmallResidualChange},
		{"poisoned", -0.01, true, Counterfactual},
		{"improved", +0.01, false, NoEvidence},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Decide(Input{Returns: repeat(n, first, tc.shift), Decisions: decisions(n, first, source), Source: source, FirstUse: first})
			if err != nil {
				t.Fatal(err)
			}
			if d.Rollback != tc.rollback || d.Reason != tc.reason {
				t.Fatalf("rollback %v, reason %v; want %v, %v", d.Rollback, d.Reason, tc.rollback, tc.reason)
			}
			if d.Factors == nil || d.Factors.Share != 0 || d.Residual == nil {
				t.Fatalf("factors %+v, residual %+v: want both steps recorded, no factor share", d.Factors, d.Residual)
			}
			if math.Abs(d.Factors.Step-tc.shift) > 1e-9 {
				t.Errorf("step = %v, want %v", d.Factors.Step, tc.shift)
			}
			if tc.reason == SmallResidualChange {
				if math.Abs(d.Residual.Delta) > 1e-9 || d.Counterfactual != nil {
					t.Errorf("delta %v, counterfactual %+v: want 0 and no counterfactual", d.Residual.Delta, d.Counterfactual)
				}
				return
			}
			cf := d.Counterfactual
			if cf == nil || cf.Days != n-first {
				t.Fatalf("counterfactual = %+v, want one over %d days", cf, n-first)
			}
			if want := tc.shift * float64(n-first); math.Abs(cf.Effect-want) > 0.02 {
				t.Errorf("effect = %v, want about %v", cf.Effect, want)
			}
			if tc.rollback && cf.ProbNegative <= CounterfactualProbability || !tc.rollback && cf.ProbNegative > 0.05 {
				t.Errorf("P(effect < 0) = %v", cf.ProbNegative)
			}
		})
	}
}

func TestDecidePeers(t *testing.T) {
	const n = 30
	peer := func(add float64) []float64 { return repeat(n, 0, add) }
	fivePeers := [][]float64{peer(-0.001), peer(0), peer(0.0005), peer(0.001), peer(0.002)}
	for _, tc := range []struct {
		name     string
		first    int
		agent    float64 // added to the agent's returns in the post window
		peers    [][]float64
		rollback bool
		reason   Reason
		factors  bool
	}{
		{"trails its peers", 1, -0.02, fivePeers, true, PeerComparison, false},
		{"with its peers", 1, 0, fivePeers, false, NoEvidence, false},
		{"ahead of its peers", 0, 0.02, fivePeers, false, NoEvidence, false},
		{"too few peers", 1, -0.02, fivePeers[:2], false, NoEvidence, false},
		{"identical peers", 1, -0.02, [][]float64{peer(0), peer(0), peer(0)}, false, NoEvidence, false},
		{"short baseline runs the residual checks first", 5, -0.02, fivePeers, true, PeerComparison, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Decide(Input{Returns: repeat(n, tc.first, tc.agent), Decisions: decisions(n, tc.first, source), Source: source, FirstUse: tc.first, Peers: tc.peers})
			if err != nil {
				t.Fatal(err)
			}
			if d.Rollback != tc.rollback || d.Reason != tc.reason {
				t.Fatalf("rollback %v, reason %v; want %v, %v (peers %+v)", d.Rollback, d.Reason, tc.rollback, tc.reason, d.Peers)
			}
			if d.Peers == nil || d.Peers.Peers != len(tc.peers) || d.Counterfactual != nil {
				t.Fatalf("peers %+v, counterfactual %+v: want the peer step only", d.Peers, d.Counterfactual)
			}
			if (d.Factors != nil) != tc.factors || (d.Residual != nil) != tc.factors {
				t.Errorf("factors %v, residual %v; want both run: %v", d.Factors != nil, d.Residual != nil, tc.factors)
			}
			if tc.rollback && d.Peers.Z >= -PeerSigmas {
				t.Errorf("z = %v, want below −%v", d.Peers.Z, PeerSigmas)
			}
		})
	}
}

func TestDecideInvalid(t *testing.T) {
	const n, first = 20, 10
	ok := func() Input {
		return Input{
			Returns:   repeat(n, first, 0),
			Factors:   []Factor{{"eth", repeat(n, 0, 0)}},
			Decisions: decisions(n, first, source),
			Source:    source,
			FirstUse:  first,
			Peers:     [][]float64{repeat(n, 0, 0)},
		}
	}
	if _, err := Decide(ok()); err != nil {
		t.Fatalf("the valid input failed: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(*Input)
		want error
	}{
		{"empty", func(in *Input) { *in = Input{} }, ErrInvalid},
		{"no returns", func(in *Input) { in.Returns = nil }, ErrInvalid},
		{"NaN return", func(in *Input) { in.Returns[3] = math.NaN() }, ErrInvalid},
		{"infinite return", func(in *Input) { in.Returns[15] = math.Inf(-1) }, ErrInvalid},
		{"NaN factor", func(in *Input) { in.Factors[0].Values[0] = math.NaN() }, ErrInvalid},
		{"short factor", func(in *Input) { in.Factors[0].Values = in.Factors[0].Values[:n-1] }, ErrInvalid},
		{"long peer", func(in *Input) { in.Peers[0] = append(in.Peers[0], 0) }, ErrInvalid},
		{"infinite peer", func(in *Input) { in.Peers[0][2] = math.Inf(1) }, ErrInvalid},
		{"negative first use", func(in *Input) { in.FirstUse = -1 }, ErrInvalid},
		{"one post day", func(in *Input) { in.FirstUse = n - 1 }, ErrInvalid},
		{"first use past the end", func(in *Input) { in.FirstUse = n + 3 }, ErrInvalid},
		{"no source", func(in *Input) { in.Source = " " }, ErrInvalid},
		{"negative decision day", func(in *Input) { in.Decisions[0].Day = -2 }, ErrInvalid},
		{"more factors than days", func(in *Input) {
			in.Returns, in.FirstUse = in.Returns[:5], 2
			in.Factors = []Factor{{"a", make([]float64, 5)}, {"b", make([]float64, 5)}, {"c", make([]float64, 5)}}
			in.Peers, in.Decisions = nil, decisions(5, 2, source)
		}, ErrInvalid},
		{"constant baseline", func(in *Input) {
			in.Factors = nil
			for i := range first {
				in.Returns[i] = 0.001
			}
		}, ErrDegenerate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := ok()
			tc.edit(&in)
			d, err := Decide(in)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if d.Rollback || d.Reason != Undecided {
				t.Errorf("a failed decision rolled back or gave a reason: %+v", d)
			}
		})
	}
}

func TestDecideLeavesInputAlone(t *testing.T) {
	in := Input{Returns: repeat(30, 10, -0.01), Factors: []Factor{{"eth", repeat(30, 0, 0.002)}}, Decisions: decisions(30, 10, source), Source: source, FirstUse: 10}
	want := slices.Clone(in.Returns)
	if _, err := Decide(in); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(in.Returns, want) {
		t.Error("Decide modified the returns")
	}
}

func TestReasonText(t *testing.T) {
	for r := Undecided; r <= NoEvidence; r++ {
		b, err := r.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var got Reason
		if err := got.UnmarshalText(b); err != nil || got != r {
			t.Errorf("%v: round trip gave %v, %v", r, got, err)
		}
	}
	if _, err := Reason(99).MarshalText(); err == nil {
		t.Error("an unknown reason marshalled")
	}
	var r Reason
	if err := r.UnmarshalText([]byte("rolled_back")); err == nil {
		t.Error("an unknown reason name unmarshalled")
	}
	b, err := json.Marshal(Decision{Rollback: true, Reason: Counterfactual})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"reason":"counterfactual"`) {
		t.Errorf("json = %s, want the reason by name", b)
	}
}
