package daemon

import (
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/capability/mint"
	"github.com/wardhq/ward/internal/catalog/privileged"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// ownerApproval signs the owner's approval of permitID for name with raw
// as arguments (EIP-191 personal_sign of gate.ApprovalMessage).
func ownerApproval(t *testing.T, key *ecdsa.PrivateKey, permitID, name string, raw json.RawMessage) []byte {
	t.Helper()
	h, err := gate.ArgsHash(raw)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := crypto.Sign(accounts.TextHash([]byte(gate.ApprovalMessage(permitID, name, h))), key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	return sig
}

func wantRefusal(t *testing.T, what string, err error, code reason.Code) {
	t.Helper()
	var r *gate.Refusal
	if !errors.As(err, &r) || r.Code != code {
		t.Fatalf("%s: got %v, want a %s refusal", what, err, code)
	}
}

// TestSessionKeyToolsOnDevChain drives wallet_grant_session_key and
// wallet_revoke_session_key end to end on the dev chain, whose ERC-4337
// account is owned by the dev operator (a key ward's wallet does not
// hold). The tools, approved by the owner's signature, only prepare and
// hold the owner's transaction; the test plays the owner, signing the
// exact transaction ward prepared with the operator's key. Ward marks
// each done only once the account shows it. The second session key makes
// a scoped call through the wallet's send path (the dev stack's gate signs
// with its own key); after the revocation, made while writes are halted,
// the account refuses its call. Then the same round with the stack's own
// key through the gate: revoked, the gate's transfer is refused by the
// account's scope check; granted again, it goes through.
func TestSessionKeyToolsOnDevChain(t *testing.T) {
	ctx := t.Context()
	ownerKey, _ := crypto.GenerateKey()
	snap, err := rules.Compile(rules.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	st, err := Open(ctx, Config{
		DB: DefaultDB(t.TempDir()), Policy: snap, DevSeed: "ward-session-key-test", AnnounceDelay: -1, DevAccount: true,
		Owner: tool.Address(crypto.PubkeyToAddress(ownerKey.PublicKey)),
		Hooks: hook.Config{
			Spending: hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: hook.Unlimited},
			Rate:     hook.RateConfig{Max: 1 << 20, Window: time.Hour},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, account, entryPoint := st.Wallet.Provider(), st.Wallet.Account(), st.Wallet.EntryPoint()
	if account == (common.Address{}) {
		t.Fatal("the dev stack's wallet sends from no account")
	}
	sess, err := st.Session(ctx, "owner-agent", policy.Agent, "dev")
	if err != nil {
		t.Fatal(err)
	}
	dc := st.Dev.Contracts()
	key2, err := chain.NewLocalSigner(strings.Repeat("5c", 32))
	if err != nil {
		t.Fatal(err)
	}
	defer key2.Close()
	if err := st.Dev.Fund(ctx, key2.Address(), common.Address{}, big.NewInt(1e18)); err != nil { // gas for its handleOps
		t.Fatal(err)
	}
	transferSel, _ := chain.ERC20ABI().Selector("transfer")
	head, err := p.HeaderLatest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	until := int64(head.Time) + 86400

	// commit previews name and commits it with the owner's approval,
	// returning the held owner's transaction.
	commit := func(name string, raw json.RawMessage) privileged.OwnerCallJSON {
		t.Helper()
		pv, err := st.Tools.Preview(ctx, sess, name, raw)
		if err != nil {
			t.Fatalf("%s: preview: %v", name, err)
		}
		_, err = st.Tools.Commit(ctx, sess, gate.CommitRequest{PermitID: pv.PermitID})
		wantRefusal(t, name+" without the owner's approval", err, reason.ApprovalRequired)
		res, err := st.Tools.Commit(ctx, sess, gate.CommitRequest{PermitID: pv.PermitID, Approval: ownerApproval(t, ownerKey, pv.PermitID, name, raw)})
		if err != nil {
			t.Fatalf("%s: commit: %v", name, err)
		}
		var out privileged.OwnerCallJSON
		if err := json.Unmarshal(res.Data, &out); err != nil {
			t.Fatal(err)
		}
		if out.Status != "awaiting_owner" || out.Owner != st.Dev.OperatorAddress().Hex() || out.Account != account.Hex() ||
			out.SessionKey != key2.Address().Hex() || out.UnsignedTx == "" {
			t.Fatalf("%s: held %+v", name, out)
		}
		return out
	}
	// playOwner signs the exact transaction ward prepared as the owner,
	// sends it and waits for it.
	playOwner := func(held privileged.OwnerCallJSON) common.Hash {
		t.Helper()
		raw, _ := hex.DecodeString(strings.TrimPrefix(held.UnsignedTx, "0x"))
		tx := new(types.Transaction)
		if err := tx.UnmarshalBinary(raw); err != nil {
			t.Fatal(err)
		}
		if *tx.To() != account || "0x"+hex.EncodeToString(tx.Data()) != held.Data || tx.Value().Sign() != 0 ||
			types.LatestSignerForChainID(tx.ChainId()).Hash(tx).Hex() != held.SigningHash {
			t.Fatalf("the unsigned transaction %+v is not the held call %+v", tx, held)
		}
		signed, err := st.Dev.SignAsOwner(ctx, tx)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.SendTransaction(ctx, signed); err != nil {
			t.Fatal(err)
		}
		r, err := p.WaitReceipt(ctx, signed.Hash())
		if err != nil || r.Status != 1 {
			t.Fatalf("the owner's transaction: %+v %v", r, err)
		}
		return signed.Hash()
	}
	pendingIDs := func() []string {
		t.Helper()
		ps, err := st.OwnerTxsPending(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, p := range ps {
			ids = append(ids, p.ID)
		}
		return ids
	}
	// sendAs2 sends an ERC-20 transfer from the account signed by key2,
	// through the wallet's send path with a capability as the gate mints
	// one.
	w2, err := chain.NewWallet(key2, p, chain.WalletConfig{Account: account, EntryPoint: entryPoint})
	if err != nil {
		t.Fatal(err)
	}
	to := common.HexToAddress("0x00000000000000000000000000000000005e5502")
	sendAs2 := func(id string, token common.Address) error {
		data, _ := chain.ERC20ABI().Pack("transfer", to, big.NewInt(1e6))
		args := [32]byte{byte(len(id))}
		c := mint.Capability(mint.Fields{PermitID: id, Tool: "erc20_transfer_token", ArgsHash: args, ExpiresAt: time.Now().Add(time.Minute), ExpiryTick: 10})
		_, err := w2.Send(ctx, c, chain.Scope{Tool: "erc20_transfer_token", ArgsHash: args, Tick: 1, Now: time.Now()},
			[]tool.Tx{{To: tool.Address(token), Data: data, Label: "transfer"}})
		return err
	}
	if err := sendAs2("permit-before-grant", dc.USDC); !errors.Is(err, chain.ErrSessionScope) {
		t.Fatalf("key2's call before the grant: %v, want ErrSessionScope", err)
	}

	// Grant: the owner's approval makes ward prepare and hold the call;
	// nothing changes on chain until the owner sends it.
	grant := json.RawMessage(fmt.Sprintf(`{"session_key":%q,"calls":[{"target":%q,"selector":"0x%x"}],"value_cap_wei":"0","valid_until":%d}`,
		key2.Address().Hex(), dc.USDC.Hex(), transferSel, until))
	held := commit("wallet_grant_session_key", grant)
	if ids := pendingIDs(); len(ids) != 1 || ids[0] != held.ID {
		t.Fatalf("pending %v, want the grant %s", ids, held.ID)
	}
	q := st.Store.(store.OwnerTxs)
	if rec, err := q.OwnerTx(ctx, held.ID); err != nil || rec.Kind != store.GrantSessionKey || rec.PermitID == "" || rec.Done != "" {
		t.Fatalf("stored grant %+v %v", rec, err)
	}
	if err := sendAs2("permit-held-grant", dc.USDC); !errors.Is(err, chain.ErrSessionScope) {
		t.Fatalf("key2's call with the grant only held: %v, want ErrSessionScope", err)
	}
	sent := playOwner(held)
	if ids := pendingIDs(); len(ids) != 0 {
		t.Fatalf("pending after the owner's grant: %v, want none", ids)
	}
	if v, err := st.OwnerTx(ctx, held.ID); err != nil || v.Status != "done" || !strings.EqualFold(v.DoneTx, sent.Hex()) {
		t.Fatalf("the grant after the owner sent it: %+v %v, want done by %s", v, err, sent.Hex())
	}

	// key2 may now make its scoped call, and only that.
	before, err := p.TokenBalance(ctx, dc.USDC, to)
	if err != nil {
		t.Fatal(err)
	}
	if err := sendAs2("permit-scoped", dc.USDC); err != nil {
		t.Fatalf("key2's scoped call: %v", err)
	}
	if after, _ := p.TokenBalance(ctx, dc.USDC, to); new(big.Int).Sub(after, before).Cmp(big.NewInt(1e6)) != 0 {
		t.Errorf("recipient's USDC went from %s to %s, want 1 USDC more", before, after)
	}
	if err := sendAs2("permit-out-of-scope", dc.DAI); !errors.Is(err, chain.ErrSessionScope) {
		t.Errorf("key2's DAI transfer (outside its scope): %v, want ErrSessionScope", err)
	}

	// Revoke while writes are halted: taking power away is never blocked.
	if err := st.Tools.Halt(ctx, sess, "test halt"); err != nil {
		t.Fatal(err)
	}
	_, err = st.Tools.Preview(ctx, sess, "erc20_transfer_token", json.RawMessage(fmt.Sprintf(`{"token":%q,"to":%q,"amount":"1"}`, dc.USDC.Hex(), to.Hex())))
	wantRefusal(t, "a write while halted", err, reason.Halted)
	_, err = st.Tools.Preview(ctx, sess, "wallet_grant_session_key", grant)
	wantRefusal(t, "a grant while halted", err, reason.Halted)
	revoke := json.RawMessage(fmt.Sprintf(`{"session_key":%q}`, key2.Address().Hex()))
	rheld := commit("wallet_revoke_session_key", revoke)
	if rheld.Kind != "revoke_session_key" {
		t.Fatalf("revocation held as %s", rheld.Kind)
	}
	if v, err := st.OwnerTx(ctx, rheld.ID); err != nil || v.Status != "awaiting_owner" {
		t.Fatalf("the revocation before the owner sent it: %+v %v", v, err)
	}
	sent = playOwner(rheld)
	if v, err := st.OwnerTx(ctx, rheld.ID); err != nil || v.Status != "done" || !strings.EqualFold(v.DoneTx, sent.Hex()) {
		t.Fatalf("the revocation after the owner sent it: %+v %v", v, err)
	}
	err = sendAs2("permit-after-revoke", dc.USDC)
	if !errors.Is(err, chain.ErrSessionScope) || !strings.Contains(err.Error(), "not granted") {
		t.Errorf("key2's call after the revocation: %v, want the account's 'session key not granted'", err)
	}
	// The account itself refuses key2's operation (validateUserOp).
	call, _ := chain.SessionKeyAccountABI().Pack("checkSessionCall", key2.Address(), mustExecute(t, dc.USDC, to))
	ret, err := p.Call(ctx, ethereum.CallMsg{To: &account, Data: call})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := chain.SessionKeyAccountABI().Unpack("checkSessionCall", ret); err != nil || v[0].(bool) {
		t.Errorf("the account still accepts key2: %v %v", v, err)
	}
	// A second revocation has nothing to revoke: refused, nothing held.
	_, err = st.Tools.Preview(ctx, sess, "wallet_revoke_session_key", revoke)
	if err == nil || !strings.Contains(err.Error(), "not a session key") {
		t.Errorf("revoking a revoked key: %v, want 'not a session key'", err)
	}
	if ids := pendingIDs(); len(ids) != 0 {
		t.Errorf("pending after a refused revocation: %v", ids)
	}

	// The same round through the gate itself, with the stack's own
	// session key: revoked by the owner, the gate's transfer is refused
	// by the account's scope check; granted again, it goes through.
	if err := st.Tools.Resume(ctx, "owner:test"); err != nil {
		t.Fatal(err)
	}
	key1 := st.Wallet.KeyAddress()
	to1 := common.HexToAddress("0x00000000000000000000000000000000005e5503")
	transfer := json.RawMessage(fmt.Sprintf(`{"token":%q,"to":%q,"amount":"1000000"}`, dc.USDC.Hex(), to1.Hex()))
	gateTransfer := func() error {
		t.Helper()
		pv, err := st.Tools.Preview(ctx, sess, "erc20_transfer_token", transfer)
		if err != nil {
			t.Fatalf("transfer preview: %v", err)
		}
		_, err = st.Tools.Commit(ctx, sess, gate.CommitRequest{PermitID: pv.PermitID})
		return err
	}
	received := func() *big.Int {
		t.Helper()
		b, err := p.TokenBalance(ctx, dc.USDC, to1)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if err := gateTransfer(); err != nil || received().Cmp(big.NewInt(1e6)) != 0 {
		t.Fatalf("the gate's transfer with the stack's key: %v, recipient holds %s", err, received())
	}
	revoke1 := json.RawMessage(fmt.Sprintf(`{"session_key":%q}`, key1.Hex()))
	pv, err := st.Tools.Preview(ctx, sess, "wallet_revoke_session_key", revoke1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := st.Tools.Commit(ctx, sess, gate.CommitRequest{PermitID: pv.PermitID, Approval: ownerApproval(t, ownerKey, pv.PermitID, "wallet_revoke_session_key", revoke1)})
	if err != nil {
		t.Fatal(err)
	}
	var held1 privileged.OwnerCallJSON
	if err := json.Unmarshal(res.Data, &held1); err != nil {
		t.Fatal(err)
	}
	playOwner(held1)
	err = gateTransfer()
	// The refusal's code says the tool failed; only the account's reason,
	// which the gate carries as text, says why.
	var refusal *gate.Refusal
	if !errors.As(err, &refusal) || refusal.Code != reason.ExecutionFailed || !strings.Contains(err.Error(), "session key not granted") || received().Cmp(big.NewInt(1e6)) != 0 {
		t.Fatalf("the gate's transfer with the revoked key: %v, recipient holds %s; want the account's 'session key not granted'", err, received())
	}
	grant1 := json.RawMessage(fmt.Sprintf(`{"session_key":%q,"calls":[{"target":%q,"selector":"0x%x"}],"valid_until":%d}`,
		key1.Hex(), dc.USDC.Hex(), transferSel, until))
	pv, err = st.Tools.Preview(ctx, sess, "wallet_grant_session_key", grant1)
	if err != nil {
		t.Fatal(err)
	}
	if res, err = st.Tools.Commit(ctx, sess, gate.CommitRequest{PermitID: pv.PermitID, Approval: ownerApproval(t, ownerKey, pv.PermitID, "wallet_grant_session_key", grant1)}); err != nil {
		t.Fatal(err)
	}
	var granted1 privileged.OwnerCallJSON
	if err := json.Unmarshal(res.Data, &granted1); err != nil {
		t.Fatal(err)
	}
	playOwner(granted1)
	if v, err := st.OwnerTx(ctx, granted1.ID); err != nil || v.Status != "done" {
		t.Fatalf("the stack key's grant: %+v %v", v, err)
	}
	if err := gateTransfer(); err != nil || received().Cmp(big.NewInt(2e6)) != 0 {
		t.Fatalf("the gate's transfer with the key granted again: %v, recipient holds %s", err, received())
	}
}

func mustExecute(t *testing.T, token, to common.Address) []byte {
	t.Helper()
	inner, _ := chain.ERC20ABI().Pack("transfer", to, big.NewInt(1e6))
	data, err := chain.SessionKeyAccountABI().Pack("execute", token, new(big.Int), inner)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
