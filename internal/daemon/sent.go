package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// sendJournal is the store's send journal as a wallet's chain.Journal:
// chain declares what it needs, the daemon converts between its typed
// values and the store's plain ones.
type sendJournal struct {
	s   store.SentTxs
	now func() time.Time
}

var (
	_ chain.Journal      = sendJournal{}
	_ chain.WalletLocker = sendJournal{}
)

// LockWallet holds the wallet across instances when the store is shared
// (store.WalletLocker); on a store one process owns, the wallet's own
// mutex is enough and this does nothing.
func (j sendJournal) LockWallet(ctx context.Context, chainID uint64, from common.Address) (func(), error) {
	if l, ok := j.s.(store.WalletLocker); ok {
		return l.LockWallet(ctx, chainID, strings.ToLower(from.Hex()))
	}
	return func() {}, nil
}

func (j sendJournal) JournalTx(ctx context.Context, t *chain.SentTx) error {
	return j.s.JournalTx(ctx, &store.SentTx{
		ChainID: t.ChainID, From: strings.ToLower(t.From.Hex()), Nonce: t.Nonce, Hash: t.Hash.Hex(), Raw: t.Raw,
		PermitID: t.PermitID, Index: t.Index, PlanLen: t.PlanLen, Label: t.Label, Created: j.now(),
	})
}

func (j sendJournal) SettleTx(ctx context.Context, chainID uint64, hash common.Hash, state chain.TxState, block uint64) error {
	st, err := storeState(state)
	if err != nil {
		return err
	}
	return j.s.SettleTx(ctx, chainID, hash.Hex(), st, block, j.now())
}

func (j sendJournal) OpenTxs(ctx context.Context, chainID uint64, from common.Address) ([]chain.SentTx, uint64, error) {
	recs, next, err := j.s.OpenTxs(ctx, chainID, strings.ToLower(from.Hex()))
	if err != nil {
		return nil, 0, err
	}
	out := make([]chain.SentTx, len(recs))
	for i, r := range recs {
		from, perr := tool.ParseAddress(r.From)
		if perr != nil || len(r.Hash) != 66 {
			return nil, 0, fmt.Errorf("send journal: record %q of %q is malformed", r.Hash, r.From)
		}
		out[i] = chain.SentTx{
			ChainID: r.ChainID, From: common.Address(from), Nonce: r.Nonce, Hash: common.HexToHash(r.Hash), Raw: r.Raw,
			PermitID: r.PermitID, Index: r.Index, PlanLen: r.PlanLen, Label: r.Label, Block: r.Block,
		}
		if out[i].State, err = chainState(r.State); err != nil {
			return nil, 0, err
		}
	}
	return out, next, nil
}

var txStates = [...]struct {
	c chain.TxState
	s store.SentState
}{
	{chain.TxInFlight, store.SentInFlight}, {chain.TxMined, store.SentMined}, {chain.TxReverted, store.SentReverted},
	{chain.TxDropped, store.SentDropped}, {chain.TxRefused, store.SentRefused},
}

func storeState(c chain.TxState) (store.SentState, error) {
	for _, m := range txStates {
		if m.c == c {
			return m.s, nil
		}
	}
	return 0, fmt.Errorf("send journal: no stored state for %v", c)
}

func chainState(s store.SentState) (chain.TxState, error) {
	for _, m := range txStates {
		if m.s == s {
			return m.c, nil
		}
	}
	return 0, fmt.Errorf("send journal: unknown state %v", s)
}

// reconcileTimeout bounds the reconciliation of one wallet at start.
const reconcileTimeout = 30 * time.Second

// reconcileSends settles, before ward serves, the journaled transactions
// each wallet left in flight (chain.Wallet.Reconcile); the wallet's
// Settled hook (recordSettled) records what became of each in the action
// log (kind tx_settled, with the permit's principal, session and tool), so
// that a commit interrupted by a crash has its outcome on record, whether
// it is settled here or by the next Send. A wallet whose chain cannot be reached now is
// left as it is: its Send reconciles first and refuses while a
// transaction is in flight, so nothing is sent twice in the meantime.
func (s *Stack) reconcileSends(ctx context.Context, log *slog.Logger, envs []*catalog.Env) {
	for _, env := range envs {
		if env.Wallet == nil {
			continue
		}
		rctx, cancel := context.WithTimeout(ctx, reconcileTimeout)
		_, err := env.Wallet.Reconcile(rctx) // the wallet's Settled hook records each outcome
		cancel()
		if err != nil {
			log.Warn("transactions left in flight by the last run could not all be reconciled; the wallet sends nothing until they are",
				"chain_id", env.Wallet.ChainID(), "wallet", env.Wallet.Address(), "err", err)
		}
	}
}

// recordSettled logs and records what reconciliation found of one
// transaction.
func (s *Stack) recordSettled(ctx context.Context, log *slog.Logger, st chain.Settled) {
	t := st.Tx
	attrs := []any{"chain_id", t.ChainID, "tx", t.Hash.Hex(), "nonce", t.Nonce, "permit", t.PermitID, "state", t.State.String()}
	if st.Failure != nil {
		attrs = append(attrs, "failure", st.Failure.Error())
	}
	if !t.State.Final() {
		log.Info("a transaction left in flight by the last run was rebroadcast (same signed bytes)", attrs...)
		return
	}
	if st.Incomplete {
		log.Warn("a plan interrupted by the last run is incomplete: its later transactions were never sent and will not be",
			append(attrs, "index", t.Index, "plan_len", t.PlanLen)...)
	} else {
		log.Info("a transaction left in flight by the last run is settled", attrs...)
	}
	detail, _ := json.Marshal(struct {
		State      chain.TxState `json:"state"`
		Block      uint64        `json:"block,omitempty"`
		Nonce      uint64        `json:"nonce"`
		Index      int           `json:"plan_index"`
		PlanLen    int           `json:"plan_len"`
		Incomplete bool          `json:"incomplete,omitempty"`
		Failure    string        `json:"failure,omitempty"`
	}{t.State, t.Block, t.Nonce, t.Index, t.PlanLen, st.Incomplete, errText(st.Failure)})
	now := time.Now()
	rec := &store.ActionRecord{
		ID: id.New(now), Time: now, Kind: store.ActionTxSettled, PermitID: t.PermitID, TxHash: t.Hash.Hex(), ChainID: t.ChainID,
		Status: store.StatusFailed, GroundTruth: "receipt", Detail: detail,
	}
	if t.State == chain.TxMined {
		rec.Status, rec.Verified = store.StatusExecuted, true
	}
	if st.Receipt != nil {
		rec.GasUsed = st.Receipt.GasUsed
		if st.Receipt.EffectiveGasPrice != nil {
			rec.GasCostWei = new(big.Int).Mul(st.Receipt.EffectiveGasPrice, new(big.Int).SetUint64(st.Receipt.GasUsed)).String()
		}
	}
	if p, err := s.Store.Permit(ctx, t.PermitID); err == nil {
		rec.PrincipalID, rec.SessionID, rec.Tool, rec.ArgsHash = p.PrincipalID, p.SessionID, p.Tool, p.ArgsHash
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := s.Store.AppendAction(wctx, rec); err != nil {
		log.Error("the outcome of a reconciled transaction could not be recorded", append(attrs, "err", err)...)
	}
	// Settled after the start (by a later Send): the commit it belongs to,
	// left open by the start's reconcileCommits, gets its outcome now.
	if s.Tools != nil {
		r, done, err := s.Tools.ReconcileCommit(wctx, s.Store, t.PermitID, s.commitsBefore())
		switch {
		case err != nil:
			log.Error("the outcome of a commit interrupted by the last run could not be recorded", append(attrs, "err", err)...)
		case done:
			log.Info("the outcome of a commit interrupted by the last run is recorded", append(attrs, "status", r.Status.String(), "executed", r.Executed)...)
		}
	}
}

// sharedCommitAge is how old a consumed permit without an outcome must be
// before reconciliation completes it on a store other instances share: a
// younger one may be a commit another instance is running.
const sharedCommitAge = 10 * time.Minute

// reconcileCommits completes, before ward serves, the record of every
// commit the last run left without an outcome (gate.Tools.ReconcileCommits),
// after reconcileSends settled what it could of their transactions. One
// that cannot be completed now (a transaction still in flight, a store
// error) stays open and is tried again at the next start.
func (s *Stack) reconcileCommits(ctx context.Context, log *slog.Logger) {
	done, err := s.Tools.ReconcileCommits(ctx, s.Store, s.commitsBefore())
	for _, r := range done {
		attrs := []any{"permit", r.PermitID, "txs", r.Txs, "why", r.Why}
		if r.Status == store.StatusNone {
			log.Warn("a commit interrupted by the last run stays open: its outcome is not known yet", attrs...)
			continue
		}
		log.Info("the outcome of a commit interrupted by the last run is recorded", append(attrs, "status", r.Status.String(), "executed", r.Executed)...)
	}
	if err != nil {
		log.Error("the commits interrupted by the last run could not all be reconciled; they are tried again at the next start", "err", err)
	}
}

// commitsBefore is the latest consumption a reconciliation may complete:
// now on a store this process owns, sharedCommitAge ago on a shared one.
func (s *Stack) commitsBefore() time.Time {
	if _, shared := s.Store.(store.WalletLocker); shared {
		return time.Now().Add(-sharedCommitAge)
	}
	return time.Now()
}

// errText is err's message, empty for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
