// Package deploy puts the published protocols on a development node so
// ward can be tried against it: Uniswap V2 and V3, Permit2, Uniswap V4
// with the Universal Router, Aave V3 and
// the canonical WETH9 exactly as their npm packages publish them
// (chain/artifacts/published), with ward's own test tokens and
// Chainlink-style USD price feeds (chain/artifacts), pools with liquidity,
// and tokens for the deploying key; and ward's same-ABI Lido and Rocket
// Pool (chain/artifacts), which no npm package publishes, staked with. Result.Book is the address book of
// what was deployed, in the operator override form of addrbook.
//
// Deploy refuses a chain the shipped address book knows (a real chain),
// and a key without the ETH the deployment needs, before sending anything.
// It sends one transaction at a time from the key and waits for each
// receipt; at the first failure it stops, and the error says which step
// failed and what was deployed before it (a *PartialError), so a
// deployment is never half-done silently. Running it again deploys a fresh,
// independent set.
package deploy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/chain/artifacts/published"
)

// Backend is what Deploy needs of a node. *ethclient.Client (a node over
// JSON-RPC) and the simulated backend's client implement it.
type Backend interface {
	ethereum.ChainIDReader
	ethereum.ChainStateReader
	ethereum.ContractCaller
	ethereum.GasEstimator
	ethereum.GasPricer
	ethereum.GasPricer1559
	ethereum.TransactionSender
	ethereum.TransactionReader
	HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error)
	PendingNonceAt(ctx context.Context, account common.Address) (uint64, error)
}

var _ Backend = (*ethclient.Client)(nil)

// Config is what Deploy needs besides the node.
type Config struct {
	// Signer sends every transaction; its address receives the tokens
	// and the liquidity positions and administers Aave.
	Signer chain.Signer
	// Progress, if set, is called after each step with a line saying what
	// was done.
	Progress func(line string)
	// ReceiptPoll is how often a receipt is polled for (default 20ms).
	ReceiptPoll time.Duration
	// SessionKey, when set, is granted a session on the ERC-4337 account
	// the deployment makes (owned by Signer), and funded for gas.
	SessionKey common.Address
}

// MinBalance returns the wei the key must hold: what is wrapped into WETH
// for the pools, the Aave market and the key itself, the native ETH of the
// V4 ETH/USDC pool, what it stakes with Lido and Rocket Pool, plus 1 ETH
// for gas.
func MinBalance() *big.Int {
	n := new(big.Int).Add(units(wethWrapped+wethPerV4Pool, 18), units(1, 18))
	n.Add(n, accountETHNeeded())
	return n.Add(n, stakingETH())
}

// ErrRealChain is returned for a chain id the shipped address book lists:
// ward chain deploy is for development nodes only.
var ErrRealChain = errors.New("chain is a real network in ward's address book")

// ErrUnfunded is returned when the key holds less than MinBalance.
var ErrUnfunded = errors.New("key holds too little ETH")

// Deployed is one contract Deploy put on the chain.
type Deployed struct {
	Name    string // what it is, e.g. "Uniswap V3 SwapRouter"
	Address common.Address
}

// PartialError is a deployment that stopped at a failed step. Done lists
// what was deployed before it, in order; those contracts stay on the
// chain but no book describes them.
type PartialError struct {
	Step string
	Done []Deployed
	Err  error
}

func (e *PartialError) Error() string {
	return fmt.Sprintf("deploy stopped at %s after %d contracts: %v", e.Step, len(e.Done), e.Err)
}

func (e *PartialError) Unwrap() error { return e.Err }

// Deploy deploys the protocols and test tokens with cfg.Signer on the
// chain behind b and returns what it deployed. See the package comment for
// its guarantees.
func Deploy(ctx context.Context, b Backend, cfg Config) (*Result, error) {
	if cfg.Signer == nil {
		return nil, errors.New("deploy: no signer")
	}
	id, err := b.ChainID(ctx)
	if err != nil {
		return nil, fmt.Errorf("deploy: chain id: %w", err)
	}
	if c, ok := addrbook.Shipped().Chain(id.Uint64()); ok {
		return nil, fmt.Errorf("deploy: chain id %d (%s): %w; use a development node", id, c.Name, ErrRealChain)
	}
	if err := checkInitCodeHashes(); err != nil {
		return nil, fmt.Errorf("deploy: %w", err)
	}
	from := cfg.Signer.Address()
	bal, err := b.BalanceAt(ctx, from, nil)
	if err != nil {
		return nil, fmt.Errorf("deploy: balance of %s: %w", from, err)
	}
	if need := MinBalance(); bal.Cmp(need) < 0 {
		return nil, fmt.Errorf("deploy: %s holds %s wei, needs at least %s (%s ETH): %w",
			from, bal, need, new(big.Int).Div(need, units(1, 18)), ErrUnfunded)
	}
	nonce, err := b.PendingNonceAt(ctx, from)
	if err != nil {
		return nil, fmt.Errorf("deploy: nonce of %s: %w", from, err)
	}
	poll := cfg.ReceiptPoll
	if poll <= 0 {
		poll = 20 * time.Millisecond
	}
	s := &sender{b: b, signer: cfg.Signer, chainID: id, from: from, nonce: nonce, poll: poll, progress: cfg.Progress,
		libs: map[string]common.Address{}, arts: map[string]*artifact{}, sessionKey: cfg.SessionKey}
	r := &Result{ChainID: id.Uint64(), Deployer: from}
	for _, step := range []func(context.Context, *sender, *Result){deployTokens, deployUniswapV2, deployUniswapV3, deployPermit2, deployUniswapV4, deployAave, deployStaking, deployYieldVaults, deployERC4337, checkCode} {
		step(ctx, s, r)
		if s.err != nil {
			return nil, &PartialError{Step: s.step, Done: s.done, Err: s.err}
		}
	}
	r.Transactions = s.sent
	return r, nil
}

// sender sends the deployment's transactions in order. It follows
// bufio.Writer's sticky-error idiom: after the first failure every method
// does nothing, so a step reads as a list of actions and is checked once.
// It is used by one goroutine.
type sender struct {
	b        Backend
	signer   chain.Signer
	chainID  *big.Int
	from     common.Address
	nonce    uint64
	poll     time.Duration
	progress func(string)

	sessionKey common.Address // zero: the ERC-4337 account grants none

	libs map[string]common.Address // deployed libraries by contract name
	arts map[string]*artifact      // parsed artifacts by name

	step string // the step in progress, for the error
	done []Deployed
	sent int
	err  error
}

func (s *sender) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

func (s *sender) report(format string, args ...any) {
	if s.progress != nil {
		s.progress(fmt.Sprintf(format, args...))
	}
}

// deploy deploys the artifact named art (see artifact) with constructor
// args, after deploying (once) the libraries it links against. what names
// it in the result and in errors.
func (s *sender) deploy(ctx context.Context, what, art string, args ...any) common.Address {
	if s.err != nil {
		return common.Address{}
	}
	a, err := s.art(art)
	if err != nil {
		s.fail(err)
		return common.Address{}
	}
	libs := map[string][20]byte{}
	for _, lib := range a.links {
		at, ok := s.libs[lib]
		if !ok {
			at = s.deploy(ctx, "Aave library "+lib, "published:"+lib)
			if s.err != nil {
				return common.Address{}
			}
			s.libs[lib] = at
		}
		libs[lib] = at
	}
	code, err := a.code(libs)
	if err != nil {
		s.fail(err)
		return common.Address{}
	}
	input, err := a.abi.Pack("", args...)
	if err != nil {
		s.fail(fmt.Errorf("%s constructor: %w", a.name, err))
		return common.Address{}
	}
	s.step = "deploying " + what
	r := s.sendTx(ctx, nil, nil, append(code, input...))
	if r == nil {
		return common.Address{}
	}
	s.done = append(s.done, Deployed{Name: what, Address: r.ContractAddress})
	s.report("deployed %-40s %s", what, r.ContractAddress.Hex())
	return r.ContractAddress
}

// deployRuntime puts a contract its package publishes only as runtime
// code (art, a "published:" name) on the chain: ward's RuntimeDeployer
// returns those bytes from its constructor, and the new account's code is
// then checked to be exactly them.
func (s *sender) deployRuntime(ctx context.Context, what, art string) common.Address {
	if s.err != nil {
		return common.Address{}
	}
	name, _ := strings.CutPrefix(art, "published:")
	p, err := published.Load(name)
	if err != nil {
		s.fail(err)
		return common.Address{}
	}
	code, ok := p.Runtime()
	if !ok {
		s.fail(fmt.Errorf("%s is published as creation code, not runtime code", name))
		return common.Address{}
	}
	at := s.deploy(ctx, what, artRuntimeDeployer, code)
	if s.err != nil {
		return common.Address{}
	}
	got, err := s.b.CodeAt(ctx, at, nil)
	switch {
	case err != nil:
		s.fail(fmt.Errorf("code of %s at %s: %w", what, at, err))
	case !bytes.Equal(got, code):
		s.fail(fmt.Errorf("%s at %s holds %d bytes of code that are not the published %d", what, at, len(got), len(code)))
	}
	return at
}

// send calls method on the contract at to, whose ABI is art's.
func (s *sender) send(ctx context.Context, what string, value *big.Int, art string, to common.Address, method string, args ...any) {
	if s.err != nil {
		return
	}
	parsed, err := s.abi(art)
	if err != nil {
		s.fail(err)
		return
	}
	data, err := parsed.Pack(method, args...)
	if err != nil {
		s.fail(fmt.Errorf("%s.%s: %w", art, method, err))
		return
	}
	s.step = what
	if s.sendTx(ctx, &to, value, data) != nil {
		s.report("%s", what)
	}
}

// call runs a read-only call of method on to and returns its outputs.
func (s *sender) call(ctx context.Context, art string, to common.Address, method string, args ...any) []any {
	if s.err != nil {
		return nil
	}
	parsed, err := s.abi(art)
	if err != nil {
		s.fail(err)
		return nil
	}
	data, err := parsed.Pack(method, args...)
	if err != nil {
		s.fail(fmt.Errorf("%s.%s: %w", art, method, err))
		return nil
	}
	out, err := s.b.CallContract(ctx, ethereum.CallMsg{From: s.from, To: &to, Data: data}, nil)
	if err != nil {
		s.fail(fmt.Errorf("call %s.%s at %s: %w", art, method, to, revertText(err)))
		return nil
	}
	vals, err := parsed.Unpack(method, out)
	if err != nil || len(vals) == 0 {
		s.fail(fmt.Errorf("call %s.%s at %s: unpack %x: %v", art, method, to, out, err))
		return nil
	}
	return vals
}

// callAddr is call for a method whose first output is an address.
func (s *sender) callAddr(ctx context.Context, art string, to common.Address, method string, args ...any) common.Address {
	out := s.call(ctx, art, to, method, args...)
	if s.err != nil {
		return common.Address{}
	}
	a, ok := out[0].(common.Address)
	if !ok {
		s.fail(fmt.Errorf("%s.%s returned %T, want an address", art, method, out[0]))
	}
	return a
}

// art returns the artifact named art, parsing it once per deployment.
func (s *sender) art(art string) (*artifact, error) {
	if a, ok := s.arts[art]; ok {
		return a, nil
	}
	a, err := load(art)
	if err != nil {
		return nil, err
	}
	s.arts[art] = a
	return a, nil
}

func (s *sender) abi(art string) (*abi.ABI, error) {
	a, err := s.art(art)
	if err != nil {
		return nil, err
	}
	return &a.abi, nil
}

// sendTx signs and sends one transaction and waits for its receipt. The
// gas estimate doubles as a dry run: a revert is reported with its reason
// and nothing is sent.
func (s *sender) sendTx(ctx context.Context, to *common.Address, value *big.Int, data []byte) *types.Receipt {
	if s.err != nil {
		return nil
	}
	if value == nil {
		value = new(big.Int)
	}
	gas, err := s.b.EstimateGas(ctx, ethereum.CallMsg{From: s.from, To: to, Value: value, Data: data})
	if err != nil {
		s.fail(fmt.Errorf("estimate gas: %w", revertText(err)))
		return nil
	}
	head, err := s.b.HeaderByNumber(ctx, nil)
	if err != nil {
		s.fail(fmt.Errorf("latest header: %w", err))
		return nil
	}
	// EIP-7825 caps a transaction at 2^24 gas; the biggest deployment here
	// needs about a third of that.
	gas = min(gas*6/5, 1<<24)
	var tx *types.Transaction
	if head.BaseFee == nil {
		price, err := s.b.SuggestGasPrice(ctx)
		if err != nil {
			s.fail(fmt.Errorf("gas price: %w", err))
			return nil
		}
		tx = types.NewTx(&types.LegacyTx{Nonce: s.nonce, To: to, Value: value, Data: data, Gas: gas, GasPrice: price})
	} else {
		tip, err := s.b.SuggestGasTipCap(ctx)
		if err != nil {
			s.fail(fmt.Errorf("gas tip: %w", err))
			return nil
		}
		feeCap := new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2)))
		tx = types.NewTx(&types.DynamicFeeTx{ChainID: s.chainID, Nonce: s.nonce, To: to, Value: value, Data: data,
			Gas: gas, GasTipCap: tip, GasFeeCap: feeCap})
	}
	signed, err := s.signer.SignTx(ctx, s.chainID, tx)
	if err != nil {
		s.fail(err)
		return nil
	}
	if err := s.b.SendTransaction(ctx, signed); err != nil {
		s.fail(fmt.Errorf("send: %w", err))
		return nil
	}
	s.nonce++
	s.sent++
	r, err := s.receipt(ctx, signed.Hash())
	if err != nil {
		s.fail(err)
		return nil
	}
	if r.Status != types.ReceiptStatusSuccessful {
		s.fail(fmt.Errorf("transaction %s reverted on chain (gas used %d of %d)", signed.Hash().Hex(), r.GasUsed, signed.Gas()))
		return nil
	}
	return r
}

// receiptPatience is how long receipt keeps asking through errors other
// than "not found": a node that has just started answers "transaction
// indexing is in progress" for a while (geth), and a transaction already
// sent is better waited for than abandoned.
const receiptPatience = time.Minute

// receipt waits for a transaction's receipt, and then for the node's
// latest block to reach the receipt's: a node can serve a receipt before
// its "latest" state includes the block (the simulated backend under load
// does, and so can RPC endpoints behind a load balancer), and the next
// step reads that state.
func (s *sender) receipt(ctx context.Context, h common.Hash) (*types.Receipt, error) {
	tick := time.NewTicker(s.poll)
	defer tick.Stop()
	var failing time.Time // when the current run of errors began
	var found *types.Receipt
	for {
		var err error
		if found == nil {
			if found, err = s.b.TransactionReceipt(ctx, h); err == nil && found == nil {
				err = ethereum.NotFound
			}
		}
		if err == nil {
			var head *types.Header
			if head, err = s.b.HeaderByNumber(ctx, nil); err == nil && (found.BlockNumber == nil || head.Number.Cmp(found.BlockNumber) >= 0) {
				return found, nil
			}
			if err == nil {
				err = ethereum.NotFound // the head has not caught up yet
			}
		}
		switch {
		case errors.Is(err, ethereum.NotFound):
			failing = time.Time{}
		case ctx.Err() != nil:
			return nil, fmt.Errorf("receipt of %s: %w", h.Hex(), ctx.Err())
		case failing.IsZero():
			failing = time.Now()
		case time.Since(failing) > receiptPatience:
			return nil, fmt.Errorf("receipt of %s: %w", h.Hex(), err)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("receipt of %s: %w", h.Hex(), ctx.Err())
		case <-tick.C:
		}
	}
}

// revertText turns an RPC error carrying revert data into one naming the
// reason (Aave's reasons are numeric codes from its Errors library).
func revertText(err error) error {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return err
	}
	str, ok := de.ErrorData().(string)
	if !ok || !strings.HasPrefix(str, "0x") {
		return err
	}
	if re := chain.DecodeRevert(common.FromHex(str)); re != nil {
		return fmt.Errorf("%w: %v", err, re)
	}
	return err
}
