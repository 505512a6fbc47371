package daemon

import (
	"errors"
	"fmt"
	"math/big"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/api"
	"github.com/wardhq/ward/internal/capability/mint"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/chain/nodetest"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// TestSafeWalletOnGeth runs ward's stack against geth --dev (a separate
// process) with wallet_kind = "safe": the published Safe v1.4.1 and a
// 2-of-2 proxy of it are deployed on the node, ward holds one owner's key.
// A send from the Safe is kept pending in ward.db; after the stack is
// closed and opened again, the other owner's signature executes it on the
// node and the Safe's ETH moves. A configuration whose key is not an owner
// is refused at start.
func TestSafeWalletOnGeth(t *testing.T) {
	node := nodetest.Start(t)
	ctx := t.Context()
	g := newGethWallets(t, node, big.NewInt(1e18), "6a", "6b", "6c")
	p, keys, files, dir := g.p, g.keys, g.files, t.TempDir()
	// The deployer is the third key: Safe's creation needs more gas than
	// the node's developer account sends with.
	send := func(to *common.Address, data []byte) *types.Receipt {
		t.Helper()
		return g.send(t, keys[2], to, nil, data)
	}
	singleton := send(nil, creation(t, "Safe")).ContractAddress
	factory := send(nil, creation(t, "SafeProxyFactory")).ContractAddress
	setup, err := chain.SafeABI().Pack("setup", []common.Address{keys[0].Address(), keys[1].Address()}, big.NewInt(2), common.Address{}, []byte{},
		common.Address{}, common.Address{}, new(big.Int), common.Address{})
	if err != nil {
		t.Fatal(err)
	}
	create, err := chain.SafeProxyFactoryABI().Pack("createProxyWithNonce", singleton, setup, big.NewInt(1))
	if err != nil {
		t.Fatal(err)
	}
	ret, err := p.Call(ctx, ethereum.CallMsg{From: keys[2].Address(), To: &factory, Data: create})
	if err != nil {
		t.Fatal(err)
	}
	safe := common.BytesToAddress(ret)
	send(&factory, create)
	node.Fund(t, safe, big.NewInt(5e17))

	configFor := func(keyFile string) *config.File {
		t.Helper()
		f, err := config.Parse("ward.toml", fmt.Appendf(nil, "[chain]\nrpc_url = %q\nchain_id = %d\nwallet_key_file = %q\nwallet_kind = \"safe\"\nsafe_address = %q\n",
			node.URL, nodetest.ChainID, keyFile, safe.Hex()))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	if st, err := OpenData(ctx, filepath.Join(dir, "stranger"), configFor(files[2])); err == nil {
		st.Close()
		t.Fatal("a stack whose key is not an owner of the Safe started")
	} else if !strings.Contains(err.Error(), "is not an owner of the Safe") {
		t.Errorf("stranger's key: %v, want it named as not an owner", err)
	}

	data := filepath.Join(dir, "ward")
	st, err := OpenData(ctx, data, configFor(files[0]))
	if err != nil {
		t.Fatal(err)
	}
	if st.Wallet.Address() != safe || len(st.SafeWallets) != 1 {
		t.Fatalf("the stack's wallet sends from %s (%d Safe wallets), want %s", st.Wallet.Address().Hex(), len(st.SafeWallets), safe.Hex())
	}
	to := common.HexToAddress("0x00000000000000000000000000000000000b0b04")
	args := [32]byte{1}
	c := mint.Capability(mint.Fields{PermitID: "permit-geth-safe", Tool: "wallet_send_eth", ArgsHash: args, ExpiresAt: time.Now().Add(time.Minute), ExpiryTick: 10})
	_, err = st.Wallet.Send(ctx, c, chain.Scope{Tool: "wallet_send_eth", ArgsHash: args, Tick: 1, Now: time.Now()},
		[]tool.Tx{{To: tool.Address(to), Value: big.NewInt(1e17), Label: "send"}})
	pending, ok := errors.AsType[*chain.SafePendingError](err)
	if !ok || len(pending.Hashes) != 1 {
		t.Fatalf("send from the 2-of-2 Safe: %v, want one pending", err)
	}
	st.Close()

	st, err = OpenData(ctx, data, configFor(files[0]))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := pending.Hashes[0]
	if v, err := st.SafePending(ctx); err != nil || len(v) != 1 || v[0].Hash != h.Hex() {
		t.Fatalf("pending after restart: %+v, %v", v, err)
	}
	sig, err := keys[1].SignHash(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	res, err := st.SafeSign(ctx, h, sig)
	if err != nil || res.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("second owner's signature: %+v, %v", res, err)
	}
	if b, err := p.BalanceOf(ctx, to); err != nil || b.Cmp(big.NewInt(1e17)) != 0 {
		t.Errorf("recipient holds %v wei (%v), want 1e17", b, err)
	}
	if b, err := p.BalanceOf(ctx, safe); err != nil || b.Cmp(big.NewInt(4e17)) != 0 {
		t.Errorf("the Safe holds %v wei (%v), want 4e17", b, err)
	}
	if _, err := st.SafeSign(ctx, h, sig); !errors.Is(err, api.ErrSafeRefused) {
		t.Errorf("replay: %v, want a refusal", err)
	}
	if rec, err := st.Store.(store.SafeTxs).SafeTx(ctx, h.Hex()); err != nil || rec.Executed != res.Executed.Hex() {
		t.Errorf("stored %+v, %v", rec, err)
	}
	st.Close()

	// With the chain's MultiSendCallOnly in the book, a two-transaction
	// plan is one Safe transaction: the other owner signs once and both
	// sends execute. A book naming other code there is refused at start.
	multi := send(nil, creation(t, "MultiSendCallOnly")).ContractAddress
	withMulti := func(keyFile string, at common.Address) *config.File {
		t.Helper()
		f, err := config.Parse("ward.toml", fmt.Appendf(nil, "[chain]\nrpc_url = %q\nchain_id = %d\nwallet_key_file = %q\nwallet_kind = \"safe\"\nsafe_address = %q\n"+
			"[[chain.contracts]]\nrole = \"safe_multisend_call_only\"\naddress = %q\n", node.URL, nodetest.ChainID, keyFile, safe.Hex(), at.Hex()))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	if st, err := OpenData(ctx, filepath.Join(dir, "bad-multisend"), withMulti(files[0], singleton)); err == nil {
		st.Close()
		t.Fatal("a stack whose book names the Safe singleton as MultiSendCallOnly started")
	} else if !strings.Contains(err.Error(), "not Safe v1.4.1's MultiSendCallOnly") {
		t.Errorf("bad MultiSendCallOnly: %v", err)
	}
	st, err = OpenData(ctx, data, withMulti(files[0], multi))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	to2 := common.HexToAddress("0x00000000000000000000000000000000000b0b05")
	args = [32]byte{2}
	c = mint.Capability(mint.Fields{PermitID: "permit-geth-safe-batch", Tool: "wallet_send_eth", ArgsHash: args, ExpiresAt: time.Now().Add(time.Minute), ExpiryTick: 10})
	_, err = st.Wallet.Send(ctx, c, chain.Scope{Tool: "wallet_send_eth", ArgsHash: args, Tick: 1, Now: time.Now()},
		[]tool.Tx{{To: tool.Address(to), Value: big.NewInt(1e17), Label: "send"}, {To: tool.Address(to2), Value: big.NewInt(2e17), Label: "send"}})
	pending, ok = errors.AsType[*chain.SafePendingError](err)
	if !ok || len(pending.Hashes) != 1 {
		t.Fatalf("a two-send plan from the 2-of-2 Safe with MultiSendCallOnly: %v, want one pending Safe transaction", err)
	}
	h = pending.Hashes[0]
	if v, err := st.SafePending(ctx); err != nil || len(v) != 1 || v[0].Hash != h.Hex() || v[0].To != multi.Hex() || v[0].Operation != chain.SafeDelegateCall {
		t.Fatalf("pending batch: %+v, %v; want one DELEGATECALL to %s", v, err, multi.Hex())
	}
	if sig, err = keys[1].SignHash(ctx, h); err != nil {
		t.Fatal(err)
	}
	if res, err = st.SafeSign(ctx, h, sig); err != nil || res.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("second owner's one signature of the batch: %+v, %v", res, err)
	}
	for _, w := range []struct {
		who  common.Address
		want int64
	}{{to, 2e17}, {to2, 2e17}, {safe, 1e17}} {
		if b, err := p.BalanceOf(ctx, w.who); err != nil || b.Cmp(big.NewInt(w.want)) != 0 {
			t.Errorf("%s holds %v wei (%v), want %d", w.who.Hex(), b, err, w.want)
		}
	}
}
