package privileged

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// SessionKeys is the ERC-4337 wallet's account as the session-key tools
// reach it; the daemon implements it over the chain and the store. Ward
// holds no key of the account's owner, so neither method signs or sends:
// the owner does.
type SessionKeys interface {
	// PrepareSessionKey returns the owner's call that makes c on the
	// wallet's account (c.Account is ignored: the wallet's account is
	// used). chain.ErrSessionKeyChange says why the account cannot
	// express c or would refuse it; nothing is recorded either way.
	PrepareSessionKey(ctx context.Context, c chain.SessionKeyChange) (*chain.OwnerCall, error)
	// HoldOwnerCall records call durably, pending until ward sees its
	// effect on chain, for the permit permitID, and returns its id.
	HoldOwnerCall(ctx context.Context, permitID string, call *chain.OwnerCall) (id string, err error)
}

// sessionKeyTools are the privileged tools that change who may sign for
// the ERC-4337 account: they prepare the owner's transaction and hold it
// for the owner (GET /v1/wallet/pending, ward wallet pending).
func sessionKeyTools() []spec { return []spec{grantSessionKey, revokeSessionKey} }

var errNoAccount = errors.New("the wallet sends from no ERC-4337 account (wallet_kind erc4337): there is no session key to change")

const eip55Addr = `{"type":"string","pattern":"^0x[0-9a-fA-F]{40}$","description":"An address in its EIP-55 checksummed spelling."}`

const ownerCallResult = `{"type":"object","required":["id","kind","account","owner","session_key","to","data","status"],"properties":{` +
	`"id":{"type":"string","description":"The held transaction's id (GET /v1/wallet/pending/{id})."},` +
	`"kind":{"type":"string","enum":["grant_session_key","revoke_session_key"]},` +
	`"account":{"type":"string"},"owner":{"type":"string"},"session_key":{"type":"string"},` +
	`"to":{"type":"string","description":"The account: the owner's transaction calls it."},` +
	`"data":{"type":"string","description":"The call data, 0x hex."},` +
	`"unsigned_tx":{"type":"string","description":"For an owner that is an EOA: the exact unsigned EIP-1559 transaction to sign, 0x hex of its encoding."},` +
	`"signing_hash":{"type":"string","description":"The hash the owner's key signs for unsigned_tx."},` +
	`"status":{"type":"string","enum":["awaiting_owner"]}}}`

var grantSessionKey = spec{
	name: "wallet_grant_session_key", action: "grant_session_key", category: tool.CatWallet,
	description: "Owner-approved: prepare the owner's transaction that grants a session key of the ERC-4337 account (wallet_kind " +
		"erc4337) a scope: the (target, selector) pairs it may call, at most value_cap_wei native value per call, until " +
		"valid_until. A grant replaces any scope the key had. Ward holds no owner key: the commit records the transaction " +
		"(and, for an EOA owner, the exact transaction to sign) for the owner, who sends it; ward marks it done once the " +
		"account shows the key granted. The account expresses nothing else: no token amounts, no daily limits, no " +
		"argument constraints; ward's own policy and spending limits still apply to every call the key makes through ward.",
	params: `{"type":"object","additionalProperties":false,"required":["session_key","calls","valid_until"],"properties":{` +
		`"session_key":` + eip55Addr + `,` +
		`"calls":{"type":"array","minItems":1,"maxItems":32,"description":"The (target, selector) pairs the key may call through the account.",` +
		`"items":{"type":"object","additionalProperties":false,"required":["target","selector"],"properties":{` +
		`"target":` + eip55Addr + `,` +
		`"selector":{"type":"string","pattern":"^0x[0-9a-fA-F]{8}$","description":"A function selector; 0x00000000 is a plain ether transfer."}}}},` +
		`"value_cap_wei":{"type":"string","pattern":"^[0-9]{1,39}$","description":"The most native value (wei, decimal) per call, below 2^128; default 0."},` +
		`"valid_until":{"type":"integer","minimum":1,"maximum":281474976710655,"description":"When the key expires, in Unix seconds (the account's uint48)."}}}`,
	result: ownerCallResult,
	check: func(ctx context.Context, cfg *Config, in *registry.Input) (string, error) {
		c, err := grantArgs(in)
		if err != nil {
			return "", err
		}
		call, err := prepare(ctx, cfg, c)
		if err != nil {
			return "", err
		}
		return grantText(call, c.Scope), nil
	},
	hold: func(ctx context.Context, cfg *Config, in *registry.Input, permitID string) (any, string, string, error) {
		c, err := grantArgs(in)
		if err != nil {
			return nil, "", "", err
		}
		return holdOwnerCall(ctx, cfg, c, permitID)
	},
}

var revokeSessionKey = spec{
	name: "wallet_revoke_session_key", action: "revoke_session_key", category: tool.CatWallet,
	description: "Owner-approved: prepare the owner's transaction that revokes a session key of the ERC-4337 account " +
		"(wallet_kind erc4337): from then on the account refuses every call it signs. Ward holds no owner key: the commit " +
		"records the transaction (and, for an EOA owner, the exact transaction to sign) for the owner, who sends it; ward marks " +
		"it done once the account shows the key revoked. A halt does not stop this tool: taking power away is never blocked.",
	params:   `{"type":"object","additionalProperties":false,"required":["session_key"],"properties":{"session_key":` + eip55Addr + `}}`,
	result:   ownerCallResult,
	unhalted: true,
	check: func(ctx context.Context, cfg *Config, in *registry.Input) (string, error) {
		c, err := revokeArgs(in)
		if err != nil {
			return "", err
		}
		call, err := prepare(ctx, cfg, c)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("prepare the owner's revocation of session key %s on account %s", call.Key.Hex(), call.Account.Hex()), nil
	},
	hold: func(ctx context.Context, cfg *Config, in *registry.Input, permitID string) (any, string, string, error) {
		c, err := revokeArgs(in)
		if err != nil {
			return nil, "", "", err
		}
		return holdOwnerCall(ctx, cfg, c, permitID)
	},
}

func prepare(ctx context.Context, cfg *Config, c chain.SessionKeyChange) (*chain.OwnerCall, error) {
	if cfg.SessionKeys == nil {
		return nil, errNoAccount
	}
	return cfg.SessionKeys.PrepareSessionKey(ctx, c)
}

// holdOwnerCall prepares c again (the chain may have moved since the
// preview), records it for the owner and returns the result's data.
func holdOwnerCall(ctx context.Context, cfg *Config, c chain.SessionKeyChange, permitID string) (any, string, string, error) {
	call, err := prepare(ctx, cfg, c)
	if err != nil {
		return nil, "", "", err
	}
	id, err := cfg.SessionKeys.HoldOwnerCall(ctx, permitID, call)
	if err != nil {
		return nil, "", "", fmt.Errorf("hold the owner's transaction: %w", err)
	}
	out := OwnerCallView(id, call)
	what := "owner's " + out.Kind + " of " + out.SessionKey + " awaiting the owner"
	return out, what, what, nil
}

// OwnerCallJSON is a prepared owner's transaction as the tools, the API
// and the CLI show it.
type OwnerCallJSON struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`
	ChainID     uint64 `json:"chain_id"`
	Account     string `json:"account"`
	Owner       string `json:"owner"`
	SessionKey  string `json:"session_key"`
	To          string `json:"to"`
	Data        string `json:"data"`
	UnsignedTx  string `json:"unsigned_tx,omitempty"`
	SigningHash string `json:"signing_hash,omitempty"`
	Status      string `json:"status"`
	DoneTx      string `json:"done_tx,omitempty"`
}

// OwnerCallView is call, held as id, as OwnerCallJSON.
func OwnerCallView(id string, call *chain.OwnerCall) OwnerCallJSON {
	kind := "grant_session_key"
	if call.Revoke {
		kind = "revoke_session_key"
	}
	out := OwnerCallJSON{ID: id, Kind: kind, ChainID: call.ChainID, Account: call.Account.Hex(), Owner: call.Owner.Hex(),
		SessionKey: call.Key.Hex(), To: call.Account.Hex(), Data: "0x" + hex.EncodeToString(call.Data), Status: "awaiting_owner"}
	if call.Tx != nil {
		if b, err := call.Tx.MarshalBinary(); err == nil {
			out.UnsignedTx = "0x" + hex.EncodeToString(b)
			out.SigningHash = types.LatestSignerForChainID(call.Tx.ChainId()).Hash(call.Tx).Hex()
		}
	}
	return out
}

func grantText(call *chain.OwnerCall, s chain.SessionScope) string {
	pairs := make([]string, len(s.Targets))
	for i := range s.Targets {
		pairs[i] = fmt.Sprintf("%s:0x%x", s.Targets[i].Hex(), s.Selectors[i])
	}
	return fmt.Sprintf("prepare the owner's grant to session key %s on account %s of %s, at most %s wei per call, until %s",
		call.Key.Hex(), call.Account.Hex(), strings.Join(pairs, ", "), s.ValueCap, s.ValidUntil.UTC().Format(time.RFC3339))
}

// eip55 parses an address that must be spelled with its EIP-55 checksum.
func eip55(what, s string) (common.Address, error) {
	p, err := tool.ParseAddress(s)
	if err != nil || !strings.HasPrefix(s, "0x") {
		return common.Address{}, fmt.Errorf("%s must be 0x and 40 hex digits", what)
	}
	a := common.Address(p)
	if a.Hex() != s {
		return common.Address{}, fmt.Errorf("%s %s is not in its EIP-55 checksummed spelling (%s)", what, s, a.Hex())
	}
	if a == (common.Address{}) {
		return common.Address{}, fmt.Errorf("%s is the zero address", what)
	}
	return a, nil
}

func revokeArgs(in *registry.Input) (chain.SessionKeyChange, error) {
	key, err := eip55("session_key", str(in, "session_key"))
	return chain.SessionKeyChange{Key: key, Revoke: true}, err
}

// grantArgs reads a grant's arguments into the scope the account
// expresses; what it cannot express is refused here or by
// chain.PrepareSessionKey, with a clear error.
func grantArgs(in *registry.Input) (chain.SessionKeyChange, error) {
	var c chain.SessionKeyChange
	key, err := eip55("session_key", str(in, "session_key"))
	if err != nil {
		return c, err
	}
	c.Key = key
	calls, ok := in.Args.Get("calls")
	if !ok || calls.Len() == 0 {
		return c, errors.New("calls must list at least one (target, selector) pair")
	}
	if calls.Len() > chain.MaxSessionCalls {
		return c, fmt.Errorf("calls may list at most %d pairs", chain.MaxSessionCalls)
	}
	for i, e := range calls.Elems() {
		tv, _ := e.Field("target")
		ts, _ := tv.Str()
		target, err := eip55(fmt.Sprintf("calls[%d].target", i), ts)
		if err != nil {
			return c, err
		}
		sv, _ := e.Field("selector")
		ss, _ := sv.Str()
		b, err := hex.DecodeString(strings.TrimPrefix(ss, "0x"))
		if err != nil || len(b) != 4 || !strings.HasPrefix(ss, "0x") {
			return c, fmt.Errorf("calls[%d].selector must be 0x and 8 hex digits", i)
		}
		c.Scope.Targets = append(c.Scope.Targets, target)
		c.Scope.Selectors = append(c.Scope.Selectors, [4]byte(b))
	}
	c.Scope.ValueCap = new(big.Int)
	if v := str(in, "value_cap_wei"); v != "" {
		if _, ok := c.Scope.ValueCap.SetString(v, 10); !ok || c.Scope.ValueCap.Sign() < 0 || c.Scope.ValueCap.BitLen() > 128 {
			return c, errors.New("value_cap_wei must be a decimal number of wei below 2^128")
		}
	}
	uv, ok := in.Args.Get("valid_until")
	if !ok {
		return c, errors.New("valid_until (Unix seconds) is required")
	}
	until, err := uv.Int()
	if err != nil || until <= 0 || until > 1<<48-1 {
		return c, errors.New("valid_until must be Unix seconds below 2^48")
	}
	if !time.Unix(until, 0).After(in.Now) && !in.Now.IsZero() {
		return c, fmt.Errorf("valid_until %d is not in the future", until)
	}
	c.Scope.ValidUntil = time.Unix(until, 0)
	return c, nil
}
