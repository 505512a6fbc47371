package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// DemoResult is what one demo step did.
type DemoResult struct {
	Step     string        `json:"step"`
	OK       bool          `json:"ok"`
	Code     string        `json:"code,omitempty"`
	Detail   string        `json:"detail,omitempty"`
	Duration time.Duration `json:"duration_ns"`
}

// RunDemo runs the end-to-end scenario of the tool gate on a fresh store
// in dir and the embedded dev chain: an agent previews and commits a swap,
// an LP deposit and a vault deposit; reused, forged, expired, altered and
// stale-policy commits are refused; the spending limit, the allowlist and
// the simulation veto what they should; phases block what they should;
// 1,000 concurrent commits of one permit execute once; an emergency halt
// stops writes. Each step is written to w as it completes; the error
// lists the steps that did not behave as expected.
func RunDemo(ctx context.Context, w io.Writer, dir string) ([]DemoResult, error) {
	var offset atomic.Int64 // the demo's clock runs ahead to expire permits
	now := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	cfg := rules.DefaultConfig()
	snap, err := rules.Compile(cfg)
	if err != nil {
		return nil, err
	}
	st, err := Open(ctx, Config{
		DB: DefaultDB(dir), Synchronous: "full", Policy: snap, DevSeed: "ward-demo",
		Hooks: hook.Config{
			Spending: hook.SpendingConfig{PerTickCents: 400_000, PerSessionCents: 5_000_000, DailyCents: 5_000_000},
			Rate:     hook.RateConfig{Max: 100, Window: time.Hour},
		},
		AnnounceDelay: 30 * time.Second, Now: now,
		// The owner's allowlist leaves DAI out.
		DevAllowlist: func(dc *chain.DevContracts, a *hook.AllowlistConfig) {
			var keep []tool.Address
			for _, x := range a.Tokens {
				if x != tool.Address(dc.DAI) {
					keep = append(keep, x)
				}
			}
			a.Tokens = keep
		},
	})
	if err != nil {
		return nil, fmt.Errorf("demo: start: %w", err)
	}
	defer st.Close()
	d := &demo{st: st, w: w, now: now}
	dai := st.Dev.Contracts().DAI
	agent, err := st.Session(ctx, "agent-1", policy.Agent, "dev")
	if err != nil {
		return nil, err
	}
	d.s = agent
	dc := st.Dev.Contracts()
	usdc, weth := dc.USDC.Hex(), dc.WETH.Hex()

	swap := func(amountUSDC int64, extra string) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"action_type":"swap","venue":"uniswap_v3","params":{"token_in":%q,"token_out":%q,"amount_in":"%d"%s}}`,
			usdc, weth, amountUSDC*1_000_000, extra))
	}

	// 1. The happy paths: a swap, an LP deposit, a vault deposit.
	swapPermit := d.previewOK("preview a 500 USDC → WETH swap on Uniswap V3", swap(500, ""))
	d.commitOK("commit the swap", swapPermit)
	d.refused("commit the same permit again", reason.PermitConsumed, func() error { return d.commit(swapPermit) })
	lp := d.previewOK("preview an LP deposit of 1,000 USDC + WETH (elevated: announce delay)", json.RawMessage(fmt.Sprintf(
		`{"action_type":"add_liquidity","venue":"uniswap_v2","params":{"token_a":%q,"token_b":%q,"amount_a_desired":"1000000000","amount_b_desired":"400000000000000000","slippage_bps":100}}`, usdc, weth)))
	d.refused("commit the LP deposit during its announce delay", reason.AnnounceDelay, func() error { return d.commit(lp) })
	offset.Add(int64(31 * time.Second))
	d.commitOK("commit the LP deposit after the delay", lp)
	vault := d.previewOK("preview a 1,000 USDC vault deposit", json.RawMessage(`{"action_type":"deposit","venue":"vault","params":{"assets":"1000000000"}}`))
	d.commitOK("commit the vault deposit", vault)

	// 2. Commits that must be refused.
	d.refused("commit a forged permit id", reason.PermitNotFound, func() error { return d.commit("01JD3K7ZQ4Y7K3M9XW2V5T8R00") })
	p := d.previewOK("preview a 100 USDC swap", swap(100, ""))
	d.refused("commit it with different arguments", reason.PermitMismatch, func() error {
		args, _ := json.Marshal(map[string]string{"token_in": usdc, "token_out": weth, "amount_in": "900000000"})
		_, err := st.Tools.Commit(ctx, agent, gate.CommitRequest{PermitID: p, Args: args})
		return err
	})
	offset.Add(int64(4 * time.Minute))
	d.refused("commit it after it expired", reason.PermitExpired, func() error { return d.commit(p) })
	p = d.previewOK("preview another 100 USDC swap", swap(100, ""))
	cfg.Treasury.MaxTransferDailyCents = 10_000
	changed, err := rules.Compile(cfg)
	if err != nil {
		return nil, err
	}
	if _, err := st.Engine.Swap(changed); err != nil {
		return nil, err
	}
	d.refused("commit it after the owner changed the policy", reason.PolicyChanged, func() error { return d.commit(p) })

	// 3. Hooks that veto.
	d.refused("a 5,000 USDC swap is over the $4,000 per-tick spending limit", reason.SpendTickLimit, func() error { return d.preview(swap(5_000, "")) })
	d.refused("a swap into DAI, which is not on the allowlist", reason.TokenNotAllowed, func() error {
		return d.preview(json.RawMessage(fmt.Sprintf(`{"action_type":"swap","venue":"uniswap_v2","params":{"token_in":%q,"token_out":%q,"amount_in":"10000000"}}`, usdc, dai.Hex())))
	})
	d.refused("a swap whose minimum output cannot be met reverts in simulation", reason.SimulationReverted,
		func() error { return d.preview(swap(100, `,"min_amount_out":"100000000000000000000"`)) })

	// 4. Phases.
	d.owner("owner sets the conservation phase", func() error { return st.Tools.SetPhase(ctx, hook.Conservation, "owner") })
	p = d.previewOK("in conservation a swap may be previewed", swap(50, ""))
	d.refused("but not committed", reason.PhaseBlocked, func() error { return d.commit(p) })
	w1 := d.previewOK("in conservation a vault withdrawal (close) is previewed", json.RawMessage(`{"action_type":"withdraw","venue":"vault","params":{"assets":"100000000"}}`))
	d.commitOK("and committed", w1)
	d.owner("owner sets the terminal phase", func() error { return st.Tools.SetPhase(ctx, hook.Terminal, "owner") })
	d.refused("in terminal a vault withdrawal is blocked", reason.PhaseBlocked, func() error {
		p, err := d.previewID(json.RawMessage(`{"action_type":"withdraw","venue":"vault","params":{"assets":"100000000"}}`))
		if err == nil {
			return d.commit(p)
		}
		return err
	})
	d.owner("owner sets the thriving phase again", func() error { return st.Tools.SetPhase(ctx, hook.Thriving, "owner") })

	// 5. One permit, 1,000 concurrent commits.
	p = d.previewOK("preview a 10 USDC swap", swap(10, ""))
	d.step("1,000 goroutines commit it: exactly one succeeds", func() (string, error) {
		var ok, refused atomic.Int64
		var wg sync.WaitGroup
		for range 1000 {
			wg.Go(func() {
				if err := d.commit(p); err == nil {
					ok.Add(1)
				} else if code(err) == reason.PermitConsumed {
					refused.Add(1)
				}
			})
		}
		wg.Wait()
		if ok.Load() != 1 || refused.Load() != 999 {
			return "", fmt.Errorf("%d succeeded, %d refused as consumed", ok.Load(), refused.Load())
		}
		return "1 succeeded, 999 PERMIT_ALREADY_CONSUMED", nil
	})

	// 6. Emergency halt.
	d.owner("the agent calls emergency_halt", func() error {
		_, err := st.Facade.Call(ctx, facade.NewSession(agent), "emergency_halt", json.RawMessage(`{"reason":"balances look wrong"}`))
		return err
	})
	d.refused("while halted, previews are refused", reason.Halted, func() error { return d.preview(swap(10, "")) })
	d.owner("the owner lifts the halt", func() error { return st.Tools.Resume(ctx, "owner") })
	d.previewOK("after the halt previews work again", swap(10, ""))

	// 7. The outcome is on chain.
	d.step("the wallet holds WETH, LP tokens and vault shares", func() (string, error) {
		wal := st.Wallet.Address()
		wethBal, err := st.Provider.TokenBalance(ctx, dc.WETH, wal)
		if err != nil {
			return "", err
		}
		shares, err := st.Provider.TokenBalance(ctx, dc.VaultUSDC, wal)
		if err != nil {
			return "", err
		}
		lpBal, err := st.Provider.TokenBalance(ctx, dc.UniswapV2PairUSDCWETH, wal)
		if err != nil {
			return "", err
		}
		if shares.Sign() <= 0 || lpBal.Sign() <= 0 || wethBal.Cmp(big.NewInt(0)) <= 0 {
			return "", fmt.Errorf("weth %v, lp %v, shares %v", wethBal, lpBal, shares)
		}
		return fmt.Sprintf("WETH %s, LP %s, vault shares %s", wethBal, lpBal, shares), nil
	})

	var failed []string
	for _, r := range d.results {
		if !r.OK {
			failed = append(failed, r.Step)
		}
	}
	if len(failed) > 0 {
		return d.results, fmt.Errorf("demo: %d of %d steps did not behave as expected: %q", len(failed), len(d.results), failed)
	}
	return d.results, nil
}

type demo struct {
	st      *Stack
	s       *gate.Session
	w       io.Writer
	now     func() time.Time
	results []DemoResult
}

func code(err error) reason.Code {
	var r *gate.Refusal
	if errors.As(err, &r) {
		return r.Code
	}
	return ""
}

func (d *demo) record(r DemoResult) {
	d.results = append(d.results, r)
	mark := "ok  "
	if !r.OK {
		mark = "FAIL"
	}
	fmt.Fprintf(d.w, "%s %-72s %8s  %s\n", mark, r.Step, r.Duration.Round(10*time.Microsecond), r.Detail)
}

func (d *demo) step(name string, f func() (string, error)) {
	start := time.Now()
	detail, err := f()
	r := DemoResult{Step: name, OK: err == nil, Detail: detail, Duration: time.Since(start)}
	if err != nil {
		r.Detail, r.Code = err.Error(), string(code(err))
	}
	d.record(r)
}

func (d *demo) previewID(args json.RawMessage) (string, error) {
	out, err := d.st.Facade.Call(context.Background(), facade.NewSession(d.s), "preview_action", args)
	if err != nil {
		return "", err
	}
	var pv gate.PermitView
	if err := json.Unmarshal(out, &pv); err != nil {
		return "", err
	}
	return pv.PermitID, nil
}

func (d *demo) preview(args json.RawMessage) error {
	_, err := d.previewID(args)
	return err
}

func (d *demo) commit(id string) error {
	_, err := d.st.Facade.Call(context.Background(), facade.NewSession(d.s), "commit_action", json.RawMessage(`{"permit_id":"`+id+`"}`))
	return err
}

func (d *demo) previewOK(name string, args json.RawMessage) string {
	var id string
	d.step(name, func() (string, error) {
		var err error
		id, err = d.previewID(args)
		return "permit " + id, err
	})
	return id
}

func (d *demo) commitOK(name, id string) {
	d.step(name, func() (string, error) {
		out, err := d.st.Facade.Call(context.Background(), facade.NewSession(d.s), "commit_action", json.RawMessage(`{"permit_id":"`+id+`"}`))
		if err != nil {
			return "", err
		}
		var res tool.Result
		if err := json.Unmarshal(out, &res); err != nil {
			return "", err
		}
		var o struct {
			TxHashes []string `json:"tx_hashes"`
			Verified bool     `json:"verified"`
		}
		_ = json.Unmarshal(res.Data, &o)
		if !o.Verified {
			return "", fmt.Errorf("outcome not verified: expected %s, actual %s", res.ExpectedOutcome, res.ActualOutcome)
		}
		return fmt.Sprintf("%d tx, outcome verified", len(o.TxHashes)), nil
	})
}

func (d *demo) refused(name string, want reason.Code, f func() error) {
	start := time.Now()
	err := f()
	r := DemoResult{Step: name, Duration: time.Since(start), Code: string(code(err))}
	switch {
	case err == nil:
		r.Detail = "not refused"
	case code(err) != want:
		r.Detail = fmt.Sprintf("refused with %s, want %s: %v", code(err), want, err)
	default:
		r.OK, r.Detail = true, string(want)
		var rf *gate.Refusal
		if errors.As(err, &rf) {
			r.Detail += " by " + rf.Stage
		}
	}
	d.record(r)
}

func (d *demo) owner(name string, f func() error) {
	d.step(name, func() (string, error) { return "", f() })
}
