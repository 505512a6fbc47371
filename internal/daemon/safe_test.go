package daemon

import (
	"errors"
	"math/big"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/api"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// TestSafeWalletThroughTheGate runs `ward serve`'s embedded defaults with
// wallet_kind = "safe": ward deploys a 1-of-1 Safe of the dev wallet's
// key, and a swap and a transfer previewed and committed through the
// facade execute from the Safe (preview → permit → commit → the
// capability consumed → SafeTx signed → execTransaction). The Safe's
// balances move; the owner key's tokens do not. A second commit of the
// same permit is refused.
func TestSafeWalletThroughTheGate(t *testing.T) {
	g := openGateStack(t, "[chain]\nwallet_kind = \"safe\"\n[gate]\nannounce_delay = \"0s\"\n")
	safe := g.Wallet.Safe()
	if safe == (common.Address{}) || g.Wallet.Address() != safe || g.Env.Wallet.Address() != safe {
		t.Fatalf("wallet sends from %s (Safe %s), want the dev Safe", g.Wallet.Address().Hex(), safe.Hex())
	}
	key, dc, bal, mined := g.Dev.WalletAddress(), g.dc, g.balance, g.mined
	preview := func(action, venue string, params map[string]any) string {
		t.Helper()
		pv, err := g.preview(action, venue, params)
		if err != nil {
			t.Fatalf("%s/%s preview: %v", action, venue, err)
		}
		return pv.PermitID
	}
	commit := func(id string) ([]string, error) {
		c, err := g.commit(id)
		return c.TxHashes, err
	}

	safeUSDC, safeWETH := bal(dc.USDC, safe), bal(dc.WETH, safe)
	keyUSDC, keyWETH := bal(dc.USDC, key), bal(dc.WETH, key)
	id := preview("swap", "uniswap_v2", map[string]any{"token_in": dc.USDC.Hex(), "token_out": dc.WETH.Hex(), "amount_in": "500000000"})
	hashes, err := commit(id)
	if err != nil {
		t.Fatalf("swap commit: %v", err)
	}
	mined("swap", hashes)
	if d := new(big.Int).Sub(safeUSDC, bal(dc.USDC, safe)); d.Cmp(big.NewInt(500e6)) != 0 {
		t.Errorf("the Safe spent %s USDC units, want 500 USDC", d)
	}
	if bal(dc.WETH, safe).Cmp(safeWETH) <= 0 {
		t.Error("the Safe received no WETH")
	}
	if bal(dc.USDC, key).Cmp(keyUSDC) != 0 || bal(dc.WETH, key).Cmp(keyWETH) != 0 {
		t.Error("the owner key's tokens moved; only the Safe's should")
	}
	if _, err := commit(id); err == nil {
		t.Error("the swap's permit was committed twice")
	}

	to := common.HexToAddress("0x00000000000000000000000000000000000b0b02")
	id = preview("transfer", "erc20", map[string]any{"token": dc.USDC.Hex(), "to": to.Hex(), "amount": "5000000"})
	hashes, err = commit(id)
	if err != nil {
		t.Fatalf("transfer commit: %v", err)
	}
	mined("transfer", hashes)
	if got := bal(dc.USDC, to); got.Cmp(big.NewInt(5e6)) != 0 {
		t.Errorf("recipient holds %s USDC units, want 5 USDC", got)
	}
}

// TestSafeQueueDurable: a 2-of-2 Safe's transfer, committed with the
// store's queue, is pending in ward.db; after the store is closed and
// opened again (a restart), a stranger's signature is refused, the second
// owner's executes it from the Safe, and a replay is refused.
func TestSafeQueueDurable(t *testing.T) {
	ctx := t.Context()
	d, err := chain.StartDev(ctx, chain.DevConfig{Seed: "daemon safe queue", AutoCommit: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	dc, err := d.Deploy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var keys []*chain.LocalSigner
	for _, k := range []string{"5a", "5b", "5c"} {
		s, err := chain.NewLocalSigner(strings.Repeat(k, 32))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		keys = append(keys, s)
	}
	dep, err := d.DeploySafe(ctx, []common.Address{keys[0].Address(), keys[1].Address()}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Fund(ctx, keys[0].Address(), common.Address{}, big.NewInt(1e18)); err != nil {
		t.Fatal(err)
	}
	if err := d.Fund(ctx, dep.Safe, dc.USDC, big.NewInt(100e6)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ward.db")
	open := func() (Backend, *chain.Wallet) {
		t.Helper()
		st, err := OpenStore(ctx, path, "")
		if err != nil {
			t.Fatal(err)
		}
		q := safeQueue{s: st.(store.SafeTxs), now: time.Now}
		w, err := chain.NewWallet(keys[0], d.Provider(), chain.WalletConfig{Journal: sendJournal{s: st, now: time.Now}, Safe: dep.Safe, SafeQueue: q})
		if err != nil {
			t.Fatal(err)
		}
		return st, w
	}
	st, w := open()
	to := common.HexToAddress("0x00000000000000000000000000000000000b0b03")
	data, err := chain.ERC20ABI().Pack("transfer", to, big.NewInt(40e6))
	if err != nil {
		t.Fatal(err)
	}
	_, err = sendOnce(t, w, "permit-safe", []tool.Tx{{To: tool.Address(dc.USDC), Data: data, Label: "transfer"}})
	pending, ok := errors.AsType[*chain.SafePendingError](err)
	if !ok || len(pending.Hashes) != 1 {
		t.Fatalf("commit over a 2-of-2 Safe: %v, want one Safe transaction pending", err)
	}
	h := pending.Hashes[0]
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st, w = open()
	defer st.Close()
	rec, err := st.(store.SafeTxs).SafeTx(ctx, h.Hex())
	if err != nil || rec.PermitID != "permit-safe" || len(rec.Signatures) != 1 || rec.Signatures[0].Owner != strings.ToLower(keys[0].Address().Hex()) {
		t.Fatalf("stored proposal %+v, %v", rec, err)
	}
	sign := func(k *chain.LocalSigner) []byte {
		s, err := k.SignHash(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// What GET /v1/safe and POST /v1/safe/{hash}/signatures call.
	stk := &Stack{SafeWallets: []*chain.Wallet{w}}
	if v, err := stk.SafePending(ctx); err != nil || len(v) != 1 || v[0].Hash != h.Hex() || len(v[0].Signers) != 1 || v[0].Signers[0] != keys[0].Address().Hex() {
		t.Errorf("pending view %+v, %v; want the transfer signed by ward's key", v, err)
	}
	if _, err := stk.SafeSign(ctx, h, sign(keys[2])); !errors.Is(err, chain.ErrSafeSigner) || !errors.Is(err, api.ErrSafeRefused) {
		t.Errorf("a stranger's signature: %v, want ErrSafeSigner as a refusal", err)
	}
	if _, err := stk.SafeSign(ctx, common.Hash{7}, sign(keys[1])); !errors.Is(err, api.ErrSafeUnknown) {
		t.Errorf("an unknown hash: %v, want ErrSafeUnknown", err)
	}
	if _, err := w.SignSafeTx(ctx, h, sign(keys[0])); !errors.Is(err, chain.ErrSafeSignedTwice) {
		t.Errorf("ward's key again: %v, want ErrSafeSignedTwice", err)
	}
	res, err := stk.SafeSign(ctx, h, sign(keys[1]))
	if err != nil || res.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("second owner's signature: %+v, %v", res, err)
	}
	if b, err := d.Provider().TokenBalance(ctx, dc.USDC, to); err != nil || b.Cmp(big.NewInt(40e6)) != 0 {
		t.Errorf("recipient holds %v (%v), want 40 USDC", b, err)
	}
	if _, err := w.SignSafeTx(ctx, h, sign(keys[1])); !errors.Is(err, chain.ErrSafeTxDone) {
		t.Errorf("replayed signature: %v, want ErrSafeTxDone", err)
	}
	if rec, _ := st.(store.SafeTxs).SafeTx(ctx, h.Hex()); rec.Executed != res.Executed.Hex() {
		t.Errorf("stored execution %q, want %s", rec.Executed, res.Executed.Hex())
	}
	if txs, err := st.PermitTxs(ctx, "permit-safe"); err != nil || len(txs) != 1 || txs[0].Hash != res.Executed.Hex() {
		t.Errorf("send journal of the permit: %+v, %v; want the execTransaction", txs, err)
	}
}
