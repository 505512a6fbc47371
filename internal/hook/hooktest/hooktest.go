// Package hooktest is the conformance suite for hook.Hook implementations,
// in the manner of testing/slogtest: Run checks that a hook behaves as the
// hook chain relies on, whatever it checks.
package hooktest

import (
	"context"
	"encoding/json"
	"math/big"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/tool"
)

// Case is one call to check a hook against.
type Case struct {
	Name string
	Call *hook.Call
}

// Timeout is how long Check may take with an already-cancelled context.
const Timeout = 2 * time.Second

// Run checks the hooks newHook makes against DefaultCases and the given
// cases. Every hook must:
//
//	(a) veto only with a valid reason code, a message and its own name;
//	(b) be deterministic: the same call gets the same verdict, repeated
//	    on one hook and on a fresh one;
//	(c) be safe for concurrent use (run the suite with -race) and give
//	    concurrent calls the sequential verdict;
//	(d) return within Timeout, vetoing or passing, when the context is
//	    already cancelled;
//	(e) leave the Call and everything it points to unchanged.
//
// newHook is called once per sub-test and must return a hook in the same
// initial state every time.
func Run(t *testing.T, newHook func() hook.Hook, cases ...Case) {
	t.Helper()
	all := append(DefaultCases(), cases...)
	h := newHook()
	name := h.Name()
	if name == "" {
		t.Fatal("Name() is empty")
	}
	t.Run("name stable", func(t *testing.T) {
		if again := newHook().Name(); again != name {
			t.Errorf("Name() = %q, then %q", name, again)
		}
	})
	for _, c := range all {
		t.Run(c.Name, func(t *testing.T) {
			h := newHook()
			before := snapshot(t, c.Call)
			v := h.Check(context.Background(), c.Call)
			t.Run("veto has code", func(t *testing.T) { checkVerdict(t, name, v) })
			t.Run("deterministic", func(t *testing.T) {
				if again := h.Check(context.Background(), c.Call); !same(v, again) {
					t.Errorf("second Check = %+v, first %+v", again, v)
				}
				if fresh := newHook().Check(context.Background(), c.Call); !same(v, fresh) {
					t.Errorf("Check on a fresh hook = %+v, first %+v", fresh, v)
				}
			})
			t.Run("concurrent", func(t *testing.T) { hammer(t, h, c.Call, v) })
			t.Run("cancelled context", func(t *testing.T) { cancelled(t, h, name, c.Call) })
			t.Run("call unchanged", func(t *testing.T) {
				if after := snapshot(t, c.Call); after != before {
					t.Errorf("Check modified the call:\nbefore %s\nafter  %s", before, after)
				}
			})
		})
	}
}

func checkVerdict(t *testing.T, name string, v hook.Verdict) {
	t.Helper()
	if !v.Veto {
		return
	}
	if !v.Code.Valid() {
		t.Errorf("veto with invalid code %q", v.Code)
	}
	if v.Message == "" {
		t.Errorf("veto %s without a message for the agent", v.Code)
	}
	if v.Hook != name {
		t.Errorf("veto names hook %q, want %q", v.Hook, name)
	}
}

func same(a, b hook.Verdict) bool {
	return a.Veto == b.Veto && a.Hook == b.Hook && a.Code == b.Code && a.Message == b.Message &&
		a.Detail == b.Detail && reflect.DeepEqual(simJSON(a.Sim), simJSON(b.Sim))
}

func simJSON(s *hook.SimResult) string {
	if s == nil {
		return ""
	}
	b, err := json.Marshal(s)
	if err != nil {
		return "unmarshalable: " + err.Error()
	}
	return string(b)
}

func hammer(t *testing.T, h hook.Hook, c *hook.Call, want hook.Verdict) {
	t.Helper()
	const workers, rounds = 8, 20
	var wg sync.WaitGroup
	errs := make(chan hook.Verdict, workers)
	for range workers {
		wg.Go(func() {
			for range rounds {
				if got := h.Check(context.Background(), c); !same(got, want) {
					errs <- got
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for got := range errs {
		t.Errorf("concurrent Check = %+v, sequential %+v", got, want)
	}
}

func cancelled(t *testing.T, h hook.Hook, name string, c *hook.Call) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan hook.Verdict, 1)
	go func() { done <- h.Check(ctx, c) }()
	timer := time.NewTimer(Timeout)
	defer timer.Stop()
	select {
	case v := <-done:
		checkVerdict(t, name, v)
	case <-timer.C:
		t.Errorf("Check with a cancelled context did not return within %s", Timeout)
	}
}

// snapshot renders everything a Call holds, through its pointers.
func snapshot(t *testing.T, c *hook.Call) string {
	t.Helper()
	if c == nil {
		return "nil"
	}
	var args string
	if c.Args != nil {
		args = string(c.Args.Canonical())
	}
	b, err := json.Marshal(struct {
		Def       *tool.Def
		Args      string
		Plan      *tool.Plan
		Phase     uint8
		SessionID string
		Tick      uint64
		Now       time.Time
		Preview   bool
	}{c.Def, args, c.Plan, uint8(c.Phase), c.SessionID, c.Tick, c.Now, c.Preview})
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return string(b)
}

// Fixed values of the default cases.
var (
	// Now is the time of every default case.
	Now = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	// Wallet, Token and Router are the addresses the default plans use
	// (EIP-55: Wallet and Router are checksummed, Token is lower case).
	Wallet = mustAddr("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
	Token  = mustAddr("0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359")
	Router = mustAddr("0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB")
)

func mustAddr(s string) tool.Address {
	a, err := tool.ParseAddress(s)
	if err != nil {
		panic(err)
	}
	return a
}

func mustArgs(s string) *tool.Args {
	a, err := tool.ParseArgs([]byte(s))
	if err != nil {
		panic(err)
	}
	return a
}

// Def returns a tool definition with the given tier, risk tier and effect.
func Def(name string, tier tool.Tier, risk tool.RiskTier, effect tool.Effect) *tool.Def {
	return &tool.Def{
		Name: name, Description: "test tool", Category: tool.CatTrading, Tier: tier, RiskTier: risk,
		Budget: tool.Medium, Params: json.RawMessage(`{"type":"object"}`), SchemaVersion: 1, Effect: effect,
	}
}

// Plan returns a plan that approves and swaps amount of Token through
// Router, worth cents.
func Plan(amount int64, cents int64) *tool.Plan {
	return &tool.Plan{
		Chain: 1337, From: Wallet,
		Txs: []tool.Tx{
			{To: Token, Data: tool.HexBytes{0x09, 0x5e, 0xa7, 0xb3, 1, 2}, Label: "approve"},
			{To: Router, Data: tool.HexBytes{0x41, 0x4b, 0xf3, 0x89, 3}, Value: big.NewInt(0), Label: "swap"},
		},
		Tokens: []tool.TokenUse{
			{Token: Token, Symbol: "TKN", Decimals: 18, Amount: big.NewInt(amount), Out: true},
			{Token: tool.Address{}, Symbol: "ETH", Decimals: 18, Amount: big.NewInt(1), Out: false},
		},
		ValueCents: cents, Summary: "swap TKN for ETH",
	}
}

// DefaultCases returns calls every hook meets: reads, previews with and
// without a plan, commits in each phase, layer 3 tools, unpriced and
// zero-value plans, arguments with good and bad checksums, and malformed
// calls (no plan on a commit, an invalid phase).
func DefaultCases() []Case {
	read := Def("uniswap_get_quote", tool.Read, tool.Layer1, tool.EffectNone)
	swap := Def("uniswap_swap_exact", tool.Write, tool.Layer2, tool.EffectOpen)
	closing := Def("aave_withdraw_asset", tool.Write, tool.Layer2, tool.EffectClose)
	lever := Def("gmx_open_position", tool.Write, tool.Layer3, tool.EffectOpen)
	settle := Def("erc20_revoke_approval", tool.Write, tool.Layer2, tool.EffectSettle)
	goodArgs := mustArgs(`{"token":"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359","amount":"1000","route":["0xdbf03b407c01e7cd3cbea99509d93f8dddc8c6fb"]}`)
	badArgs := mustArgs(`{"token":"0xfB6916095CA1df60bB79Ce92cE3Ea74c37c5d359","amount":"1000"}`)
	call := func(d *tool.Def, a *tool.Args, p *tool.Plan, ph hook.Phase, preview bool) *hook.Call {
		if a == nil {
			a = tool.EmptyArgs()
		}
		return &hook.Call{Def: d, Args: a, Plan: p, Phase: ph, SessionID: "s1", Tick: 7, Now: Now, Preview: preview}
	}
	return []Case{
		{"read", call(read, goodArgs, nil, hook.Thriving, false)},
		{"read in terminal", call(read, nil, nil, hook.Terminal, false)},
		{"preview without plan", call(swap, goodArgs, nil, hook.Stable, true)},
		{"preview with plan", call(swap, goodArgs, Plan(1000, 500), hook.Thriving, true)},
		{"commit thriving", call(swap, goodArgs, Plan(1000, 500), hook.Thriving, false)},
		{"commit conservation", call(swap, goodArgs, Plan(1000, 500), hook.Conservation, false)},
		{"close in declining", call(closing, nil, Plan(10, 100), hook.Declining, false)},
		{"settle in terminal", call(settle, nil, Plan(0, 0), hook.Terminal, false)},
		{"layer3 preview in conservation", call(lever, goodArgs, Plan(1000, 500), hook.Conservation, true)},
		{"unpriced", call(swap, goodArgs, Plan(1000, -1), hook.Thriving, false)},
		{"large value", call(swap, goodArgs, Plan(1<<62, 1<<62), hook.Thriving, false)},
		{"bad checksum", call(swap, badArgs, Plan(1000, 500), hook.Thriving, false)},
		{"commit without plan", call(swap, goodArgs, nil, hook.Thriving, false)},
		{"invalid phase", call(swap, goodArgs, Plan(1000, 500), 0, false)},
		{"empty plan", call(swap, nil, &tool.Plan{Chain: 1337, From: Wallet, ValueCents: 0}, hook.Stable, false)},
	}
}
