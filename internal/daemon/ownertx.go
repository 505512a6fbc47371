package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/api"
	"github.com/wardhq/ward/internal/catalog/privileged"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// ownerCalls is the ERC-4337 wallet's account as the session-key tools
// reach it (privileged.SessionKeys): the owner's calls are prepared over
// the stack's wallet and held in the store's owner_txs. The wallet is
// read at each call, since the tools are made before it may be.
type ownerCalls struct {
	s   *Stack
	now func() time.Time
}

var _ privileged.SessionKeys = ownerCalls{}

// errNoOwnerTxs is a store that keeps no owner transactions.
var errNoOwnerTxs = errors.New("the store keeps no owner transactions")

func (o ownerCalls) account() (*chain.Wallet, error) {
	w := o.s.Wallet
	if w == nil || w.Account() == (common.Address{}) {
		return nil, fmt.Errorf("%w: the wallet sends from no ERC-4337 account (wallet_kind erc4337)", chain.ErrSessionKeyChange)
	}
	return w, nil
}

func (o ownerCalls) PrepareSessionKey(ctx context.Context, c chain.SessionKeyChange) (*chain.OwnerCall, error) {
	w, err := o.account()
	if err != nil {
		return nil, err
	}
	c.Account = w.Account()
	return chain.PrepareSessionKey(ctx, w.Provider(), c, o.now())
}

func (o ownerCalls) HoldOwnerCall(ctx context.Context, permitID string, call *chain.OwnerCall) (string, error) {
	q, ok := o.s.Store.(store.OwnerTxs)
	if !ok {
		return "", errNoOwnerTxs
	}
	now := o.now()
	rec := &store.OwnerTx{
		ID: id.Opaque(now), ChainID: call.ChainID, Account: lowerHex(call.Account), Owner: lowerHex(call.Owner),
		Kind: store.GrantSessionKey, SessionKey: lowerHex(call.Key), Data: call.Data, FromBlock: call.Block, PermitID: permitID,
		Created: now,
	}
	if call.Revoke {
		rec.Kind = store.RevokeSessionKey
	}
	if call.Tx != nil {
		b, err := call.Tx.MarshalBinary()
		if err != nil {
			return "", fmt.Errorf("encode the owner's transaction: %w", err)
		}
		rec.Unsigned = b
	}
	if err := q.HoldOwnerTx(ctx, rec); err != nil {
		return "", err
	}
	return rec.ID, nil
}

// ownerCallOf is a stored record as the chain's OwnerCall.
func ownerCallOf(t store.OwnerTx) (*chain.OwnerCall, error) {
	var addr [3]common.Address
	for i, f := range [3]struct{ name, s string }{{"account", t.Account}, {"owner", t.Owner}, {"session key", t.SessionKey}} {
		a, err := storedAddress(f.name, f.s)
		if err != nil {
			return nil, fmt.Errorf("owner tx %s: %w", t.ID, err)
		}
		addr[i] = a
	}
	c := &chain.OwnerCall{ChainID: t.ChainID, Account: addr[0], Owner: addr[1],
		Key: addr[2], Revoke: t.Kind == store.RevokeSessionKey, Data: t.Data, Block: t.FromBlock}
	if len(t.Unsigned) > 0 {
		c.Tx = new(types.Transaction)
		if err := c.Tx.UnmarshalBinary(t.Unsigned); err != nil {
			return nil, fmt.Errorf("owner tx %s: stored transaction: %w", t.ID, err)
		}
	}
	return c, nil
}

// observe marks t done if the wallet's chain shows its effect (never on
// a client's word), else stale if the chain shows the owner's nonce past
// its unsigned transaction's, and returns its view. The nonce is read
// before the effect: a transaction mined between the two reads is seen
// done, never stale.
func (o ownerCalls) observe(ctx context.Context, q store.OwnerTxs, t store.OwnerTx) (privileged.OwnerCallJSON, error) {
	call, err := ownerCallOf(t)
	if err != nil {
		return privileged.OwnerCallJSON{}, err
	}
	v := privileged.OwnerCallView(t.ID, call)
	if t.Done != "" {
		v.Status, v.DoneTx = "done", t.Done
		return v, nil
	}
	if !t.Stale.IsZero() {
		v.Status = "stale"
	}
	w := o.s.Wallet
	if w == nil || w.Provider().ChainID() != t.ChainID {
		return v, nil // no provider of its chain: it stays as it is
	}
	p := w.Provider()
	var mined uint64
	if call.Tx != nil {
		if mined, err = p.MinedNonce(ctx, call.Owner); err != nil {
			return v, fmt.Errorf("owner tx %s: the owner's nonce: %w", t.ID, err)
		}
	}
	tx, ok, err := chain.SessionKeyObserved(ctx, p, call.Account, t.Data, t.FromBlock)
	switch {
	case err != nil:
		return v, err
	case ok:
		if err := o.record(ctx, t, "done", tx); err != nil {
			return v, err
		}
		switch err := q.OwnerTxDone(ctx, t.ID, tx.Hex(), o.now()); {
		case err == nil, errors.Is(err, store.ErrOwnerTxDone):
		default:
			return v, err
		}
		v.Status, v.DoneTx = "done", strings.ToLower(tx.Hex())
	case call.Tx != nil && mined > call.Tx.Nonce() && t.Stale.IsZero():
		if err := o.record(ctx, t, "stale", common.Hash{}); err != nil {
			return v, err
		}
		switch err := q.OwnerTxStale(ctx, t.ID, o.now()); {
		case err == nil:
			v.Status = "stale"
		case errors.Is(err, store.ErrOwnerTxDone):
			// done meanwhile by another reader of the chain
		default:
			return v, err
		}
	}
	return v, nil
}

// record writes the audit record of an observation of t (status "done",
// in the owner's transaction tx, or "stale") before the store marks it:
// a mark that cannot be recorded is not made, and is tried again at the
// next observation. Two readers observing at once may both record it.
func (o ownerCalls) record(ctx context.Context, t store.OwnerTx, status string, tx common.Hash) error {
	now := o.now()
	detail, err := json.Marshal(struct {
		OwnerTx    string `json:"owner_tx"`
		Status     string `json:"status"`
		Kind       string `json:"kind"`
		Account    string `json:"account"`
		Owner      string `json:"owner"`
		SessionKey string `json:"session_key"`
	}{t.ID, status, t.Kind.String(), t.Account, t.Owner, t.SessionKey})
	if err != nil {
		return err
	}
	rec := &store.ActionRecord{
		ID: id.New(now), Time: now, Kind: store.ActionOwnerTxObserved, PermitID: t.PermitID, ChainID: t.ChainID,
		Status: store.StatusFailed, GroundTruth: "chain_state", Detail: detail,
		Tool: "wallet_" + t.Kind.String(),
	}
	if status == "done" {
		rec.Status, rec.Verified, rec.TxHash = store.StatusExecuted, true, tx.Hex()
	}
	if p, err := o.s.Store.Permit(ctx, t.PermitID); err == nil {
		rec.PrincipalID, rec.SessionID, rec.ArgsHash = p.PrincipalID, p.SessionID, p.ArgsHash
	}
	if err := o.s.Store.AppendAction(ctx, rec); err != nil {
		return fmt.Errorf("owner tx %s: record its observation: %w", t.ID, err)
	}
	return nil
}

// OwnerTxsPending returns the owner's transactions not done, after
// marking done those whose effect the chain shows and stale those the
// owner's nonce passed (still listed, as "stale").
func (s *Stack) OwnerTxsPending(ctx context.Context) ([]privileged.OwnerCallJSON, error) {
	q, ok := s.Store.(store.OwnerTxs)
	if !ok {
		return nil, errNoOwnerTxs
	}
	ts, err := q.PendingOwnerTxs(ctx)
	if err != nil {
		return nil, err
	}
	o := ownerCalls{s: s, now: time.Now}
	out := []privileged.OwnerCallJSON{}
	for _, t := range ts {
		v, err := o.observe(ctx, q, t)
		if err != nil {
			return nil, err
		}
		if v.Status != "done" {
			out = append(out, v)
		}
	}
	return out, nil
}

// OwnerTxSweep is how often ward serve reads the chain for the owner's
// transactions it holds, after the pass at start.
const OwnerTxSweep = 15 * time.Second

// watchOwnerTxs observes the owner's pending transactions at once and
// then every interval until ctx ends, marking done those whose effect the
// chain shows and stale those the owner's nonce passed, exactly as a
// listing does; stale ones are left to listings. A failure to read one
// is logged and retried at the next pass. Its caller owns it and waits
// for it.
func watchOwnerTxs(ctx context.Context, s *Stack, every time.Duration, log *slog.Logger) {
	q, ok := s.Store.(store.OwnerTxs)
	if !ok {
		return
	}
	o := ownerCalls{s: s, now: time.Now}
	periodically(ctx, every, func(time.Time) {
		ts, err := q.PendingOwnerTxs(ctx)
		if err != nil {
			if ctx.Err() == nil {
				log.Warn("owner transactions: listing failed; the next pass retries", "err", err)
			}
			return
		}
		for _, t := range ts {
			if !t.Stale.IsZero() {
				continue
			}
			v, err := o.observe(ctx, q, t)
			switch {
			case err != nil:
				if ctx.Err() == nil {
					log.Warn("owner transactions: chain check failed; it stays pending", "id", t.ID, "err", err)
				}
			case v.Status == "done":
				log.Info("owner transactions: seen done on chain", "id", t.ID, "kind", v.Kind, "done_tx", v.DoneTx)
			case v.Status == "stale":
				log.Info("owner transactions: the owner's nonce passed it; stale", "id", t.ID, "kind", v.Kind)
			}
		}
	})
}

// OwnerTx returns the owner's transaction id, marked done first if the
// chain shows its effect (api.ErrOwnerTxUnknown for none).
func (s *Stack) OwnerTx(ctx context.Context, txID string) (privileged.OwnerCallJSON, error) {
	q, ok := s.Store.(store.OwnerTxs)
	if !ok {
		return privileged.OwnerCallJSON{}, errNoOwnerTxs
	}
	t, err := q.OwnerTx(ctx, txID)
	if errors.Is(err, store.ErrNotFound) {
		return privileged.OwnerCallJSON{}, api.ErrOwnerTxUnknown
	}
	if err != nil {
		return privileged.OwnerCallJSON{}, err
	}
	return ownerCalls{s: s, now: time.Now}.observe(ctx, q, t)
}

// ownerTxAPI is the API's view of the owner's transactions.
func ownerTxAPI(st *Stack) api.OwnerTxs {
	return api.OwnerTxs{
		Pending: func(ctx context.Context) (any, error) {
			p, err := st.OwnerTxsPending(ctx)
			return map[string]any{"pending": p}, err
		},
		Get: func(ctx context.Context, txID string) (any, error) { return st.OwnerTx(ctx, txID) },
	}
}
