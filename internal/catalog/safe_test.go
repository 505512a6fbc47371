package catalog_test

import (
	"encoding/json"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
)

// safeCatalog is the catalogue registered over a wallet that sends from
// a Safe with the given owners (keys made from names) and threshold,
// ward holding the first owner's key, on a dev chain of its own. The
// Safe holds 50,000 USDC; ward's key only ETH for gas.
type safeCatalog struct {
	*baseFixture
	safe  common.Address
	keys  []*chain.LocalSigner
	queue *chain.MemSafeQueue
	w     *chain.Wallet
}

func newSafeCatalog(t *testing.T, owners []string, threshold uint64) *safeCatalog {
	t.Helper()
	f, err := newFixture("ward catalog safe tests " + t.Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.dev.Close() })
	s := &safeCatalog{baseFixture: f, queue: &chain.MemSafeQueue{}}
	var addrs []common.Address
	for _, o := range owners {
		k, err := chain.NewLocalSigner(crypto.Keccak256Hash([]byte(o)).Hex())
		if err != nil {
			t.Fatal(err)
		}
		s.keys = append(s.keys, k)
		addrs = append(addrs, k.Address())
	}
	dep, err := f.dev.DeploySafe(t.Context(), addrs, threshold)
	if err != nil {
		t.Fatal(err)
	}
	s.safe = dep.Safe
	if err := f.dev.Fund(t.Context(), addrs[0], common.Address{}, units(1, 18)); err != nil {
		t.Fatal(err)
	}
	if err := f.dev.Fund(t.Context(), s.safe, f.c.USDC, units(50_000, 6)); err != nil {
		t.Fatal(err)
	}
	if s.w, err = chain.NewWallet(s.keys[0], f.dev.Provider(), chain.WalletConfig{Safe: s.safe, SafeQueue: s.queue}); err != nil {
		t.Fatal(err)
	}
	env := *f.env
	env.Wallet = s.w
	r := registry.New()
	if err := catalog.Register(r, &env); err != nil {
		t.Fatal(err)
	}
	r.Freeze()
	s.env, s.reg = &env, r
	return s
}

// TestSafeSwapFromOneOfOne commits a Uniswap swap (approve, then swap)
// and a transfer through the write handlers over a 1-of-1 Safe: the
// Safe's balances move, the owner key's tokens do not, the key pays gas.
func TestSafeSwapFromOneOfOne(t *testing.T) {
	s := newSafeCatalog(t, []string{"ward safe owner"}, 1)
	c, key := s.c, s.keys[0].Address()
	usdc0, weth0 := s.balance(t, c.USDC, s.safe), s.balance(t, c.WETH, s.safe)
	keyETH0 := s.balance(t, common.Address{}, key)
	var out writeOut
	s.commit(t, "uniswap_execute_swap", argsOf("token_in", c.USDC, "token_out", c.WETH, "amount_in", units(1_000, 6)), &out)
	if len(out.TxHashes) == 0 || !out.Verified {
		t.Fatalf("swap from the Safe: %+v", out)
	}
	if got := new(big.Int).Sub(usdc0, s.balance(t, c.USDC, s.safe)); got.Cmp(units(1_000, 6)) != 0 {
		t.Errorf("the Safe spent %s USDC units, want 1,000 USDC", got)
	}
	if s.balance(t, c.WETH, s.safe).Cmp(weth0) <= 0 {
		t.Error("the Safe received no WETH")
	}
	for _, tok := range []common.Address{c.USDC, c.WETH} {
		if b := s.balance(t, tok, key); b.Sign() != 0 {
			t.Errorf("the owner key holds %s of %s; it should only pay gas", b, tok.Hex())
		}
	}
	if s.balance(t, common.Address{}, key).Cmp(keyETH0) >= 0 {
		t.Error("the owner key paid no gas")
	}

	var st struct {
		Address   string `json:"address"`
		CanPayGas bool   `json:"can_pay_gas"`
	}
	s.read(t, "wallet_get_status", `{}`, &st)
	if st.Address != s.safe.Hex() || !st.CanPayGas {
		t.Errorf("wallet status %+v, want the Safe's address, gas paid by the owner key", st)
	}

	recipientUSDC := s.balance(t, c.USDC, recipient)
	s.commit(t, "erc20_transfer_token", argsOf("token", c.USDC, "to", recipient, "amount", units(10, 6)), &out)
	if got := new(big.Int).Sub(s.balance(t, c.USDC, recipient), recipientUSDC); got.Cmp(units(10, 6)) != 0 {
		t.Errorf("recipient got %s, want 10 USDC", got)
	}

	// The plan is the Safe's: more than the Safe holds is refused at
	// preview even though ward's key has nothing either way.
	if _, _, err := s.plan(t, "erc20_transfer_token", argsOf("token", c.USDC, "to", recipient, "amount", units(60_000, 6))); err == nil {
		t.Error("a transfer of more USDC than the Safe holds was planned")
	}
}

// TestSafeTwoOfTwoThroughHandler commits a transfer over a 2-of-2 Safe:
// the write returns the pending Safe transaction, the permit's capability
// is spent, and the second owner's signature executes it.
func TestSafeTwoOfTwoThroughHandler(t *testing.T) {
	s := newSafeCatalog(t, []string{"ward safe owner", "second safe owner"}, 2)
	c := s.c
	args := argsOf("token", c.USDC, "to", recipient, "amount", units(25, 6))
	p, in, err := s.plan(t, "erc20_transfer_token", args)
	if err != nil {
		t.Fatal(err)
	}
	cp := capFor("erc20_transfer_token", in)
	res, err := s.entry(t, "erc20_transfer_token").Write(t.Context(), in, p, cp)
	if err != nil {
		t.Fatalf("commit over a 2-of-2 Safe: %v", err)
	}
	var pend struct {
		Status string   `json:"status"`
		Hashes []string `json:"safe_tx_hashes"`
	}
	if err := json.Unmarshal(res.Data, &pend); err != nil || pend.Status != "awaiting_owner_signatures" || len(pend.Hashes) != 1 {
		t.Fatalf("result %s (%v), want one Safe transaction awaiting owner signatures", res.Data, err)
	}
	if len(res.TxHashes) != 0 {
		t.Errorf("pending commit reports sent transactions %v", res.TxHashes)
	}
	before := s.balance(t, c.USDC, recipient)
	if _, err := s.entry(t, "erc20_transfer_token").Write(t.Context(), in, p, cp); !errors.Is(err, capability.ErrConsumed) {
		t.Errorf("second commit of the permit: %v, want ErrConsumed", err)
	}
	h := common.HexToHash(pend.Hashes[0])
	sig, err := s.keys[1].SignHash(t.Context(), h)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.w.SignSafeTx(t.Context(), h, sig)
	if err != nil || r.Status != 1 {
		t.Fatalf("second owner's signature: %+v, %v", r, err)
	}
	if got := new(big.Int).Sub(s.balance(t, c.USDC, recipient), before); got.Cmp(units(25, 6)) != 0 {
		t.Errorf("recipient got %s, want 25 USDC", got)
	}
}
