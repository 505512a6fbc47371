package artifacts_test

import (
	"bytes"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/chain/artifacts"
)

// These tests deploy every artifact on go-ethereum's simulated backend and drive the flows that
// ward's tools rely on, checking results against independent Go computations of the protocols'
// formulas rather than against the contracts' own view functions alone.

var (
	deployer = newAccount("ward dev deployer")
	alice    = newAccount("ward dev alice")
	bob      = newAccount("ward dev bob")

	farFuture = big.NewInt(1 << 40)
	maxUint   = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	q96       = new(big.Int).Lsh(big.NewInt(1), 96)
)

type account struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

// newAccount derives a fixed key from seed, so addresses (and token orderings) are the same every run.
func newAccount(seed string) account {
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte(seed)))
	if err != nil {
		panic(err)
	}
	return account{key: key, addr: crypto.PubkeyToAddress(key.PublicKey)}
}

type contract struct {
	name  string
	abi   abi.ABI
	addr  common.Address
	bound *bind.BoundContract
}

type devChain struct {
	t       *testing.T
	backend *simulated.Backend
	client  simulated.Client
	chainID *big.Int
	abis    map[string]abi.ABI
}

func newDevChain(t *testing.T) *devChain {
	t.Helper()
	funds := new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(1e18))
	alloc := types.GenesisAlloc{}
	for _, a := range []account{deployer, alice, bob} {
		alloc[a.addr] = types.Account{Balance: funds}
	}
	backend := simulated.NewBackend(alloc)
	t.Cleanup(func() {
		if err := backend.Close(); err != nil {
			t.Errorf("close simulated backend: %v", err)
		}
	})
	client := backend.Client()
	chainID, err := client.ChainID(t.Context())
	if err != nil {
		t.Fatalf("chain id: %v", err)
	}
	return &devChain{t: t, backend: backend, client: client, chainID: chainID, abis: map[string]abi.ABI{}}
}

func (c *devChain) loadABI(name string) (abi.ABI, artifacts.Artifact) {
	c.t.Helper()
	art, err := artifacts.Load(name)
	if err != nil {
		c.t.Fatalf("load %s: %v", name, err)
	}
	parsed, ok := c.abis[name]
	if !ok {
		parsed, err = abi.JSON(bytes.NewReader(art.ABI))
		if err != nil {
			c.t.Fatalf("parse %s ABI: %v", name, err)
		}
		c.abis[name] = parsed
	}
	return parsed, art
}

func (c *devChain) opts(from account, value *big.Int) *bind.TransactOpts {
	opts := bind.NewKeyedTransactor(from.key, c.chainID)
	opts.Context = c.t.Context()
	opts.Value = value
	return opts
}

func (c *devChain) deploy(from account, name string, args ...any) *contract {
	c.t.Helper()
	parsed, art := c.loadABI(name)
	input, err := parsed.Pack("", args...)
	if err != nil {
		c.t.Fatalf("pack %s constructor: %v", name, err)
	}
	opts := c.opts(from, nil)
	opts.GasLimit = c.gasLimit(from, nil, nil, append(slices.Clip(art.Bytecode), input...), "deploy "+name)
	addr, tx, err := bind.DeployContract(opts, art.Bytecode, c.client, input)
	if err != nil {
		c.t.Fatalf("deploy %s: %v", name, err)
	}
	c.mined(tx, "deploy "+name)
	code, err := c.client.CodeAt(c.t.Context(), addr, nil)
	if err != nil {
		c.t.Fatalf("deploy %s: code at %s: %v", name, addr, err)
	}
	if !matchesRuntime(code, art.DeployedBytecode) {
		c.t.Fatalf("deploy %s: code at %s does not match the artifact's deployedBytecode", name, addr)
	}
	return c.at(name, addr)
}

// matchesRuntime reports whether deployed code is the artifact's runtime code with immutables
// filled in: the compiler leaves immutable slots zeroed in deployedBytecode.
func matchesRuntime(code, runtime []byte) bool {
	if len(code) != len(runtime) {
		return false
	}
	for i := range code {
		if code[i] != runtime[i] && runtime[i] != 0 {
			return false
		}
	}
	return true
}

func (c *devChain) at(name string, addr common.Address) *contract {
	c.t.Helper()
	parsed, _ := c.loadABI(name)
	return &contract{name: name, abi: parsed, addr: addr, bound: bind.NewBoundContract(addr, parsed, c.client, c.client, c.client)}
}

// gasLimit estimates the transaction's gas with headroom. The simulated backend estimates against
// the latest block, whose timestamp differs from the block the transaction lands in, and code
// that writes timestamps (price accumulators, feed rounds) costs more in the later block.
func (c *devChain) gasLimit(from account, to *common.Address, value *big.Int, data []byte, what string) uint64 {
	c.t.Helper()
	gas, err := c.client.EstimateGas(c.t.Context(), ethereum.CallMsg{From: from.addr, To: to, Value: value, Data: data})
	if err != nil {
		c.t.Fatalf("%s: estimate gas: %v", what, err)
	}
	return gas*3/2 + 50_000
}

func (c *devChain) mined(tx *types.Transaction, what string) *types.Receipt {
	c.t.Helper()
	c.backend.Commit()
	receipt, err := c.client.TransactionReceipt(c.t.Context(), tx.Hash())
	if err != nil {
		c.t.Fatalf("%s: receipt: %v", what, err)
	}
	if receipt.Status != types.ReceiptStatusSuccessful {
		c.t.Fatalf("%s: transaction failed (gas used %d of %d)", what, receipt.GasUsed, tx.Gas())
	}
	return receipt
}

func (c *devChain) send(from account, ct *contract, method string, args ...any) *types.Receipt {
	c.t.Helper()
	return c.sendValue(from, nil, ct, method, args...)
}

func (c *devChain) sendValue(from account, value *big.Int, ct *contract, method string, args ...any) *types.Receipt {
	c.t.Helper()
	data, err := ct.abi.Pack(method, args...)
	if err != nil {
		c.t.Fatalf("pack %s.%s: %v", ct.name, method, err)
	}
	opts := c.opts(from, value)
	opts.GasLimit = c.gasLimit(from, &ct.addr, value, data, ct.name+"."+method)
	tx, err := ct.bound.RawTransact(opts, data)
	if err != nil {
		c.t.Fatalf("%s.%s: %v", ct.name, method, err)
	}
	return c.mined(tx, ct.name+"."+method)
}

func (c *devChain) call(ct *contract, method string, args ...any) []any {
	c.t.Helper()
	var out []any
	if err := ct.bound.Call(&bind.CallOpts{Context: c.t.Context()}, &out, method, args...); err != nil {
		c.t.Fatalf("%s.%s: %v", ct.name, method, err)
	}
	return out
}

func (c *devChain) callBig(ct *contract, method string, args ...any) *big.Int {
	c.t.Helper()
	out := c.call(ct, method, args...)
	v, ok := out[0].(*big.Int)
	if !ok {
		c.t.Fatalf("%s.%s returned %T, want *big.Int", ct.name, method, out[0])
	}
	return v
}

func (c *devChain) callAddr(ct *contract, method string, args ...any) common.Address {
	c.t.Helper()
	out := c.call(ct, method, args...)
	v, ok := out[0].(common.Address)
	if !ok {
		c.t.Fatalf("%s.%s returned %T, want common.Address", ct.name, method, out[0])
	}
	return v
}

// revertReason simulates the call from `from` and returns the revert reason; it fails the test
// if the call succeeds or reverts without a readable reason.
func (c *devChain) revertReason(from account, value *big.Int, ct *contract, method string, args ...any) string {
	c.t.Helper()
	data, err := ct.abi.Pack(method, args...)
	if err != nil {
		c.t.Fatalf("pack %s.%s: %v", ct.name, method, err)
	}
	_, err = c.client.CallContract(c.t.Context(), ethereum.CallMsg{From: from.addr, To: &ct.addr, Value: value, Data: data}, nil)
	if err == nil {
		c.t.Fatalf("%s.%s succeeded, want a revert", ct.name, method)
	}
	var de rpc.DataError
	if !errors.As(err, &de) {
		c.t.Fatalf("%s.%s: error without revert data: %v", ct.name, method, err)
	}
	hexData, _ := de.ErrorData().(string)
	raw, err := hexutil.Decode(hexData)
	if err != nil {
		c.t.Fatalf("%s.%s: revert data %q: %v", ct.name, method, hexData, err)
	}
	reason, err := abi.UnpackRevert(raw)
	if err != nil {
		c.t.Fatalf("%s.%s: revert data is not a reason string: %v", ct.name, method, err)
	}
	return reason
}

func (c *devChain) wantRevert(from account, ct *contract, method string, want string, args ...any) {
	c.t.Helper()
	c.wantRevertValue(from, nil, ct, method, want, args...)
}

func (c *devChain) wantRevertValue(from account, value *big.Int, ct *contract, method string, want string, args ...any) {
	c.t.Helper()
	if got := c.revertReason(from, value, ct, method, args...); got != want {
		c.t.Errorf("%s.%s revert reason = %q, want %q", ct.name, method, got, want)
	}
}

func (c *devChain) ethBalance(addr common.Address) *big.Int {
	c.t.Helper()
	b, err := c.client.BalanceAt(c.t.Context(), addr, nil)
	if err != nil {
		c.t.Fatalf("balance of %s: %v", addr, err)
	}
	return b
}

// token deploys an ERC20Permit and mints `amount` whole tokens to each holder.
func (c *devChain) token(name, symbol string, decimals uint8, amount int64, holders ...account) *contract {
	c.t.Helper()
	tk := c.deploy(deployer, "ERC20Permit", name, symbol, decimals)
	for _, h := range holders {
		c.send(deployer, tk, "mint", h.addr, units(amount, int(decimals)))
	}
	return tk
}

// units is amount * 10^decimals.
func units(amount int64, decimals int) *big.Int {
	return new(big.Int).Mul(big.NewInt(amount), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}

func wantBig(t *testing.T, what string, got, want *big.Int) {
	t.Helper()
	if got.Cmp(want) != 0 {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

func field(v any, name string) any {
	return reflect.ValueOf(v).FieldByName(name).Interface()
}

func TestERC20Permit(t *testing.T) {
	c := newDevChain(t)
	tk := c.token("Dev USD", "DUSD", 6, 1000, alice)

	if got := c.call(tk, "decimals")[0].(uint8); got != 6 {
		t.Errorf("decimals = %d, want 6", got)
	}
	wantBig(t, "totalSupply", c.callBig(tk, "totalSupply"), units(1000, 6))
	c.wantRevert(alice, tk, "mint", "ERC20Permit: caller is not the owner", alice.addr, big.NewInt(1))
	c.wantRevert(alice, tk, "transfer", "ERC20: transfer amount exceeds balance", bob.addr, units(1001, 6))

	// The domain separator must be the EIP-712 hash of (name, "1", chainId, contract).
	domain := crypto.Keccak256(
		crypto.Keccak256([]byte("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)")),
		crypto.Keccak256([]byte("Dev USD")),
		crypto.Keccak256([]byte("1")),
		common.LeftPadBytes(c.chainID.Bytes(), 32),
		common.LeftPadBytes(tk.addr.Bytes(), 32),
	)
	gotDomain := c.call(tk, "DOMAIN_SEPARATOR")[0].([32]byte)
	if !bytes.Equal(gotDomain[:], domain) {
		t.Fatalf("DOMAIN_SEPARATOR = %x, want %x", gotDomain, domain)
	}

	value := units(250, 6)
	v, r, s := signPermit(t, alice, bob.addr, value, big.NewInt(0), farFuture, domain)
	c.send(bob, tk, "permit", alice.addr, bob.addr, value, farFuture, v, r, s)
	wantBig(t, "allowance after permit", c.callBig(tk, "allowance", alice.addr, bob.addr), value)
	wantBig(t, "nonces(alice)", c.callBig(tk, "nonces", alice.addr), big.NewInt(1))
	c.wantRevert(bob, tk, "permit", "ERC20Permit: invalid signature", alice.addr, bob.addr, value, farFuture, v, r, s)

	c.send(bob, tk, "transferFrom", alice.addr, bob.addr, value)
	wantBig(t, "balanceOf(bob)", c.callBig(tk, "balanceOf", bob.addr), value)
	wantBig(t, "allowance after transferFrom", c.callBig(tk, "allowance", alice.addr, bob.addr), big.NewInt(0))
	c.wantRevert(bob, tk, "transferFrom", "ERC20: insufficient allowance", alice.addr, bob.addr, big.NewInt(1))

	expired := big.NewInt(1)
	v, r, s = signPermit(t, alice, bob.addr, value, big.NewInt(1), expired, domain)
	c.wantRevert(bob, tk, "permit", "ERC20Permit: expired deadline", alice.addr, bob.addr, value, expired, v, r, s)
}

// signPermit signs an EIP-2612 permit with go-ethereum's crypto, independently of the contract.
func signPermit(t *testing.T, owner account, spender common.Address, value, nonce, deadline *big.Int, domain []byte) (uint8, [32]byte, [32]byte) {
	t.Helper()
	structHash := crypto.Keccak256(
		crypto.Keccak256([]byte("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)")),
		common.LeftPadBytes(owner.addr.Bytes(), 32),
		common.LeftPadBytes(spender.Bytes(), 32),
		common.LeftPadBytes(value.Bytes(), 32),
		common.LeftPadBytes(nonce.Bytes(), 32),
		common.LeftPadBytes(deadline.Bytes(), 32),
	)
	digest := crypto.Keccak256([]byte("\x19\x01"), domain, structHash)
	sig, err := crypto.Sign(digest, owner.key)
	if err != nil {
		t.Fatalf("sign permit: %v", err)
	}
	var r, s [32]byte
	copy(r[:], sig[:32])
	copy(s[:], sig[32:64])
	return sig[64] + 27, r, s
}

func TestWETH9(t *testing.T) {
	c := newDevChain(t)
	weth := c.deploy(deployer, "WETH9")
	if got := c.call(weth, "name")[0].(string); got != "Wrapped Ether" {
		t.Errorf("name = %q", got)
	}
	if got := c.call(weth, "symbol")[0].(string); got != "WETH" {
		t.Errorf("symbol = %q", got)
	}
	if got := c.call(weth, "decimals")[0].(uint8); got != 18 {
		t.Errorf("decimals = %d", got)
	}

	c.sendValue(alice, units(3, 18), weth, "deposit")
	tx, err := weth.bound.Transfer(c.opts(alice, units(2, 18))) // plain ETH transfer deposits too
	if err != nil {
		t.Fatalf("send ETH to WETH9: %v", err)
	}
	c.mined(tx, "send ETH to WETH9")
	wantBig(t, "balanceOf(alice)", c.callBig(weth, "balanceOf", alice.addr), units(5, 18))
	wantBig(t, "totalSupply", c.callBig(weth, "totalSupply"), units(5, 18))

	c.send(alice, weth, "transfer", bob.addr, units(1, 18))
	before := c.ethBalance(bob.addr)
	receipt := c.send(bob, weth, "withdraw", units(1, 18))
	gas := new(big.Int).Mul(new(big.Int).SetUint64(receipt.GasUsed), receipt.EffectiveGasPrice)
	wantBig(t, "bob's ETH after withdraw", c.ethBalance(bob.addr), new(big.Int).Sub(new(big.Int).Add(before, units(1, 18)), gas))
	wantBig(t, "WETH9's ETH balance", c.ethBalance(weth.addr), units(4, 18))
	c.wantRevert(bob, weth, "withdraw", "WETH: insufficient balance", big.NewInt(1))
}

func TestPriceFeed(t *testing.T) {
	c := newDevChain(t)
	feed := c.deploy(deployer, "PriceFeed", uint8(8), "ETH / USD", big.NewInt(2000e8))
	if got := c.call(feed, "decimals")[0].(uint8); got != 8 {
		t.Errorf("decimals = %d, want 8", got)
	}
	if got := c.call(feed, "description")[0].(string); got != "ETH / USD" {
		t.Errorf("description = %q", got)
	}

	round := c.call(feed, "latestRoundData")
	wantBig(t, "roundId", round[0].(*big.Int), big.NewInt(1))
	wantBig(t, "answer", round[1].(*big.Int), big.NewInt(2000e8))
	wantBig(t, "answeredInRound", round[4].(*big.Int), big.NewInt(1))

	c.send(deployer, feed, "updateAnswer", big.NewInt(1900e8))
	round = c.call(feed, "latestRoundData")
	wantBig(t, "roundId after update", round[0].(*big.Int), big.NewInt(2))
	wantBig(t, "answer after update", round[1].(*big.Int), big.NewInt(1900e8))

	stale := new(big.Int).Sub(round[3].(*big.Int), big.NewInt(7200))
	c.send(deployer, feed, "updateRoundData", big.NewInt(1800e8), stale)
	round = c.call(feed, "latestRoundData")
	wantBig(t, "stale updatedAt", round[3].(*big.Int), stale)
	wantBig(t, "stale answer", round[1].(*big.Int), big.NewInt(1800e8))

	old := c.call(feed, "getRoundData", big.NewInt(1))
	wantBig(t, "round 1 answer", old[1].(*big.Int), big.NewInt(2000e8))
	c.wantRevert(alice, feed, "getRoundData", "No data present", big.NewInt(99))
	c.wantRevert(alice, feed, "updateAnswer", "PriceFeed: caller is not the owner", big.NewInt(1))
	c.wantRevert(deployer, feed, "updateRoundData", "PriceFeed: updatedAt is in the future", big.NewInt(1), farFuture)
}

func TestUniswapV2(t *testing.T) {
	c := newDevChain(t)
	weth := c.deploy(deployer, "WETH9")
	factory := c.deploy(deployer, "UniswapV2Factory", deployer.addr)
	router := c.deploy(deployer, "UniswapV2Router02", factory.addr, weth.addr)
	tkA := c.token("Token A", "TKA", 18, 1_000_000, alice)
	tkB := c.token("Token B", "TKB", 18, 1_000_000, alice)
	for _, tk := range []*contract{tkA, tkB} {
		c.send(alice, tk, "approve", router.addr, maxUint)
	}

	c.send(alice, router, "addLiquidity", tkA.addr, tkB.addr, units(1000, 18), units(2000, 18),
		big.NewInt(0), big.NewInt(0), alice.addr, farFuture)
	pair := c.at("UniswapV2Pair", c.callAddr(factory, "getPair", tkA.addr, tkB.addr))
	wantBig(t, "allPairsLength", c.callBig(factory, "allPairsLength"), big.NewInt(1))

	// The pair sits at its CREATE2 address.
	t0, t1 := tkA.addr, tkB.addr
	if bytes.Compare(t0.Bytes(), t1.Bytes()) > 0 {
		t0, t1 = t1, t0
	}
	codeHash := c.call(factory, "pairCodeHash")[0].([32]byte)
	salt := crypto.Keccak256Hash(t0.Bytes(), t1.Bytes())
	if want := crypto.CreateAddress2(factory.addr, salt, codeHash[:]); pair.addr != want {
		t.Errorf("pair address = %s, want CREATE2 address %s", pair.addr, want)
	}
	if got := c.callAddr(pair, "token0"); got != t0 {
		t.Errorf("token0 = %s, want %s", got, t0)
	}

	// sqrt(1000e18 * 2000e18) - MINIMUM_LIQUIDITY
	wantLP := new(big.Int).Sub(new(big.Int).Sqrt(new(big.Int).Mul(units(1000, 18), units(2000, 18))), big.NewInt(1000))
	wantBig(t, "LP balance", c.callBig(pair, "balanceOf", alice.addr), wantLP)

	reserveIn, reserveOut := units(1000, 18), units(2000, 18)
	amountIn := units(10, 18)
	quoted := c.call(router, "getAmountsOut", amountIn, []common.Address{tkA.addr, tkB.addr})[0].([]*big.Int)
	// amountOut = amountIn*997*reserveOut / (reserveIn*1000 + amountIn*997)
	inWithFee := new(big.Int).Mul(amountIn, big.NewInt(997))
	wantOut := new(big.Int).Div(new(big.Int).Mul(inWithFee, reserveOut),
		new(big.Int).Add(new(big.Int).Mul(reserveIn, big.NewInt(1000)), inWithFee))
	wantBig(t, "getAmountsOut[1]", quoted[1], wantOut)

	c.wantRevert(alice, router, "swapExactTokensForTokens", "UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT",
		amountIn, new(big.Int).Add(wantOut, big.NewInt(1)), []common.Address{tkA.addr, tkB.addr}, bob.addr, farFuture)
	c.wantRevert(alice, router, "swapExactTokensForTokens", "UniswapV2Router: EXPIRED",
		amountIn, big.NewInt(0), []common.Address{tkA.addr, tkB.addr}, bob.addr, big.NewInt(1))
	c.send(alice, router, "swapExactTokensForTokens", amountIn, wantOut, []common.Address{tkA.addr, tkB.addr}, bob.addr, farFuture)
	wantBig(t, "bob's TKB after exact-in swap", c.callBig(tkB, "balanceOf", bob.addr), wantOut)

	exactOut := units(5, 18)
	needed := c.call(router, "getAmountsIn", exactOut, []common.Address{tkB.addr, tkA.addr})[0].([]*big.Int)
	balA := c.callBig(tkA, "balanceOf", bob.addr)
	c.send(alice, router, "swapTokensForExactTokens", exactOut, needed[0], []common.Address{tkB.addr, tkA.addr}, bob.addr, farFuture)
	wantBig(t, "bob's TKA after exact-out swap", new(big.Int).Sub(c.callBig(tkA, "balanceOf", bob.addr), balA), exactOut)

	// ETH legs through WETH.
	c.sendValue(alice, units(10, 18), router, "addLiquidityETH", tkA.addr, units(1000, 18), big.NewInt(0), big.NewInt(0), alice.addr, farFuture)
	ethPair := c.at("UniswapV2Pair", c.callAddr(factory, "getPair", tkA.addr, weth.addr))
	wantBig(t, "WETH in the ETH pair", c.callBig(weth, "balanceOf", ethPair.addr), units(10, 18))

	ethIn := units(1, 18)
	quoted = c.call(router, "getAmountsOut", ethIn, []common.Address{weth.addr, tkA.addr})[0].([]*big.Int)
	balA = c.callBig(tkA, "balanceOf", bob.addr)
	c.sendValue(bob, ethIn, router, "swapExactETHForTokens", big.NewInt(0), []common.Address{weth.addr, tkA.addr}, bob.addr, farFuture)
	gotA := new(big.Int).Sub(c.callBig(tkA, "balanceOf", bob.addr), balA)
	wantBig(t, "TKA bought with ETH", gotA, quoted[1])

	c.send(bob, tkA, "approve", router.addr, maxUint)
	quoted = c.call(router, "getAmountsOut", gotA, []common.Address{tkA.addr, weth.addr})[0].([]*big.Int)
	ethBefore := c.ethBalance(bob.addr)
	receipt := c.send(bob, router, "swapExactTokensForETH", gotA, big.NewInt(0), []common.Address{tkA.addr, weth.addr}, bob.addr, farFuture)
	gas := new(big.Int).Mul(new(big.Int).SetUint64(receipt.GasUsed), receipt.EffectiveGasPrice)
	wantBig(t, "ETH received", new(big.Int).Add(new(big.Int).Sub(c.ethBalance(bob.addr), ethBefore), gas), quoted[1])

	// Remove half the liquidity of the token pair.
	lp := new(big.Int).Div(c.callBig(pair, "balanceOf", alice.addr), big.NewInt(2))
	c.send(alice, pair, "approve", router.addr, lp)
	supply := c.callBig(pair, "totalSupply")
	reserves := c.call(pair, "getReserves")
	balB := c.callBig(tkB, "balanceOf", alice.addr)
	c.send(alice, router, "removeLiquidity", tkA.addr, tkB.addr, lp, big.NewInt(0), big.NewInt(0), alice.addr, farFuture)
	reserveB := reserves[0].(*big.Int)
	if t0 != tkB.addr {
		reserveB = reserves[1].(*big.Int)
	}
	wantBig(t, "TKB returned", new(big.Int).Sub(c.callBig(tkB, "balanceOf", alice.addr), balB),
		new(big.Int).Div(new(big.Int).Mul(lp, reserveB), supply))
}

func TestUniswapV3(t *testing.T) {
	c := newDevChain(t)
	weth := c.deploy(deployer, "WETH9")
	factory := c.deploy(deployer, "UniswapV3Factory")
	router := c.deploy(deployer, "SwapRouter", factory.addr, weth.addr)
	helper := c.deploy(deployer, "LiquidityHelper", factory.addr)
	tkA := c.token("Token A", "TKA", 18, 1_000_000, alice, bob)
	tkB := c.token("Token B", "TKB", 18, 1_000_000, alice, bob)
	for _, tk := range []*contract{tkA, tkB} {
		c.send(alice, tk, "approve", helper.addr, maxUint)
		c.send(bob, tk, "approve", router.addr, maxUint)
	}
	fee := big.NewInt(3000)

	c.send(deployer, factory, "createPool", tkA.addr, tkB.addr, fee)
	pool := c.at("UniswapV3Pool", c.callAddr(factory, "getPool", tkA.addr, tkB.addr, fee))
	t0, t1 := c.callAddr(pool, "token0"), c.callAddr(pool, "token1")
	if bytes.Compare(t0.Bytes(), t1.Bytes()) >= 0 {
		t.Fatalf("token0 %s is not below token1 %s", t0, t1)
	}
	tk0, tk1 := tkA, tkB
	if t0 != tkA.addr {
		tk0, tk1 = tkB, tkA
	}
	codeHash := c.call(factory, "poolCodeHash")[0].([32]byte)
	salt, err := abi.Arguments{{Type: mustType(t, "address")}, {Type: mustType(t, "address")}, {Type: mustType(t, "uint24")}}.Pack(t0, t1, fee)
	if err != nil {
		t.Fatal(err)
	}
	if want := crypto.CreateAddress2(factory.addr, crypto.Keccak256Hash(salt), codeHash[:]); pool.addr != want {
		t.Errorf("pool address = %s, want CREATE2 address %s", pool.addr, want)
	}
	wantBig(t, "tickSpacing", c.callBig(pool, "tickSpacing"), big.NewInt(60))

	c.wantRevert(alice, helper, "addLiquidity", "LiquidityHelper: pool not initialized", pool.addr, units(1, 18), units(1, 18))
	// Price 1:1 (sqrtPriceX96 = 2^96) is tick 0.
	c.send(deployer, pool, "initialize", q96)
	slot0 := c.call(pool, "slot0")
	if len(slot0) != 7 {
		t.Fatalf("slot0 returned %d values, want 7", len(slot0))
	}
	wantBig(t, "initial tick", slot0[1].(*big.Int), big.NewInt(0))
	if !slot0[6].(bool) {
		t.Error("slot0.unlocked = false after initialize")
	}
	c.wantRevert(deployer, pool, "initialize", "UniswapV3Pool: already initialized (AI)", q96)

	c.send(alice, helper, "addLiquidity", pool.addr, units(100_000, 18), units(100_000, 18))
	liquidity := c.callBig(pool, "liquidity")
	if liquidity.Sign() <= 0 {
		t.Fatalf("liquidity = %s after addLiquidity", liquidity)
	}
	rng := c.call(pool, "fullRange")
	posKey := crypto.Keccak256Hash(alice.addr.Bytes(), int24Bytes(rng[0].(*big.Int)), int24Bytes(rng[1].(*big.Int)))
	wantBig(t, "alice's position liquidity", c.call(pool, "positions", posKey)[0].(*big.Int), liquidity)
	c.wantRevert(alice, pool, "mint", "UniswapV3Pool: only full-range positions are supported (see fullRange())",
		alice.addr, big.NewInt(-60), big.NewInt(60), big.NewInt(1000), []byte{})

	type exactInputSingle struct {
		TokenIn           common.Address
		TokenOut          common.Address
		Fee               *big.Int
		Recipient         common.Address
		Deadline          *big.Int
		AmountIn          *big.Int
		AmountOutMinimum  *big.Int
		SqrtPriceLimitX96 *big.Int
	}
	swap := func(in, out *contract, amountIn, minOut *big.Int) exactInputSingle {
		return exactInputSingle{in.addr, out.addr, fee, bob.addr, farFuture, amountIn, minOut, big.NewInt(0)}
	}

	c.send(alice, pool, "increaseObservationCardinalityNext", uint16(4))
	if next := c.call(pool, "slot0")[4].(uint16); next != 4 {
		t.Errorf("observationCardinalityNext = %d, want 4", next)
	}

	// zeroForOne exact input: the price must fall by exactly what V3's math says.
	amountIn := units(1000, 18)
	sqrtBefore := slot0[0].(*big.Int)
	wantSqrt, wantOut := v3ExactIn(sqrtBefore, liquidity, amountIn, 3000, true)
	c.wantRevert(bob, router, "exactInputSingle", "Too little received", swap(tk0, tk1, amountIn, new(big.Int).Add(wantOut, big.NewInt(1))))
	bal1 := c.callBig(tk1, "balanceOf", bob.addr)
	swapA := c.send(bob, router, "exactInputSingle", swap(tk0, tk1, amountIn, wantOut))
	wantBig(t, "token1 out", new(big.Int).Sub(c.callBig(tk1, "balanceOf", bob.addr), bal1), wantOut)
	slot0 = c.call(pool, "slot0")
	wantBig(t, "sqrtPriceX96 after zeroForOne", slot0[0].(*big.Int), wantSqrt)
	if slot0[0].(*big.Int).Cmp(sqrtBefore) >= 0 {
		t.Errorf("sqrtPriceX96 did not fall on a token0 -> token1 swap")
	}
	checkTick(t, slot0[0].(*big.Int), slot0[1].(*big.Int))
	tickA := slot0[1].(*big.Int).Int64()
	if tickA >= 0 {
		t.Errorf("tick = %d after selling token0, want < 0", tickA)
	}

	// oneForZero exact input moves the price back up.
	if err := chain.AdjustTime(c.backend, 30*time.Second); err != nil {
		t.Fatalf("adjust time: %v", err)
	}
	sqrtBefore = slot0[0].(*big.Int)
	amountIn = units(3000, 18)
	wantSqrt, wantOut = v3ExactIn(sqrtBefore, liquidity, amountIn, 3000, false)
	bal0 := c.callBig(tk0, "balanceOf", bob.addr)
	swapB := c.send(bob, router, "exactInputSingle", swap(tk1, tk0, amountIn, big.NewInt(0)))
	wantBig(t, "token0 out", new(big.Int).Sub(c.callBig(tk0, "balanceOf", bob.addr), bal0), wantOut)
	slot0 = c.call(pool, "slot0")
	wantBig(t, "sqrtPriceX96 after oneForZero", slot0[0].(*big.Int), wantSqrt)
	checkTick(t, slot0[0].(*big.Int), slot0[1].(*big.Int))
	if slot0[1].(*big.Int).Sign() <= 0 {
		t.Errorf("tick = %s after buying token0 with more token1, want > 0", slot0[1])
	}

	// Exact output delivers exactly the amount asked for.
	type exactOutputSingle struct {
		TokenIn           common.Address
		TokenOut          common.Address
		Fee               *big.Int
		Recipient         common.Address
		Deadline          *big.Int
		AmountOut         *big.Int
		AmountInMaximum   *big.Int
		SqrtPriceLimitX96 *big.Int
	}
	bal1 = c.callBig(tk1, "balanceOf", bob.addr)
	c.send(bob, router, "exactOutputSingle", exactOutputSingle{tk0.addr, tk1.addr, fee, bob.addr, farFuture, units(7, 18), units(8, 18), big.NewInt(0)})
	wantBig(t, "exact output", new(big.Int).Sub(c.callBig(tk1, "balanceOf", bob.addr), bal1), units(7, 18))
	c.wantRevert(bob, router, "exactOutputSingle", "Too much requested",
		exactOutputSingle{tk0.addr, tk1.addr, fee, bob.addr, farFuture, units(7, 18), units(6, 18), big.NewInt(0)})
	c.wantRevert(bob, router, "exactInputSingle", "Transaction too old",
		exactInputSingle{tk0.addr, tk1.addr, fee, bob.addr, big.NewInt(1), units(1, 18), big.NewInt(0), big.NewInt(0)})

	// The oracle: swap A wrote an observation with tick 0 at time ta, swap B one at tb after
	// tickA held for tb-ta seconds. A point between them interpolates linearly.
	ta, tb, now := c.blockTime(swapA.BlockNumber), c.blockTime(swapB.BlockNumber), c.blockTime(nil)
	obs := c.call(pool, "observe", []uint32{uint32(now - (tb - 10)), uint32(now - tb)})
	cums := obs[0].([]*big.Int)
	wantBig(t, "tickCumulative at tb", cums[1], big.NewInt(tickA*int64(tb-ta)))
	wantBig(t, "tickCumulative at tb-10", cums[0], big.NewInt(tickA*int64(tb-10-ta)))
	c.wantRevert(bob, pool, "observe", "UniswapV3Pool: observation too old (OLD)", []uint32{uint32(now - ta + 1000)})

	// The LP takes liquidity out directly from the pool and collects tokens plus fees.
	half := new(big.Int).Div(liquidity, big.NewInt(2))
	c.send(alice, pool, "burn", rng[0], rng[1], half)
	pos := c.call(pool, "positions", posKey)
	owed0 := pos[3].(*big.Int)
	if owed0.Sign() <= 0 {
		t.Fatalf("tokensOwed0 = %s after burn", owed0)
	}
	bal0 = c.callBig(tk0, "balanceOf", alice.addr)
	maxU128 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))
	c.send(alice, pool, "collect", alice.addr, rng[0], rng[1], maxU128, maxU128)
	wantBig(t, "token0 collected", new(big.Int).Sub(c.callBig(tk0, "balanceOf", alice.addr), bal0), owed0)
	wantBig(t, "liquidity after burning half", c.callBig(pool, "liquidity"), new(big.Int).Sub(liquidity, half))

	// ETH in: the router wraps msg.value to pay a WETH9 leg.
	c.send(deployer, factory, "createPool", weth.addr, tkA.addr, big.NewInt(500))
	wethPool := c.at("UniswapV3Pool", c.callAddr(factory, "getPool", weth.addr, tkA.addr, big.NewInt(500)))
	c.send(deployer, wethPool, "initialize", q96)
	c.sendValue(alice, units(100, 18), weth, "deposit")
	c.send(alice, weth, "approve", helper.addr, maxUint)
	c.send(alice, helper, "addLiquidity", wethPool.addr, units(100, 18), units(100, 18))
	balA := c.callBig(tkA, "balanceOf", bob.addr)
	c.sendValue(bob, units(1, 18), router, "exactInputSingle",
		exactInputSingle{weth.addr, tkA.addr, big.NewInt(500), bob.addr, farFuture, units(1, 18), big.NewInt(1), big.NewInt(0)})
	if got := new(big.Int).Sub(c.callBig(tkA, "balanceOf", bob.addr), balA); got.Sign() <= 0 {
		t.Errorf("TKA bought with ETH = %s, want > 0", got)
	}
	wantBig(t, "ETH left in the router", c.ethBalance(router.addr), big.NewInt(0))
}

func (c *devChain) blockTime(number *big.Int) uint64 {
	c.t.Helper()
	h, err := c.client.HeaderByNumber(c.t.Context(), number)
	if err != nil {
		c.t.Fatalf("header %v: %v", number, err)
	}
	return h.Time
}

// v3ExactIn computes an exact-input swap within one constant-liquidity range with Uniswap V3's
// formulas and rounding (SqrtPriceMath, SwapMath), independently of the contracts.
func v3ExactIn(sqrtP, liquidity, amountIn *big.Int, feePips int64, zeroForOne bool) (sqrtNext, amountOut *big.Int) {
	lessFee := new(big.Int).Div(new(big.Int).Mul(amountIn, big.NewInt(1_000_000-feePips)), big.NewInt(1_000_000))
	numerator := new(big.Int).Lsh(liquidity, 96)
	if zeroForOne {
		// sqrtNext = ceil(L*2^96*sqrtP / (L*2^96 + amount*sqrtP)); out = floor(L*(sqrtP-sqrtNext)/2^96)
		den := new(big.Int).Add(numerator, new(big.Int).Mul(lessFee, sqrtP))
		sqrtNext = ceilDiv(new(big.Int).Mul(numerator, sqrtP), den)
		amountOut = new(big.Int).Div(new(big.Int).Mul(liquidity, new(big.Int).Sub(sqrtP, sqrtNext)), q96)
		return sqrtNext, amountOut
	}
	// sqrtNext = sqrtP + floor(amount*2^96/L); out = floor(floor(L*2^96*(next-sqrtP)/next)/sqrtP)
	sqrtNext = new(big.Int).Add(sqrtP, new(big.Int).Div(new(big.Int).Lsh(lessFee, 96), liquidity))
	amountOut = new(big.Int).Div(new(big.Int).Mul(numerator, new(big.Int).Sub(sqrtNext, sqrtP)), sqrtNext)
	amountOut.Div(amountOut, sqrtP)
	return sqrtNext, amountOut
}

func ceilDiv(a, b *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(a, b, new(big.Int))
	if r.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// checkTick verifies sqrt(1.0001^tick) <= sqrtPriceX96/2^96 < sqrt(1.0001^(tick+1)) in 256-bit floats.
func checkTick(t *testing.T, sqrtPriceX96, tick *big.Int) {
	t.Helper()
	price := new(big.Float).SetPrec(256).Quo(new(big.Float).SetPrec(256).SetInt(sqrtPriceX96), new(big.Float).SetPrec(256).SetInt(q96))
	at := func(tick int64) *big.Float {
		base, _, err := big.ParseFloat("1.0001", 10, 256, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		neg := tick < 0
		if neg {
			tick = -tick
		}
		p := new(big.Float).SetPrec(256).SetInt64(1)
		for ; tick > 0; tick >>= 1 {
			if tick&1 == 1 {
				p.Mul(p, base)
			}
			base.Mul(base, base)
		}
		if neg {
			p.Quo(new(big.Float).SetPrec(256).SetInt64(1), p)
		}
		return p.Sqrt(p)
	}
	tk := tick.Int64()
	if at(tk).Cmp(price) > 0 || at(tk+1).Cmp(price) <= 0 {
		t.Errorf("tick %d is inconsistent with sqrtPriceX96 %s", tk, sqrtPriceX96)
	}
}

func int24Bytes(v *big.Int) []byte {
	u := uint32(v.Int64()) & 0xffffff
	return []byte{byte(u >> 16), byte(u >> 8), byte(u)}
}

func mustType(t *testing.T, name string) abi.Type {
	t.Helper()
	ty, err := abi.NewType(name, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return ty
}

func TestERC4626Vault(t *testing.T) {
	c := newDevChain(t)
	asset := c.token("Dev USD", "DUSD", 6, 1_000_000, deployer, alice)
	vault := c.deploy(deployer, "ERC4626Vault", asset.addr, "Vault DUSD", "vDUSD")
	if got := c.callAddr(vault, "asset"); got != asset.addr {
		t.Errorf("asset = %s, want %s", got, asset.addr)
	}
	if got := c.call(vault, "decimals")[0].(uint8); got != 6 {
		t.Errorf("decimals = %d, want 6", got)
	}
	c.send(alice, asset, "approve", vault.addr, maxUint)
	c.send(deployer, asset, "approve", vault.addr, maxUint)

	deposit := units(1000, 6)
	shares := c.callBig(vault, "previewDeposit", deposit)
	wantBig(t, "previewDeposit on an empty vault", shares, deposit)
	c.send(alice, vault, "deposit", deposit, alice.addr)
	wantBig(t, "shares minted", c.callBig(vault, "balanceOf", alice.addr), shares)
	wantBig(t, "totalAssets", c.callBig(vault, "totalAssets"), deposit)

	// Yield of 10 % raises the share price; rounding favours the vault.
	c.wantRevert(alice, vault, "harvest", "ERC4626Vault: caller is not the owner", big.NewInt(1))
	c.send(deployer, vault, "harvest", units(100, 6))
	assets := units(1100, 6)
	supply := c.callBig(vault, "totalSupply")
	one := big.NewInt(1)
	// previewRedeem = floor(shares * (assets+1) / (supply+1)); previewWithdraw rounds up.
	wantRedeem := new(big.Int).Div(new(big.Int).Mul(shares, new(big.Int).Add(assets, one)), new(big.Int).Add(supply, one))
	wantBig(t, "previewRedeem(all)", c.callBig(vault, "previewRedeem", shares), wantRedeem)
	w := units(110, 6)
	wantBig(t, "previewWithdraw(110)", c.callBig(vault, "previewWithdraw", w),
		ceilDiv(new(big.Int).Mul(w, new(big.Int).Add(supply, one)), new(big.Int).Add(assets, one)))
	m := units(50, 6)
	wantBig(t, "previewMint(50)", c.callBig(vault, "previewMint", m),
		ceilDiv(new(big.Int).Mul(m, new(big.Int).Add(assets, one)), new(big.Int).Add(supply, one)))
	wantBig(t, "maxWithdraw", c.callBig(vault, "maxWithdraw", alice.addr), wantRedeem)

	c.wantRevert(alice, vault, "redeem", "ERC4626Vault: redeem more than max", new(big.Int).Add(shares, one), alice.addr, alice.addr)
	c.wantRevert(bob, vault, "redeem", "ERC20: insufficient allowance", shares, bob.addr, alice.addr)
	before := c.callBig(asset, "balanceOf", alice.addr)
	c.send(alice, vault, "redeem", shares, alice.addr, alice.addr)
	got := new(big.Int).Sub(c.callBig(asset, "balanceOf", alice.addr), before)
	wantBig(t, "assets redeemed", got, wantRedeem)
	if got.Cmp(units(1099, 6)) <= 0 {
		t.Errorf("redeemed %s, want about 1100e6 after 10 %% yield", got)
	}
}

func TestAavePool(t *testing.T) {
	c := newDevChain(t)
	weth := c.token("Wrapped Ether", "WETH", 18, 100, alice)
	usdc := c.token("USD Coin", "USDC", 6, 1_000_000, deployer, bob)
	ethFeed := c.deploy(deployer, "PriceFeed", uint8(8), "ETH / USD", big.NewInt(2000e8))
	usdFeed := c.deploy(deployer, "PriceFeed", uint8(8), "USDC / USD", big.NewInt(1e8))
	pool := c.deploy(deployer, "Pool")
	c.wantRevert(alice, pool, "initReserve", "Pool: caller is not the owner", weth.addr, ethFeed.addr, big.NewInt(8000), big.NewInt(8250), big.NewInt(500))
	c.send(deployer, pool, "initReserve", weth.addr, ethFeed.addr, big.NewInt(8000), big.NewInt(8250), big.NewInt(500))
	c.send(deployer, pool, "initReserve", usdc.addr, usdFeed.addr, big.NewInt(7500), big.NewInt(7800), big.NewInt(450))

	reserve := c.call(pool, "getReserveData", weth.addr)[0]
	aWETH := c.at("AToken", field(reserve, "ATokenAddress").(common.Address))
	debtWETH := field(reserve, "VariableDebtTokenAddress").(common.Address)
	if debtWETH == (common.Address{}) {
		t.Error("getReserveData: variableDebtTokenAddress is zero")
	}
	config := field(field(reserve, "Configuration"), "Data").(*big.Int)
	// Aave's bitmap: LTV 8000 | threshold 8250 << 16 | bonus 10500 << 32 | decimals 18 << 48 | active | borrowing
	wantConfig := new(big.Int).SetUint64(8000 | 8250<<16 | 10500<<32 | 18<<48 | 1<<56 | 1<<58)
	wantBig(t, "configuration.data", config, wantConfig)
	if got := c.call(aWETH, "symbol")[0].(string); got != "aWETH" {
		t.Errorf("aToken symbol = %q, want aWETH", got)
	}
	usdcReserve := c.call(pool, "getReserveData", usdc.addr)[0]
	aUSDC := field(usdcReserve, "ATokenAddress").(common.Address)
	debtUSDC := c.at("VariableDebtToken", field(usdcReserve, "VariableDebtTokenAddress").(common.Address))

	for _, a := range []account{deployer, alice, bob} {
		c.send(a, usdc, "approve", pool.addr, maxUint)
		c.send(a, weth, "approve", pool.addr, maxUint)
	}
	c.send(deployer, pool, "supply", usdc.addr, units(500_000, 6), deployer.addr, uint16(0))
	wantBig(t, "USDC held by aUSDC", c.callBig(usdc, "balanceOf", aUSDC), units(500_000, 6))

	c.send(alice, pool, "supply", weth.addr, units(10, 18), alice.addr, uint16(0))
	acct := c.call(pool, "getUserAccountData", alice.addr)
	wantBig(t, "totalCollateralBase", acct[0].(*big.Int), big.NewInt(20_000e8))
	wantBig(t, "totalDebtBase", acct[1].(*big.Int), big.NewInt(0))
	wantBig(t, "availableBorrowsBase", acct[2].(*big.Int), big.NewInt(16_000e8))
	wantBig(t, "currentLiquidationThreshold", acct[3].(*big.Int), big.NewInt(8250))
	wantBig(t, "ltv", acct[4].(*big.Int), big.NewInt(8000))
	wantBig(t, "healthFactor without debt", acct[5].(*big.Int), maxUint)

	c.wantRevert(alice, pool, "borrow", "Pool: only the variable rate (interestRateMode 2) is supported", usdc.addr, units(1, 6), big.NewInt(1), uint16(0), alice.addr)
	c.send(alice, pool, "borrow", usdc.addr, units(15_000, 6), big.NewInt(2), uint16(0), alice.addr)
	wantBig(t, "alice's USDC", c.callBig(usdc, "balanceOf", alice.addr), units(15_000, 6))
	acct = c.call(pool, "getUserAccountData", alice.addr)
	wantBig(t, "totalDebtBase", acct[1].(*big.Int), big.NewInt(15_000e8))
	wantBig(t, "availableBorrowsBase", acct[2].(*big.Int), big.NewInt(1_000e8))
	wantBig(t, "healthFactor", acct[5].(*big.Int), big.NewInt(1.1e18)) // 20000 * 0.825 / 15000

	c.wantRevert(alice, pool, "borrow", "Pool: collateral cannot cover the new borrow", usdc.addr, units(2_000, 6), big.NewInt(2), uint16(0), alice.addr)
	c.wantRevert(alice, pool, "withdraw", "Pool: health factor would fall below 1 (liquidation threshold)", weth.addr, units(2, 18), alice.addr)
	c.wantRevert(alice, aWETH, "transfer", "Pool: health factor would fall below 1 (liquidation threshold)", bob.addr, units(2, 18))
	c.wantRevert(bob, pool, "liquidationCall", "Pool: health factor is not below 1, the position cannot be liquidated", weth.addr, usdc.addr, alice.addr, units(1000, 6), false)

	c.send(alice, pool, "repay", usdc.addr, units(1_000, 6), big.NewInt(2), alice.addr)
	wantBig(t, "debt after repay", c.callBig(debtUSDC, "balanceOf", alice.addr), units(14_000, 6))

	// ETH falls to 1650: HF = 10 * 1650 * 0.825 / 14000 = 0.972, liquidatable with the 50 % close factor.
	c.send(deployer, ethFeed, "updateAnswer", big.NewInt(1650e8))
	acct = c.call(pool, "getUserAccountData", alice.addr)
	if hf := acct[5].(*big.Int); hf.Cmp(big.NewInt(1e18)) >= 0 || hf.Cmp(big.NewInt(0.95e18)) <= 0 {
		t.Fatalf("healthFactor after the drop = %s, want in (0.95e18, 1e18)", hf)
	}
	wethBefore := c.callBig(weth, "balanceOf", bob.addr)
	c.send(bob, pool, "liquidationCall", weth.addr, usdc.addr, alice.addr, maxUint, false)
	// Debt covered: half of 14000 USDC; collateral = 7000 / 1650 ETH plus the 5 % bonus.
	wantBig(t, "alice's debt after liquidation", c.callBig(debtUSDC, "balanceOf", alice.addr), units(7_000, 6))
	base := new(big.Int).Div(new(big.Int).Mul(big.NewInt(1e8), new(big.Int).Mul(units(7_000, 6), units(1, 18))),
		new(big.Int).Mul(big.NewInt(1650e8), units(1, 6)))
	seized := new(big.Int).Div(new(big.Int).Add(new(big.Int).Mul(base, big.NewInt(10500)), big.NewInt(5000)), big.NewInt(10000))
	wantBig(t, "WETH seized by bob", new(big.Int).Sub(c.callBig(weth, "balanceOf", bob.addr), wethBefore), seized)
	wantBig(t, "alice's aWETH", c.callBig(aWETH, "balanceOf", alice.addr), new(big.Int).Sub(units(10, 18), seized))
	acct = c.call(pool, "getUserAccountData", alice.addr)
	if hf := acct[5].(*big.Int); hf.Cmp(big.NewInt(1e18)) < 0 {
		t.Errorf("healthFactor after liquidation = %s, want >= 1e18", hf)
	}

	// Repay everything (type(uint256).max) and withdraw everything.
	c.send(deployer, usdc, "mint", alice.addr, units(1_000, 6))
	c.send(alice, pool, "repay", usdc.addr, maxUint, big.NewInt(2), alice.addr)
	wantBig(t, "debt after full repay", c.callBig(debtUSDC, "balanceOf", alice.addr), big.NewInt(0))
	left := c.callBig(aWETH, "balanceOf", alice.addr)
	before := c.callBig(weth, "balanceOf", alice.addr)
	c.send(alice, pool, "withdraw", weth.addr, maxUint, alice.addr)
	wantBig(t, "WETH withdrawn", new(big.Int).Sub(c.callBig(weth, "balanceOf", alice.addr), before), left)
	wantBig(t, "aWETH after full withdraw", c.callBig(aWETH, "balanceOf", alice.addr), big.NewInt(0))
	if !strings.HasPrefix(c.call(aWETH, "name")[0].(string), "Aave ") {
		t.Errorf("aToken name = %q", c.call(aWETH, "name")[0])
	}
}
