package daemon

import (
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/wardhq/ward/internal/api"
	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/chain"
)

// SafeTxView is a Safe transaction awaiting owners' signatures as the API
// and `ward safe` show it.
type SafeTxView struct {
	Hash    string `json:"safe_tx_hash"`
	ChainID uint64 `json:"chain_id"`
	Safe    string `json:"safe"`
	Nonce   uint64 `json:"nonce"`
	To      string `json:"to"`
	Value   string `json:"value"`
	Data    string `json:"data"`
	// Operation is the SafeTx's operation: 0 CALL, 1 DELEGATECALL (a plan
	// batched through MultiSendCallOnly); owners need it to check the hash.
	Operation uint8    `json:"operation"`
	PermitID  string   `json:"permit_id"`
	Label     string   `json:"label,omitempty"`
	Signers   []string `json:"signed_by"`
}

// SafePending returns the Safe transactions awaiting owners' signatures
// on every chain whose wallet is a Safe.
func (s *Stack) SafePending(ctx context.Context) ([]SafeTxView, error) {
	out := []SafeTxView{}
	for _, w := range s.SafeWallets {
		ps, err := w.PendingSafeTxs(ctx)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			v := SafeTxView{Hash: p.Hash.Hex(), ChainID: p.Tx.ChainID, Safe: p.Tx.Safe.Hex(), Nonce: p.Tx.Nonce, To: p.Tx.To.Hex(),
				Value: "0", Data: hexutil.Encode(p.Tx.Data), Operation: p.Tx.Operation, PermitID: p.PermitID, Label: p.Label, Signers: []string{}}
			if p.Tx.Value != nil {
				v.Value = p.Tx.Value.String()
			}
			for _, sg := range p.Signatures {
				v.Signers = append(v.Signers, sg.Owner.Hex())
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// SafeSign adds an owner's signature to the Safe transaction hash on
// whichever chain's Safe wallet holds it, executing it once the threshold
// is met. Refusals wrap api.ErrSafeRefused, an unknown hash
// api.ErrSafeUnknown.
func (s *Stack) SafeSign(ctx context.Context, hash common.Hash, sig []byte) (chain.SafeSignResult, error) {
	for _, w := range s.SafeWallets {
		res, err := w.SignSafeTx(ctx, hash, sig)
		switch {
		case errors.Is(err, chain.ErrSafeTxUnknown):
			continue
		case errors.Is(err, chain.ErrSafeSigner), errors.Is(err, chain.ErrSafeSignedTwice), errors.Is(err, chain.ErrSafeTxDone),
			errors.Is(err, chain.ErrSafeSignature):
			return res, fmt.Errorf("%w: %w", api.ErrSafeRefused, err)
		}
		return res, err
	}
	return chain.SafeSignResult{}, api.ErrSafeUnknown
}

// safeAPI is the API's view of the stack's Safe wallets.
func safeAPI(st *Stack) api.Safe {
	return api.Safe{
		Pending: func(ctx context.Context) (any, error) {
			p, err := st.SafePending(ctx)
			return map[string]any{"pending": p}, err
		},
		Sign: func(ctx context.Context, _ auth.Principal, hash string, sig []byte) (any, error) {
			res, err := st.SafeSign(ctx, common.HexToHash(hash), sig)
			if err != nil {
				return nil, err
			}
			out := map[string]any{"safe_tx_hash": res.Hash.Hex(), "signatures": res.Signatures, "threshold": res.Threshold,
				"status": "awaiting_owner_signatures"}
			if res.Executed != (common.Hash{}) {
				out["status"], out["tx_hash"], out["receipt_status"] = "executed", res.Executed.Hex(), res.Status
			}
			return out, nil
		},
	}
}
