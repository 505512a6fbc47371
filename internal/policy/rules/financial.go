package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules/format"
	"github.com/wardhq/ward/internal/reason"
)

// Spend categories the financial rules track.
const (
	SpendTransfer  = "transfer"
	SpendX402      = "x402"
	SpendInference = "inference"
)

const (
	hour = time.Hour
	day  = 24 * time.Hour
)

// financial enforces the treasury policy: transfer limits per payment, per
// sliding hour and day and per turn, the minimum reserve, a confirmation
// threshold (quarantine), the x402 domain allowlist and limits, and the daily
// inference budget. Spend windows count executed spend (and holds of
// admitted calls), never merely allowed decisions.
func (b *builder) financial() {
	t := b.cfg.Treasury
	b.checkTreasury(t)
	b.valueRules(t)
	if len(t.TransferTools) > 0 {
		b.transferRules(t)
	}
	if len(t.X402Tools) > 0 {
		b.x402Rules(t)
	}
	if len(t.InferenceCategories) > 0 {
		b.add(windowLimit("financial.inference-daily-budget", 30, policy.Categories(t.InferenceCategories...),
			b.cfg.Args.InferenceCost, SpendInference, day, t.MaxInferenceDailyCents,
			reason.InferenceBudgetExceeded, "daily inference budget"))
	}
}

// checkTreasury reports the treasury's negative limits and malformed x402
// domain patterns.
func (b *builder) checkTreasury(t Treasury) {
	for _, f := range []struct {
		path string
		v    int64
	}{
		{"max_transfer_per_payment_cents", t.MaxTransferPerPaymentCents},
		{"max_transfer_hourly_cents", t.MaxTransferHourlyCents},
		{"max_transfer_daily_cents", t.MaxTransferDailyCents},
		{"min_reserve_cents", t.MinReserveCents},
		{"max_x402_per_request_cents", t.MaxX402PerRequestCents},
		{"max_x402_hourly_cents", t.MaxX402HourlyCents},
		{"max_x402_daily_cents", t.MaxX402DailyCents},
		{"max_inference_daily_cents", t.MaxInferenceDailyCents},
		{"max_transfers_per_turn", int64(t.MaxTransfersPerTurn)},
		{"require_confirmation_above_cents", t.RequireConfirmationAboveCents},
		{"quarantine_untrusted_above_cents", t.QuarantineUntrustedAboveCents},
	} {
		nonNegative(b, "treasury."+f.path, f.v)
	}
	for i, d := range t.X402AllowedDomains {
		if err := format.ValidDomainPattern(d); err != nil {
			b.errorf(fmt.Sprintf("treasury.x402_allowed_domains.%d", i), "%v", err)
		}
	}
}

// transferRules adds the rules on t.TransferTools: a valid amount, the
// per-payment limit, the minimum reserve, the hourly and daily windows, the
// transfers per turn and the confirmation threshold.
func (b *builder) transferRules(t Treasury) {
	amounts := b.cfg.Args.Amount
	transfers := policy.Names(t.TransferTools...)
	// The seed read a missing amount as 0, which let a call without one
	// through every limit; ward denies it.
	b.add(policy.Rule{
		ID: "financial.transfer-amount-valid", Priority: 19, Applies: transfers,
		Eval: func(r *policy.Request) (policy.Result, error) {
			n, ok, res := amountOf(r, SpendTransfer, amounts)
			switch {
			case res.Opinion:
				return res, nil
			case !ok:
				return policy.Denies(reason.InvalidAmount, "a transfer must state its amount in cents"), nil
			case n == 0:
				return policy.Denies(reason.InvalidAmount, "a transfer amount must be positive"), nil
			}
			return policy.NoOpinion, nil
		},
	})
	// The message is "transfer amount <n>c exceeds ...": only the amount
	// is the call's, so the rest is spelled once and the message is one
	// allocation.
	overLimit := "c exceeds the per-payment limit of " + cents(t.MaxTransferPerPaymentCents)
	b.add(policy.Rule{
		ID: "financial.transfer-per-payment-limit", Priority: 20, Applies: transfers,
		Eval: func(r *policy.Request) (policy.Result, error) {
			n, _, res := amountOf(r, SpendTransfer, amounts)
			if res.Opinion {
				return res, nil
			}
			if n > t.MaxTransferPerPaymentCents {
				var buf [128]byte
				msg := strconv.AppendInt(append(buf[:0], "transfer amount "...), n, 10)
				return policy.Denies(reason.PerPaymentLimit, string(append(msg, overLimit...))), nil
			}
			return policy.NoOpinion, nil
		},
	})
	b.add(minimumReserve(transfers, amounts, t.MinReserveCents))
	b.add(windowLimit("financial.transfer-hourly-limit", 30, transfers, amounts, SpendTransfer, hour,
		t.MaxTransferHourlyCents, reason.HourlyTransferLimit, "hourly transfer limit"))
	b.add(windowLimit("financial.transfer-daily-limit", 31, transfers, amounts, SpendTransfer, day,
		t.MaxTransferDailyCents, reason.DailyTransferLimit, "daily transfer limit"))
	b.add(transfersPerTurn(b.selectorFor("financial.transfers-per-turn", transfers), transfers, t.MaxTransfersPerTurn))
	b.add(policy.Rule{
		ID: "financial.confirmation-threshold", Priority: 35, Applies: transfers,
		Eval: func(r *policy.Request) (policy.Result, error) {
			n, _, res := amountOf(r, SpendTransfer, amounts)
			if res.Opinion {
				return res, nil
			}
			if n > t.RequireConfirmationAboveCents {
				return policy.Quarantines(reason.ConfirmationRequired,
					fmt.Sprintf("transfers above %dc wait for the owner's confirmation", t.RequireConfirmationAboveCents)), nil
			}
			return policy.NoOpinion, nil
		},
	})
}

// minimumReserve denies a transfer that would leave the balance, less the
// spend held for admitted calls, below reserve, and any transfer while the
// balance is unknown.
func minimumReserve(transfers policy.Selector, amounts []string, reserve int64) policy.Rule {
	return policy.Rule{
		ID: "financial.minimum-reserve", Priority: 25, Applies: transfers, Stateful: true,
		Eval: func(r *policy.Request) (policy.Result, error) {
			n, _, res := amountOf(r, SpendTransfer, amounts)
			if res.Opinion {
				return res, nil
			}
			balance, known := r.State.Balance()
			if !known {
				return policy.Denies(reason.BalanceUnknown, "the balance is unknown, so the minimum reserve cannot be checked"), nil
			}
			after := balance - r.State.HeldSpend(r.Now) - n
			if after < reserve {
				return policy.Denies(reason.MinimumReserve,
					"transfer would leave "+cents(after)+", below the minimum reserve of "+cents(reserve)), nil
			}
			return policy.NoOpinion, nil
		},
	}
}

// transfersPerTurn denies a transfer once the turn has executed perTurn
// calls of the tools counted selects.
func transfersPerTurn(counted, transfers policy.Selector, perTurn int) policy.Rule {
	turnQuery := countQuery(counted)
	turnQuery.Scope = policy.ScopeTurn
	return policy.Rule{
		ID: "financial.transfers-per-turn", Priority: 32, Applies: transfers, Stateful: true,
		Eval: func(r *policy.Request) (policy.Result, error) {
			q := turnQuery
			q.Key = r.Turn.ID
			done := r.State.Count(q, r.Now)
			if done >= perTurn {
				return policy.Denies(reason.TurnTransferLimit,
					"this turn already executed "+strconv.Itoa(done)+" transfers (max "+strconv.Itoa(perTurn)+")"), nil
			}
			return policy.NoOpinion, nil
		},
	}
}

// x402Rules adds the rules on t.X402Tools: the domain allowlist (https
// only unless allowed), the per-request limit and the hourly and daily
// windows.
func (b *builder) x402Rules(t Treasury) {
	x402 := policy.Names(t.X402Tools...)
	urls, x402Amounts := b.cfg.Args.URL, b.cfg.Args.X402Amount
	domains := slices.Clone(t.X402AllowedDomains)
	insecure := t.AllowInsecureX402
	b.add(policy.Rule{
		ID: "financial.x402-domain-allowlist", Priority: 20, Applies: x402,
		Eval: func(r *policy.Request) (policy.Result, error) {
			u, ok, res := stringArg(r.Args, urls)
			if res.Opinion {
				return res, nil
			}
			if !ok {
				return policy.Denies(reason.MissingArgument, "an x402 request needs a url"), nil
			}
			host, err := format.Host(u)
			if err != nil {
				return policy.Denies(reason.InvalidURL, "invalid x402 url: "+err.Error()), nil
			}
			if !insecure && !strings.HasPrefix(strings.ToLower(u), "https://") {
				return policy.Denies(reason.X402InsecureURL, "x402 payments go over https only"), nil
			}
			for _, d := range domains {
				if format.DomainMatch(host, d) {
					return policy.NoOpinion, nil
				}
			}
			return policy.Denies(reason.X402DomainNotAllowed, "the x402 domain is not on the allowlist"), nil
		},
	})
	b.add(policy.Rule{
		ID: "financial.x402-per-request-limit", Priority: 21, Applies: x402,
		Eval: func(r *policy.Request) (policy.Result, error) {
			n, ok, res := amountOf(r, SpendX402, x402Amounts)
			switch {
			case res.Opinion:
				return res, nil
			case !ok:
				return policy.Denies(reason.X402AmountRequired, "an x402 request must state the most it may pay (max_payment_cents)"), nil
			case n > t.MaxX402PerRequestCents:
				return policy.Denies(reason.X402PerRequestLimit,
					"x402 payment "+cents(n)+" exceeds the per-request limit of "+cents(t.MaxX402PerRequestCents)), nil
			}
			return policy.NoOpinion, nil
		},
	})
	b.add(windowLimit("financial.x402-hourly-limit", 30, x402, x402Amounts, SpendX402, hour,
		t.MaxX402HourlyCents, reason.X402HourlyLimit, "hourly x402 limit"))
	b.add(windowLimit("financial.x402-daily-limit", 31, x402, x402Amounts, SpendX402, day,
		t.MaxX402DailyCents, reason.X402DailyLimit, "daily x402 limit"))
}

// windowLimit denies a call when the executed spend of its category in the
// sliding window plus its own amount exceeds max. A call without an amount
// is checked as zero: it is still refused once the budget is spent.
func windowLimit(id string, prio int, sel policy.Selector, amounts []string, category string,
	window time.Duration, max int64, code reason.Code, what string) policy.Rule {
	return policy.Rule{
		ID: id, Priority: prio, Applies: sel, Stateful: true,
		Eval: func(r *policy.Request) (policy.Result, error) {
			n, known, res := amountOf(r, category, amounts)
			if res.Opinion {
				return res, nil
			}
			spent := r.State.Spent(category, window, r.Now)
			if spent+n > max || (!known && spent >= max) {
				return policy.Denies(code, what+" exceeded: "+cents(spent)+" spent + "+cents(n)+" > "+cents(max)), nil
			}
			return policy.NoOpinion, nil
		},
	}
}

// cents formats an amount for a message: "2500c".
func cents(n int64) string { return strconv.FormatInt(n, 10) + "c" }

// meter tells the snapshot what a call spends, so that the gate can hold it
// at admission and record it after execution.
func (b *builder) meter() policy.Meter {
	t := b.cfg.Treasury
	transfer := slices.Clone(t.TransferTools)
	x402 := slices.Clone(t.X402Tools)
	inference := slices.Clone(t.InferenceCategories)
	args := b.cfg.Args
	return func(r *policy.Request) (policy.Spend, bool) {
		var category string
		var names []string
		switch {
		case slices.Contains(transfer, r.Tool.Name):
			category, names = SpendTransfer, args.Amount
		case slices.Contains(x402, r.Tool.Name):
			category, names = SpendX402, args.X402Amount
		case slices.Contains(inference, r.Tool.Category):
			category, names = SpendInference, args.InferenceCost
		default:
			return policy.Spend{}, false
		}
		n, ok, res := amountOf(r, category, names)
		if !ok || res.Opinion {
			return policy.Spend{}, false
		}
		return policy.Spend{Category: category, Cents: n}, true
	}
}
