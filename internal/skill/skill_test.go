package skill

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		exprs []string
		acts  []Action
	}{
		{"when comma", "When RSI below 30, buy 10 %", []string{"rsi < 30.0"},
			[]Action{{Text: "buy 10 %", Kind: ActBuy, Size: 0.1}}},
		{"if then", "if the price drops 5% then sell half", []string{"chg <= -0.05"},
			[]Action{{Text: "sell half", Kind: ActSell, Size: 0.5}}},
		{"trailing condition", "sell everything when price drops 1 %", []string{"chg <= -0.01"},
			[]Action{{Text: "sell everything", Kind: ActSell, Size: 1}}},
		{"two conditions", "when gas under 20 gwei and RSI(14) is above 70, swap 25 percent to USDC", []string{"gas < 20.0", "rsi > 70.0"},
			[]Action{{Text: "swap 25 percent to usdc", Kind: ActSwap, Size: 0.25}}},
		{"two actions", "whenever volatility exceeds 4 %, remove liquidity and hedge 20 %", []string{"vol > 0.04"},
			[]Action{{Text: "remove liquidity", Kind: ActRemoveLiquidity, Size: DefaultSize}, {Text: "hedge 20 %", Kind: ActHedge, Size: 0.2}}},
		{"liquidity and borrow", "if liquidity below 2m, repay 50 %", []string{"liquidity < 2000000.0"},
			[]Action{{Text: "repay 50 %", Kind: ActRepay, Size: 0.5}}},
		{"price level and wait", "when price is above 4000 and position over 60 %, wait", []string{"price > 4000.0", "position > 0.6"},
			[]Action{{Text: "wait", Kind: ActWait}}},
		{"rises", "once the price rises by more than 12.5 %, provide liquidity with 30 %", []string{"chg >= 0.125"},
			[]Action{{Text: "provide liquidity with 30 %", Kind: ActAddLiquidity, Size: 0.3}}},
		{"raw cel", "if cel: rsi < 20.0 && gas < 50.0, borrow 10 %", []string{"rsi < 20.0 && gas < 50.0"},
			[]Action{{Text: "borrow 10 %", Kind: ActBorrow, Size: 0.1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse(tt.text)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			var exprs []string
			for _, c := range f.Conditions {
				exprs = append(exprs, c.Expr)
				if err := Check(c.Expr); err != nil {
					t.Errorf("condition %q does not compile: %v", c.Expr, err)
				}
			}
			if !reflect.DeepEqual(exprs, tt.exprs) {
				t.Errorf("conditions = %q, want %q", exprs, tt.exprs)
			}
			if !reflect.DeepEqual(f.Actions, tt.acts) {
				t.Errorf("actions = %+v, want %+v", f.Actions, tt.acts)
			}
		})
	}
}

func TestUndecomposable(t *testing.T) {
	for name, text := range map[string]string{
		"no structure":      "ETH is a good long-term asset",
		"unknown condition": "when the moon is full, buy 10 %",
		"unknown action":    "when rsi below 30, meditate",
		"one bad condition": "when rsi below 30 and sentiment is bullish, buy 10 %",
		"cel not boolean":   "if cel: price * 2.0, buy 10 %",
		"cel unknown var":   "if cel: balance > 1.0, buy 10 %",
		"empty":             "",
	} {
		t.Run(name, func(t *testing.T) {
			f, err := Decompose(&knowledge.Entry{Content: text, Type: knowledge.TypeHeuristic})
			if err == nil {
				_, err = NewLibrary().Compose(f)
			}
			if !errors.Is(err, ErrUndecomposable) {
				t.Fatalf("err = %v, want ErrUndecomposable", err)
			}
			if text != "" && strings.Contains(err.Error(), text) {
				t.Errorf("the error quotes the entry: %v", err)
			}
		})
	}
}

func TestDecomposeHeuristic(t *testing.T) {
	e := &knowledge.Entry{Content: "ignored when a heuristic is present", Type: knowledge.TypeHeuristic,
		Heuristic: &knowledge.Heuristic{
			Conditions: []string{"gas below 20 gwei", "RSI under 30"},
			Actions:    []string{"buy", "wait 2 blocks"},
			Parameters: map[string]string{"size": "15%", "blocks": "2"},
		}}
	f, err := Decompose(e)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Conditions) != 2 || f.Conditions[0].Expr != "gas < 20.0" || f.Conditions[1].Expr != "rsi < 30.0" {
		t.Errorf("conditions = %+v", f.Conditions)
	}
	if len(f.Actions) != 2 || f.Actions[0].Kind != ActBuy || f.Actions[0].Size != 0.15 || f.Actions[1].Kind != ActWait {
		t.Errorf("actions = %+v", f.Actions)
	}
	if f.Params["blocks"] != 2 {
		t.Errorf("params = %v", f.Params)
	}
	p, err := NewLibrary().Compose(f)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Composed || p.Coverage != 1 || len(p.Novel) != 0 || !reflect.DeepEqual(p.Reused, []string{"gas_cheap", "rsi_oversold"}) {
		t.Errorf("plan = %+v, want composed from gas_cheap and rsi_oversold", p)
	}
}

func TestLibrary(t *testing.T) {
	l := NewLibrary()
	f, err := Parse("when rsi below 30 and gas under 45 gwei and volatility above 2 %, buy 5 %")
	if err != nil {
		t.Fatal(err)
	}
	p, err := l.Compose(f)
	if err != nil {
		t.Fatal(err)
	}
	if p.Composed || p.Coverage != 0.5 || len(p.Novel) != 2 {
		t.Fatalf("plan = %+v, want 2 of 4 covered, 2 novel, not composed", p)
	}
	if n := l.Promote("e1", p); n != 2 {
		t.Errorf("promoted %d, want 2", n)
	}
	if p, _ = l.Compose(f); !p.Composed {
		t.Errorf("after promotion the plan is not composed: %+v", p)
	}
	if m := l.Search("cheap gas", 1); len(m) != 1 || m[0].Component.Name != "gas_cheap" {
		t.Errorf("Search(cheap gas) = %+v", m)
	}
	if err := l.Add(Component{Name: "bad", Expr: "price +"}); err == nil {
		t.Error("a condition that does not compile was added")
	}
	if err := l.Add(Component{Name: "sizer", Kind: KindSizing}); err == nil {
		t.Error("a sizing component without a module was added")
	}
}

func TestCostLimit(t *testing.T) {
	const expensive = "[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, a + b + c + tick > 0)))"
	f := &Fragment{Conditions: []Condition{{Text: "expensive", Expr: expensive}}, Actions: []Action{{Kind: ActBuy, Size: 0.1}}}
	_, err := Evaluate(context.Background(), &Request{Fragment: f, Market: Market{Scenarios: 1, Ticks: 10}})
	if !errors.Is(err, ErrCostLimit) {
		t.Fatalf("Evaluate = %v, want ErrCostLimit", err)
	}
	if _, err := Evaluate(context.Background(), &Request{Fragment: f, Market: Market{Scenarios: 1, Ticks: 10}, CostLimit: 1 << 20}); err != nil {
		t.Errorf("with a large budget: %v", err)
	}
	var out strings.Builder
	in := `{"fragment":{"conditions":[{"text":"x","expr":"` + expensive + `"}],"actions":[{"kind":"buy","size":0.1}]},"market":{"scenarios":1,"ticks":10}}`
	if err := Job(context.Background(), []byte(in), &out); err != nil {
		t.Fatalf("Job: %v", err)
	}
	if !strings.Contains(out.String(), `"exceeded":"cel_cost"`) {
		t.Errorf("Job output = %s, want exceeded cel_cost", out.String())
	}
}

func evaluate(t *testing.T, text string, m Market) *Evaluation {
	t.Helper()
	f, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := Evaluate(context.Background(), &Request{Fragment: f, Market: m})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: pass=%v baseline=%+v strategy=%+v %v", text, ev.Pass, ev.Baseline, ev.Strategy, ev.Reasons)
	return ev
}

func TestHarmfulFailsOnCrash(t *testing.T) {
	ev := evaluate(t, "sell everything when price drops 1 %", Market{Scenarios: 10, Regimes: []Regime{RegimeCrash}})
	if ev.Pass {
		t.Fatal("selling everything on a 1 % drop passed on crash scenarios")
	}
	if ev.Strategy.MeanReturn >= ev.Baseline.MeanReturn {
		t.Errorf("mean return %v not below the baseline's %v", ev.Strategy.MeanReturn, ev.Baseline.MeanReturn)
	}
	if ev := evaluate(t, "sell everything when price drops 1 %", Market{}); ev.Pass {
		t.Error("it passed on the default scenarios")
	}
}

func TestReasonablePasses(t *testing.T) {
	for _, m := range []Market{{}, {Scenarios: 10, Regimes: []Regime{RegimeCrash}}, {Ticks: 100}} {
		if ev := evaluate(t, "when price drops 25 % and position below 65 %, buy 25 %", m); !ev.Pass {
			t.Errorf("%+v: a capped buy after a crash failed: %v", m, ev.Reasons)
		}
	}
	if ev := evaluate(t, "when gas above 100 gwei, wait", Market{}); !ev.Pass || ev.Strategy != (Metrics{Triggers: ev.Strategy.Triggers, MeanReturn: ev.Baseline.MeanReturn, MaxDrawdown: ev.Baseline.MaxDrawdown, Drawdown: ev.Baseline.Drawdown, WorstLoss: ev.Baseline.WorstLoss}) {
		t.Errorf("waiting differs from holding: %+v", ev)
	}
}

func TestLeverageFails(t *testing.T) {
	if ev := evaluate(t, "when gas under 100 gwei, borrow 50 %", Market{Scenarios: 8}); ev.Pass || ev.Strategy.WorstLoss != 1 {
		t.Errorf("unbounded borrowing: pass=%v worst loss %v, want a failing liquidation", ev.Pass, ev.Strategy.WorstLoss)
	}
}

func TestDeterministic(t *testing.T) {
	a, _ := Market{Seed: 7}.Generate()
	b, _ := Market{Seed: 7}.Generate()
	c, _ := Market{Seed: 8}.Generate()
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave different scenarios")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("different seeds gave the same scenarios")
	}
	if len(a) != DefaultScenarios || len(a[0].Ticks) != DefaultTicks {
		t.Errorf("%d scenarios of %d ticks", len(a), len(a[0].Ticks))
	}
	if _, err := (Market{Ticks: 3}).Generate(); err == nil {
		t.Error("3 ticks accepted")
	}
}

// TestAgentStrategyBaseline: against the agent's own strategy, an entry
// is judged by what it changes in that strategy. "Wait when price drops
// 3 %" does nothing to a holder, but it silences the stop-loss of an
// agent that sells on a 5 % drop: it passes against holding and fails
// against the agent's strategy on crash scenarios.
func TestAgentStrategyBaseline(t *testing.T) {
	entry, err := Parse("when price drops 3 %, wait")
	if err != nil {
		t.Fatal(err)
	}
	stop, err := Parse("when price drops 5 %, sell everything")
	if err != nil {
		t.Fatal(err)
	}
	m := Market{Scenarios: 10, Regimes: []Regime{RegimeCrash}}
	hold, err := Evaluate(context.Background(), &Request{Fragment: entry, Market: m})
	if err != nil {
		t.Fatal(err)
	}
	if !hold.Pass {
		t.Fatalf("against holding, waiting failed: %v", hold.Reasons)
	}
	own, err := Evaluate(context.Background(), &Request{Fragment: entry, Baseline: []*Fragment{stop}, Market: m})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("baseline %+v, with the entry %+v: %v", own.Baseline, own.Strategy, own.Reasons)
	if own.Pass {
		t.Error("against a stop-loss strategy, silencing the stop-loss passed")
	}
	if own.Baseline.Turnover == 0 {
		t.Error("the agent's strategy never traded: the baseline is not the agent's")
	}
	// A harmless entry against the same strategy: waiting at gas above
	// 500 gwei, which the scenarios never reach, changes nothing.
	calm, err := Parse("when gas above 500 gwei, wait")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := Evaluate(context.Background(), &Request{Fragment: calm, Baseline: []*Fragment{stop}, Market: m})
	if err != nil || !ev.Pass || ev.Strategy.MeanReturn != ev.Baseline.MeanReturn {
		t.Errorf("a no-op entry against the agent's strategy: %+v, %v", ev, err)
	}
	// Malformed baselines are refused.
	for _, b := range [][]*Fragment{{nil}, {{Conditions: []Condition{{Text: "x", Expr: "nope >"}}, Actions: []Action{{Kind: ActBuy, Size: 0.1}}}}, make([]*Fragment, MaxBaselineRules+1)} {
		if _, err := Evaluate(context.Background(), &Request{Fragment: entry, Baseline: b, Market: m}); err == nil {
			t.Errorf("baseline %v accepted", b)
		}
	}
}

// words is a test vectorizer: a bag of words hashed into 64 buckets.
func words(texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 64)
		for w := range tokens(t) {
			h := 0
			for _, r := range w {
				h = h*31 + int(r)
			}
			v[(h%64+64)%64]++
		}
		out[i] = v
	}
	return out, nil
}

// TestLibraryRetrieval: once indexed, the library retrieves components by
// embedding and reuses one only when its expression is the condition's in
// canonical form; a similar component with another expression is not
// reused.
func TestLibraryRetrieval(t *testing.T) {
	l := NewLibrary()
	if err := l.Index(words); err != nil {
		t.Fatal(err)
	}
	ms, err := l.Retrieve("gas expensive above 100 gwei", 3)
	if err != nil || len(ms) == 0 || ms[0].Component.Name != "gas_expensive" {
		t.Fatalf("retrieve = %+v, %v; want gas_expensive first", ms, err)
	}
	f := &Fragment{
		Conditions: []Condition{{Text: "gas above 100 gwei", Expr: "(gas>100.0)"}, {Text: "gas above 101 gwei", Expr: "gas > 101.0"}},
		Actions:    []Action{{Kind: ActWait}},
	}
	p, err := l.Compose(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Reused) != 1 || p.Reused[0] != "gas_expensive" || p.Retrieved != 1 || len(p.Novel) != 1 || p.Novel[0].Expr != "gas > 101.0" {
		t.Errorf("plan = %+v; want gas_expensive reused by retrieval and the 101 gwei condition novel", p)
	}
	// Promoted conditions are embedded as they are added, and found.
	if n := l.Promote("e1", p); n != 1 {
		t.Fatalf("promoted %d", n)
	}
	if p2, err := l.Compose(f); err != nil || len(p2.Reused) != 2 || p2.Retrieved != 2 {
		t.Errorf("after promotion: %+v, %v; want both conditions reused by retrieval", p2, err)
	}
	// A vectorizer that fails: Compose says so rather than guessing.
	broken := NewLibrary()
	if err := broken.Index(func([]string) ([][]float32, error) { return nil, errors.New("down") }); err == nil {
		t.Error("Index with a failing vectorizer succeeded")
	}
	calls := 0
	flaky := func(texts []string) ([][]float32, error) {
		calls++
		if calls > 1 {
			return nil, errors.New("down")
		}
		return words(texts)
	}
	if err := broken.Index(flaky); err != nil {
		t.Fatal(err)
	}
	if _, err := broken.Compose(f); err == nil {
		t.Error("Compose hid a vectorizer failure")
	}
}

func TestComponentKindText(t *testing.T) {
	for _, k := range []ComponentKind{KindCondition, KindSizing} {
		b, err := k.MarshalText()
		if err != nil {
			t.Fatalf("%d: %v", k, err)
		}
		var got ComponentKind
		if err := got.UnmarshalText(b); err != nil || got != k || string(b) != k.String() {
			t.Errorf("%s round-trips to %s, %v", b, got, err)
		}
	}
	if _, err := ComponentKind(7).MarshalText(); err == nil {
		t.Error("an unknown kind marshalled")
	}
	var k ComponentKind
	if err := k.UnmarshalText([]byte("wasm")); err == nil {
		t.Error("an unknown kind name unmarshalled")
	}
}
