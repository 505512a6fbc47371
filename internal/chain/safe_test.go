package chain

import (
	"crypto/sha256"
	"errors"
	"math/big"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/tool"
)

// safeFixture is a dev chain with a Safe of the given owners' keys and
// threshold, holding 1,000 USDC, and a Wallet sending from it with the
// first key.
type safeFixture struct {
	d      *DevChain
	c      *DevContracts
	keys   []*LocalSigner
	safe   common.Address
	wallet *Wallet
	queue  *MemSafeQueue
	multi  common.Address // the Safe's MultiSendCallOnly
}

func newSafeFixture(t *testing.T, owners int, threshold uint64) *safeFixture {
	t.Helper()
	d, c := startDev(t)
	f := &safeFixture{d: d, c: c, queue: &MemSafeQueue{}}
	var addrs []common.Address
	for i := range owners {
		k, err := devKey("safe owner", uint32(i))
		if err != nil {
			t.Fatal(err)
		}
		f.keys = append(f.keys, k)
		addrs = append(addrs, k.Address())
	}
	dep, err := d.DeploySafe(t.Context(), addrs, threshold)
	if err != nil {
		t.Fatal(err)
	}
	f.safe = dep.Safe
	if err := d.Fund(t.Context(), f.keys[0].Address(), common.Address{}, ether(1)); err != nil {
		t.Fatal(err)
	}
	if err := d.Fund(t.Context(), f.safe, c.USDC, big.NewInt(1000e6)); err != nil {
		t.Fatal(err)
	}
	if f.wallet, err = NewWallet(f.keys[0], d.Provider(), WalletConfig{Safe: f.safe, SafeQueue: f.queue}); err != nil {
		t.Fatal(err)
	}
	f.multi = dep.MultiSend
	return f
}

// batching makes the fixture's wallet batch each plan through the Safe's
// MultiSendCallOnly.
func (f *safeFixture) batching(t *testing.T) {
	t.Helper()
	var err error
	if f.wallet, err = NewWallet(f.keys[0], f.d.Provider(), WalletConfig{Safe: f.safe, SafeQueue: f.queue, SafeMultiSend: f.multi}); err != nil {
		t.Fatal(err)
	}
}

// approveSwap is a plan approving amountIn USDC to the V2 router and
// swapping it for WETH to the Safe: two transactions.
func (f *safeFixture) approveSwap(t *testing.T, amountIn int64) []tool.Tx {
	t.Helper()
	in := big.NewInt(amountIn)
	return []tool.Tx{
		{To: tool.Address(f.c.USDC), Data: pack(t, ERC20ABI(), "approve", f.c.UniswapV2Router, in), Label: "approve"},
		{To: tool.Address(f.c.UniswapV2Router), Data: pack(t, UniswapV2Router02ABI(), "swapExactTokensForTokens", in, big.NewInt(1),
			[]common.Address{f.c.USDC, f.c.WETH}, f.safe, big.NewInt(1<<40)), Label: "swap"},
	}
}

// TestSafeMultiSendOneOfOne: with MultiSendCallOnly, an approve + swap
// plan is one SafeTx (a DELEGATECALL of multiSend) executed in one
// transaction: the Safe pays the USDC, receives the WETH, and its nonce
// moves by one. A plan that calls MultiSendCallOnly itself is refused
// with nothing sent.
func TestSafeMultiSendOneOfOne(t *testing.T) {
	f := newSafeFixture(t, 1, 1)
	f.batching(t)
	p := f.d.Provider()
	// The published bytecode deploys the canonical code.
	if err := CheckMultiSend(t.Context(), p, f.multi); err != nil {
		t.Fatal(err)
	}
	if err := CheckMultiSend(t.Context(), p, f.c.USDC); err == nil {
		t.Error("CheckMultiSend took USDC's code")
	}
	usdc0, weth0 := tokenBalance(t, p, f.c.USDC, f.safe), tokenBalance(t, p, f.c.WETH, f.safe)
	args := sha256.Sum256([]byte("approve and swap"))
	receipts, err := f.wallet.Send(t.Context(), capFor("uniswap_swap", args), scopeFor("uniswap_swap", args), f.approveSwap(t, 100e6))
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	if len(receipts) != 1 || receipts[0].Status != 1 {
		t.Fatalf("%d receipts, want one successful execTransaction", len(receipts))
	}
	success, _ := SafeABI().Event("ExecutionSuccess")
	if !slices.ContainsFunc(receipts[0].Logs, func(l *types.Log) bool { return l.Address == f.safe && l.Topics[0] == success }) {
		t.Error("the receipt has no ExecutionSuccess of the Safe")
	}
	wantBig(t, "Safe USDC", tokenBalance(t, p, f.c.USDC, f.safe), new(big.Int).Sub(usdc0, big.NewInt(100e6)))
	if got := tokenBalance(t, p, f.c.WETH, f.safe); got.Cmp(weth0) <= 0 {
		t.Errorf("Safe WETH %s, want more than %s", got, weth0)
	}
	wantBig(t, "router allowance left", view(t, p, f.c.USDC, ERC20ABI(), "allowance", f.safe, f.c.UniswapV2Router)[0].(*big.Int), new(big.Int))
	wantBig(t, "Safe nonce", view(t, p, f.safe, SafeABI(), "nonce")[0].(*big.Int), big.NewInt(1))

	// The gate saw the plan's targets; a plan calling MultiSendCallOnly
	// would run calls it never saw.
	inner, err := multiSendTx(f.multi, f.transfer(t, common.HexToAddress("0x00000000000000000000000000000000000Bee05"), 1e6))
	if err != nil {
		t.Fatal(err)
	}
	args2 := sha256.Sum256([]byte("calls multisend"))
	if _, err := f.wallet.Send(t.Context(), capFor("raw", args2), scopeFor("raw", args2), []tool.Tx{inner}); err == nil {
		t.Error("a plan calling MultiSendCallOnly was sent")
	}
	wantBig(t, "Safe nonce after the refusal", view(t, p, f.safe, SafeABI(), "nonce")[0].(*big.Int), big.NewInt(1))

	// A batch whose second step fails reverts as a whole: no approval is
	// left behind.
	args3 := sha256.Sum256([]byte("swap more than the Safe holds"))
	if _, err := f.wallet.Send(t.Context(), capFor("uniswap_swap", args3), scopeFor("uniswap_swap", args3), f.approveSwap(t, 5000e6)); err == nil {
		t.Error("a swap of more than the Safe holds was sent")
	}
	wantBig(t, "router allowance after the failed batch", view(t, p, f.c.USDC, ERC20ABI(), "allowance", f.safe, f.c.UniswapV2Router)[0].(*big.Int), new(big.Int))
}

// TestSafeMultiSendTwoOfTwo: a two-transaction plan over a 2-of-2 Safe
// with MultiSendCallOnly is one pending SafeTx; the second owner signs
// once and both transfers execute.
func TestSafeMultiSendTwoOfTwo(t *testing.T) {
	f := newSafeFixture(t, 2, 2)
	f.batching(t)
	p := f.d.Provider()
	to := common.HexToAddress("0x00000000000000000000000000000000000Bee06")
	args := sha256.Sum256([]byte("two steps, one signature"))
	plan := append(f.transfer(t, to, 10e6), f.transfer(t, to, 20e6)...)
	_, err := f.wallet.Send(t.Context(), capFor("erc20_transfer", args), scopeFor("erc20_transfer", args), plan)
	pending, ok := errors.AsType[*SafePendingError](err)
	if !ok || len(pending.Hashes) != 1 {
		t.Fatalf("send: %v, want one Safe transaction pending", err)
	}
	h := pending.Hashes[0]
	queued, err := f.queue.SafeTx(t.Context(), h)
	if err != nil || queued.Tx.To != f.multi {
		t.Fatalf("queued %+v, %v; want a SafeTx to MultiSendCallOnly %s", queued.Tx, err, f.multi.Hex())
	}
	want := view(t, p, f.safe, SafeABI(), "getTransactionHash", f.multi, new(big.Int), queued.Tx.Data, SafeDelegateCall,
		new(big.Int), new(big.Int), new(big.Int), common.Address{}, common.Address{}, big.NewInt(0))[0].([32]byte)
	if h != common.Hash(want) {
		t.Errorf("SafeTx hash %s, the Safe's getTransactionHash of the DELEGATECALL %x", h.Hex(), want)
	}
	wantBig(t, "recipient while pending", tokenBalance(t, p, f.c.USDC, to), new(big.Int))
	sig, err := f.keys[1].SignHash(t.Context(), h)
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.wallet.SignSafeTx(t.Context(), h, sig)
	if err != nil || res.Status != 1 {
		t.Fatalf("second owner's one signature: %+v, %v", res, err)
	}
	wantBig(t, "recipient", tokenBalance(t, p, f.c.USDC, to), big.NewInt(30e6))
	wantBig(t, "Safe USDC", tokenBalance(t, p, f.c.USDC, f.safe), big.NewInt(970e6))
	wantBig(t, "Safe nonce", view(t, p, f.safe, SafeABI(), "nonce")[0].(*big.Int), big.NewInt(1))
}

// transfer is a plan moving amount USDC from the wallet to to.
func (f *safeFixture) transfer(t *testing.T, to common.Address, amount int64) []tool.Tx {
	t.Helper()
	return []tool.Tx{{To: tool.Address(f.c.USDC), Data: pack(t, ERC20ABI(), "transfer", to, big.NewInt(amount)), Label: "transfer"}}
}

func TestSafeTxHashMatchesSafe(t *testing.T) {
	f := newSafeFixture(t, 1, 1)
	st := SafeTx{Safe: f.safe, ChainID: DevChainID, To: f.c.USDC, Value: big.NewInt(7), Data: []byte{1, 2, 3}, Nonce: 5}
	got, err := st.Hash()
	if err != nil {
		t.Fatal(err)
	}
	want := view(t, f.d.Provider(), f.safe, SafeABI(), "getTransactionHash", st.To, st.Value, st.Data, uint8(0),
		new(big.Int), new(big.Int), new(big.Int), common.Address{}, common.Address{}, big.NewInt(5))[0].([32]byte)
	if got != common.Hash(want) {
		t.Errorf("SafeTx hash %s, the Safe's getTransactionHash %x", got.Hex(), want)
	}
}

func TestSafeOneOfOneExecutes(t *testing.T) {
	f := newSafeFixture(t, 1, 1)
	p := f.d.Provider()
	to := common.HexToAddress("0x00000000000000000000000000000000000Bee01")
	if got := f.wallet.Address(); got != f.safe {
		t.Fatalf("Address() = %s, want the Safe %s", got.Hex(), f.safe.Hex())
	}
	key := f.keys[0].Address()
	safeBefore, keyBefore := tokenBalance(t, p, f.c.USDC, f.safe), tokenBalance(t, p, f.c.USDC, key)
	args := sha256.Sum256([]byte("safe 1/1"))
	c := capFor("erc20_transfer", args)
	receipts, err := f.wallet.Send(t.Context(), c, scopeFor("erc20_transfer", args), f.transfer(t, to, 250e6))
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	if len(receipts) != 1 || receipts[0].Status != 1 {
		t.Fatalf("receipts %+v, want one successful", receipts)
	}
	success, _ := SafeABI().Event("ExecutionSuccess")
	if !slices.ContainsFunc(receipts[0].Logs, func(l *types.Log) bool { return l.Address == f.safe && l.Topics[0] == success }) {
		t.Error("the receipt has no ExecutionSuccess of the Safe")
	}
	wantBig(t, "Safe USDC", tokenBalance(t, p, f.c.USDC, f.safe), new(big.Int).Sub(safeBefore, big.NewInt(250e6)))
	wantBig(t, "owner key USDC", tokenBalance(t, p, f.c.USDC, key), keyBefore)
	wantBig(t, "recipient USDC", tokenBalance(t, p, f.c.USDC, to), big.NewInt(250e6))
	wantBig(t, "Safe nonce", view(t, p, f.safe, SafeABI(), "nonce")[0].(*big.Int), big.NewInt(1))

	// The capability is consumed: a second Send with it signs nothing.
	if _, err := f.wallet.Send(t.Context(), c, scopeFor("erc20_transfer", args), f.transfer(t, to, 1)); !errors.Is(err, capability.ErrConsumed) {
		t.Errorf("second send with the same capability: %v, want ErrConsumed", err)
	}
	wantBig(t, "Safe nonce after the refused send", view(t, p, f.safe, SafeABI(), "nonce")[0].(*big.Int), big.NewInt(1))

	// A plan that would revert inside the Safe is not sent.
	args2 := sha256.Sum256([]byte("too much"))
	if _, err := f.wallet.Send(t.Context(), capFor("erc20_transfer", args2), scopeFor("erc20_transfer", args2), f.transfer(t, to, 10_000e6)); err == nil {
		t.Error("a transfer of more than the Safe holds was sent")
	}
	wantBig(t, "recipient USDC after the refused send", tokenBalance(t, p, f.c.USDC, to), big.NewInt(250e6))
}

func TestSafeTwoOfTwoAwaitsOwner(t *testing.T) {
	f := newSafeFixture(t, 2, 2)
	p := f.d.Provider()
	to := common.HexToAddress("0x00000000000000000000000000000000000Bee02")
	args := sha256.Sum256([]byte("safe 2/2"))
	c := capFor("erc20_transfer", args)
	_, err := f.wallet.Send(t.Context(), c, scopeFor("erc20_transfer", args), f.transfer(t, to, 100e6))
	var pending *SafePendingError
	if !errors.As(err, &pending) || len(pending.Hashes) != 1 || pending.Threshold != 2 {
		t.Fatalf("send from a 2-of-2 Safe: %v, want a SafePendingError with one hash", err)
	}
	h := pending.Hashes[0]
	wantBig(t, "recipient USDC while pending", tokenBalance(t, p, f.c.USDC, to), new(big.Int))

	if _, err := f.wallet.Send(t.Context(), c, scopeFor("erc20_transfer", args), f.transfer(t, to, 100e6)); !errors.Is(err, capability.ErrConsumed) {
		t.Errorf("second commit of the permit: %v, want ErrConsumed", err)
	}
	args2 := sha256.Sum256([]byte("another"))
	if _, err := f.wallet.Send(t.Context(), capFor("erc20_transfer", args2), scopeFor("erc20_transfer", args2), f.transfer(t, to, 1)); !errors.Is(err, ErrSafePending) {
		t.Errorf("a new send while one awaits signatures: %v, want ErrSafePending", err)
	}

	stranger, err := devKey("not an owner", 0)
	if err != nil {
		t.Fatal(err)
	}
	sign := func(k *LocalSigner, digest common.Hash) []byte {
		s, err := k.SignHash(t.Context(), digest)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	refusals := []struct {
		name string
		hash common.Hash
		sig  []byte
		want error
	}{
		{"not an owner", h, sign(stranger, h), ErrSafeSigner},
		{"ward's key again", h, sign(f.keys[0], h), ErrSafeSignedTwice},
		{"owner signing another digest", h, sign(f.keys[1], common.Hash{1}), ErrSafeSigner},
		{"unknown hash", common.Hash{2}, sign(f.keys[1], common.Hash{2}), ErrSafeTxUnknown},
	}
	for _, r := range refusals {
		t.Run(r.name, func(t *testing.T) {
			if _, err := f.wallet.SignSafeTx(t.Context(), r.hash, r.sig); !errors.Is(err, r.want) {
				t.Errorf("SignSafeTx: %v, want %v", err, r.want)
			}
		})
	}
	if _, err := f.wallet.SignSafeTx(t.Context(), h, []byte{1, 2, 3}); err == nil {
		t.Error("a 3-byte signature was taken")
	}
	wantBig(t, "recipient USDC after the refusals", tokenBalance(t, p, f.c.USDC, to), new(big.Int))

	second := sign(f.keys[1], h)
	res, err := f.wallet.SignSafeTx(t.Context(), h, second)
	if err != nil {
		t.Fatalf("second owner's signature: %v", err)
	}
	if res.Executed == (common.Hash{}) || res.Status != 1 || res.Signatures != 2 {
		t.Fatalf("result %+v, want executed with 2 signatures", res)
	}
	wantBig(t, "recipient USDC", tokenBalance(t, p, f.c.USDC, to), big.NewInt(100e6))
	wantBig(t, "Safe USDC", tokenBalance(t, p, f.c.USDC, f.safe), big.NewInt(900e6))

	if _, err := f.wallet.SignSafeTx(t.Context(), h, second); !errors.Is(err, ErrSafeTxDone) {
		t.Errorf("replayed signature: %v, want ErrSafeTxDone", err)
	}
	wantBig(t, "recipient USDC after the replay", tokenBalance(t, p, f.c.USDC, to), big.NewInt(100e6))
}

// TestSafeOutOfOrderSignatures: a two-transaction plan over a 2-of-2 Safe
// is two SafeTxs at consecutive nonces; the second owner signing the
// later one first leaves it waiting, and signing the earlier one then
// executes both, in nonce order.
func TestSafeOutOfOrderSignatures(t *testing.T) {
	f := newSafeFixture(t, 2, 2)
	p := f.d.Provider()
	to := common.HexToAddress("0x00000000000000000000000000000000000Bee03")
	args := sha256.Sum256([]byte("two steps"))
	plan := append(f.transfer(t, to, 10e6), f.transfer(t, to, 20e6)...)
	_, err := f.wallet.Send(t.Context(), capFor("erc20_transfer", args), scopeFor("erc20_transfer", args), plan)
	pending, ok := errors.AsType[*SafePendingError](err)
	if !ok || len(pending.Hashes) != 2 {
		t.Fatalf("send: %v, want two Safe transactions pending", err)
	}
	sign := func(h common.Hash) []byte {
		s, err := f.keys[1].SignHash(t.Context(), h)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	res, err := f.wallet.SignSafeTx(t.Context(), pending.Hashes[1], sign(pending.Hashes[1]))
	if err != nil || res.Signatures != 2 || res.Executed != (common.Hash{}) {
		t.Fatalf("the later SafeTx signed first: %+v, %v; want it waiting with 2 signatures", res, err)
	}
	wantBig(t, "recipient before the first SafeTx", tokenBalance(t, p, f.c.USDC, to), new(big.Int))
	if res, err = f.wallet.SignSafeTx(t.Context(), pending.Hashes[0], sign(pending.Hashes[0])); err != nil || res.Status != 1 {
		t.Fatalf("the earlier SafeTx: %+v, %v", res, err)
	}
	wantBig(t, "recipient after both", tokenBalance(t, p, f.c.USDC, to), big.NewInt(30e6))
	wantBig(t, "Safe nonce", view(t, p, f.safe, SafeABI(), "nonce")[0].(*big.Int), big.NewInt(2))
	if left, err := f.wallet.PendingSafeTxs(t.Context()); err != nil || len(left) != 0 {
		t.Errorf("pending after both executed: %d, %v", len(left), err)
	}
}

// TestSafeRetryFailedExecution: the second owner's signature completes a
// SafeTx whose call would fail (the Safe lacks the USDC): nothing is sent
// and it stays pending with both signatures; once the Safe holds the
// USDC, the same owner's signature again retries and executes it.
func TestSafeRetryFailedExecution(t *testing.T) {
	f := newSafeFixture(t, 2, 2)
	p := f.d.Provider()
	to := common.HexToAddress("0x00000000000000000000000000000000000Bee04")
	args := sha256.Sum256([]byte("more than the Safe holds"))
	_, err := f.wallet.Send(t.Context(), capFor("erc20_transfer", args), scopeFor("erc20_transfer", args), f.transfer(t, to, 1500e6))
	pending, ok := errors.AsType[*SafePendingError](err)
	if !ok {
		t.Fatalf("send: %v, want pending", err)
	}
	h := pending.Hashes[0]
	sig, err := f.keys[1].SignHash(t.Context(), h)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := f.wallet.SignSafeTx(t.Context(), h, sig); err == nil || res.Executed != (common.Hash{}) {
		t.Fatalf("executing a transfer the Safe cannot pay: %+v, %v; want a failure", res, err)
	}
	if left, _ := f.wallet.PendingSafeTxs(t.Context()); len(left) != 1 || len(left[0].Signatures) != 2 {
		t.Fatalf("after the failed execution: %+v, want it pending with both signatures", left)
	}
	if err := f.d.Fund(t.Context(), f.safe, f.c.USDC, big.NewInt(1000e6)); err != nil {
		t.Fatal(err)
	}
	res, err := f.wallet.SignSafeTx(t.Context(), h, sig)
	if err != nil || res.Status != 1 {
		t.Fatalf("retry: %+v, %v", res, err)
	}
	wantBig(t, "recipient", tokenBalance(t, p, f.c.USDC, to), big.NewInt(1500e6))
	if _, err := f.wallet.SignSafeTx(t.Context(), h, sig); !errors.Is(err, ErrSafeTxDone) {
		t.Errorf("after execution: %v, want ErrSafeTxDone", err)
	}
}
