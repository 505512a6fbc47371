package gate

import (
	"context"
	"fmt"
	"time"

	"github.com/wardhq/ward/internal/crashpoint"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
)

// ReconciledCommit is what ReconcileCommits did with one permit a crash
// left consumed without an outcome record.
type ReconciledCommit struct {
	PermitID string
	// Status is the outcome recorded: executed (every transaction of the
	// plan mined) or failed; StatusNone while a transaction of the permit
	// is still in flight, which leaves the permit open for a later start.
	Status store.ActionStatus
	// Executed reports whether the write reached (or may have reached)
	// its effect: its spend stays counted.
	Executed bool
	Txs      int // journaled transactions of the permit
	Why      string
}

// ReconcileCommits completes the record of every commit a crash
// interrupted: each permit consumed at or before before that has no
// outcome record (store.Permits.OpenCommits) gets exactly one, from what
// the send journal says of its transactions. No transaction journaled
// means nothing was sent for a chain write: it did not execute, and its
// spend is removed. Transactions all settled are the outcome: executed
// when the whole plan was mined, failed otherwise (with the spend kept if
// any reached the chain). A transaction still in flight leaves the permit
// open: its outcome is not known yet. A write that is not a chain
// transaction (no plan transactions) cannot be checked: it is recorded
// failed, "interrupted", with its spend kept, the safe side.
//
// It is idempotent across restarts, a crash during it included: the
// permit_consumed record is written first if missing, then the outcome,
// then the spend settled; a permit with an outcome record is not listed
// again, and a spend not settled stays counted. It must run before the
// gate serves commits (before bounds it to permits no live commit holds).
func (t *Tools) ReconcileCommits(ctx context.Context, sent store.SentTxs, before time.Time) ([]ReconciledCommit, error) {
	open, err := t.permits.OpenCommits(ctx, 0)
	if err != nil {
		return nil, fmt.Errorf("reconcile commits: %w", err)
	}
	var out []ReconciledCommit
	for _, p := range open {
		if p.ClosedAt.After(before) {
			continue
		}
		r, err := t.reconcileCommit(ctx, sent, &p)
		if err != nil {
			return out, fmt.Errorf("reconcile commit %s: %w", p.ID, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// ReconcileCommit is ReconcileCommits for the one permit permitID, when
// it is consumed at or before before and has no outcome record; it does
// nothing otherwise. The daemon calls it when a transaction of a commit
// left open settles after the start (the wallet's next Send reconciles
// it).
func (t *Tools) ReconcileCommit(ctx context.Context, sent store.SentTxs, permitID string, before time.Time) (ReconciledCommit, bool, error) {
	p, err := t.permits.Permit(ctx, permitID)
	if err != nil || p.Status != store.PermitConsumed || p.ClosedAt.After(before) {
		return ReconciledCommit{}, false, err
	}
	had, err := t.actions.Actions(ctx, store.ActionFilter{PermitID: permitID, Kind: store.ActionToolCall, Limit: 1})
	if err != nil || len(had) > 0 {
		return ReconciledCommit{}, false, err
	}
	r, err := t.reconcileCommit(ctx, sent, &p)
	return r, err == nil && r.Status != store.StatusNone, err
}

func (t *Tools) reconcileCommit(ctx context.Context, sent store.SentTxs, p *store.Permit) (ReconciledCommit, error) {
	r := ReconciledCommit{PermitID: p.ID}
	txs, err := sent.PermitTxs(ctx, p.ID)
	if err != nil {
		return r, err
	}
	r.Txs = len(txs)
	rec := t.reconciledRecord(p)
	if !judgeCommit(&r, rec, p, txs) {
		return r, nil // a transaction is still in flight
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := t.appendReconciled(wctx, p, rec); err != nil {
		return r, err
	}
	crashpoint.Hit(crashpoint.Reconciled)
	// Settled after the record: a crash between the two leaves the spend
	// Begin recorded counted, the safe side.
	t.finish(wctx, p.ID, true, r.Executed, p.ValueCents)
	if !r.Executed {
		t.releaseHold(wctx, p.ID)
	}
	return r, nil
}

// reconciledRecord returns the tool-call record of p's commit, failed
// until judgeCommit finds every transaction of the plan mined.
func (t *Tools) reconciledRecord(p *store.Permit) *store.ActionRecord {
	now := t.cfg.Now()
	rec := &store.ActionRecord{ID: id.New(now), Time: now, Kind: store.ActionToolCall, PermitID: p.ID, PrincipalID: p.PrincipalID,
		SessionID: p.SessionID, Tool: p.Tool, ArgsHash: p.ArgsHash, Status: store.StatusFailed}
	if e, ok := t.reg.Get(p.Tool); ok {
		rec.ActionType = e.Action
	}
	return rec
}

// reconciledTx is one journaled transaction in a reconciled record's
// detail.
type reconciledTx struct {
	Hash  string          `json:"hash"`
	Nonce uint64          `json:"nonce"`
	State store.SentState `json:"state"`
	Block uint64          `json:"block,omitempty"`
}

// judgeCommit sets r and rec to the outcome of p's commit as its journaled
// transactions txs show it: nothing sent, a write of unknown effect, or
// how many of the plan's transactions were mined. It reports false,
// leaving rec alone, while a transaction is still in flight.
func judgeCommit(r *ReconciledCommit, rec *store.ActionRecord, p *store.Permit, txs []store.SentTx) bool {
	planLen := 0
	if p.Plan != nil {
		planLen = len(p.Plan.Txs)
	}
	var states []reconciledTx
	mined, onChain := 0, false
	for _, tx := range txs {
		if !tx.State.Final() {
			r.Why = "transaction " + tx.Hash + " is still in flight"
			return false
		}
		states = append(states, reconciledTx{tx.Hash, tx.Nonce, tx.State, tx.Block})
		switch tx.State {
		case store.SentMined:
			mined++
			onChain = true
		case store.SentReverted:
			onChain = true
		}
	}
	switch {
	case len(txs) == 0 && planLen > 0:
		r.Why = "ward stopped after consuming the permit and before sending: nothing was sent"
		rec.BlockReason = string(reason.CommitInterrupted)
	case len(txs) == 0:
		// Not a journaled chain write: ward cannot tell whether it ran.
		r.Executed = true
		r.Why = "ward stopped while the write ran; whether it took effect is unknown"
		rec.BlockReason = string(reason.CommitInterrupted)
	default:
		last := txs[len(txs)-1]
		rec.TxHash, rec.ChainID, rec.GroundTruth = last.Hash, last.ChainID, "receipt"
		r.Executed = onChain
		if mined == len(txs) && mined == last.PlanLen {
			rec.Status, rec.Verified = store.StatusExecuted, true
			r.Why = "every transaction of the plan was mined"
		} else {
			r.Why = fmt.Sprintf("%d of the plan's %d transactions were mined", mined, last.PlanLen)
		}
	}
	r.Status = rec.Status
	rec.Detail = jsonOf(struct {
		Reconciled bool           `json:"reconciled"`
		Why        string         `json:"why"`
		Txs        []reconciledTx `json:"txs,omitempty"`
	}{true, r.Why, states})
	return true
}

// appendReconciled appends rec, first with the permit-consumed record
// the interrupted commit may not have written.
func (t *Tools) appendReconciled(ctx context.Context, p *store.Permit, rec *store.ActionRecord) error {
	had, err := t.actions.Actions(ctx, store.ActionFilter{PermitID: p.ID, Kind: store.ActionPermitConsumed, Limit: 1})
	if err != nil {
		return err
	}
	if len(had) == 0 {
		at := p.ClosedAt
		consumed := &store.ActionRecord{ID: id.New(at), Kind: store.ActionPermitConsumed, Time: at, PermitID: p.ID, PrincipalID: p.PrincipalID,
			SessionID: p.SessionID, Tool: p.Tool, ActionType: rec.ActionType, ArgsHash: p.ArgsHash}
		if err := t.actions.AppendAction(ctx, consumed); err != nil {
			return err
		}
	}
	return t.actions.AppendAction(ctx, rec)
}
