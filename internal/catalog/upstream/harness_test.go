package upstream_test

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/chain/simtest"
)

// blockGasLimit fits the biggest deployments (Uniswap V3's factory and position manager, Aave's
// Pool) with room to spare; each transaction stays under EIP-7825's 2^24 cap.
const blockGasLimit = 200_000_000

// operator deploys the protocols, provides their liquidity and administers Aave; the agent's
// wallet is a separate key that only chain.Wallet uses.
var (
	operatorKey = mustKey("ward upstream operator")
	agentKey    = mustKey("ward upstream agent")
)

func mustKey(seed string) *ecdsa.PrivateKey {
	k, err := crypto.ToECDSA(crypto.Keccak256([]byte(seed)))
	if err != nil {
		panic(err) // a 32-byte hash below the curve order: unreachable
	}
	return k
}

// node is the simulated chain and the test's own accounts on it (the operator; a borrower in the
// liquidation test). Their transactions go through send and sendAs, which wait for the receipt
// and fail on a revert with the decoded reason. Until mine is started, sendTx commits a block
// itself; after, a goroutine owned by node mines every pending transaction (what
// chain.Wallet.Send needs, since it waits for receipts).
//
// Methods follow bufio.Writer's sticky-error idiom: after the first failure every method does
// nothing and take returns (and clears) that failure, so a deployment script reads as a list
// of steps. A node is used by one goroutine at a time, apart from its miner.
type node struct {
	backend  *simulated.Backend
	client   simulated.Client
	rpc      *rpc.Client
	chainID  *big.Int
	operator common.Address

	arts map[string]*artifact      // by path
	libs map[string]common.Address // deployed libraries by package/source:name

	commitMu sync.Mutex
	stop     func() // stops the miner

	err error
}

func newNode(ctx context.Context) (*node, error) {
	eth := new(big.Int).Mul(big.NewInt(1e9), big.NewInt(1e18))
	alloc := types.GenesisAlloc{
		crypto.PubkeyToAddress(operatorKey.PublicKey): {Balance: eth},
		crypto.PubkeyToAddress(agentKey.PublicKey):    {Balance: new(big.Int).Mul(big.NewInt(1_000), big.NewInt(1e18))},
	}
	b := simulated.NewBackend(alloc, simulated.WithBlockGasLimit(blockGasLimit))
	rc, err := simtest.RPC(b.Client())
	if err != nil {
		b.Close()
		return nil, err
	}
	id, err := b.Client().ChainID(ctx)
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("chain id: %w", err)
	}
	return &node{
		backend: b, client: b.Client(), rpc: rc, chainID: id,
		operator: crypto.PubkeyToAddress(operatorKey.PublicKey),
		arts:     map[string]*artifact{}, libs: map[string]common.Address{},
	}, nil
}

// fail records the first error.
func (n *node) fail(err error) {
	if n.err == nil {
		n.err = err
	}
}

// take returns the recorded failure and clears it, so that a test's failed call does not
// poison the next test's.
func (n *node) take() error {
	err := n.err
	n.err = nil
	return err
}

// art loads (once) the artifact at rel.
func (n *node) art(rel string) *artifact {
	if a, ok := n.arts[rel]; ok || n.err != nil {
		return a
	}
	var a *artifact
	var err error
	if name, ok := strings.CutPrefix(rel, "ward:"); ok {
		a, err = wardArtifact(name)
	} else {
		a, err = loadArtifact(rel)
	}
	if err != nil {
		n.fail(err)
		return nil
	}
	n.arts[rel] = a
	return a
}

// deploy deploys the artifact at rel with constructor args, first deploying (once) and linking
// every library it needs. Libraries are found beside it: a hardhat link reference names the
// source file under the package's artifacts directory.
func (n *node) deploy(ctx context.Context, rel string, args ...any) common.Address {
	a := n.art(rel)
	if n.err != nil {
		return common.Address{}
	}
	code, err := a.link(func(ref libRef) (common.Address, error) {
		pkgRoot, _, ok := strings.Cut(a.path, "artifacts/")
		if !ok {
			return common.Address{}, fmt.Errorf("%s links %s but is not a hardhat artifact", a.path, ref.name)
		}
		libPath := path.Join(pkgRoot, "artifacts", ref.source, ref.name+".json")
		if at, ok := n.libs[libPath]; ok {
			return at, nil
		}
		at := n.deploy(ctx, libPath)
		if n.err != nil {
			return common.Address{}, n.err
		}
		n.libs[libPath] = at
		return at, nil
	})
	if err != nil {
		n.fail(err)
		return common.Address{}
	}
	input, err := a.abi.Pack("", args...)
	if err != nil {
		n.fail(fmt.Errorf("deploy %s: constructor: %w", a.name, err))
		return common.Address{}
	}
	r := n.sendTx(ctx, operatorKey, nil, nil, append(code, input...), "deploy "+a.name)
	if r == nil {
		return common.Address{}
	}
	return r.ContractAddress
}

// send calls method of the contract at `to` (ABI from the artifact at rel) from the operator.
func (n *node) send(ctx context.Context, rel string, to common.Address, method string, args ...any) *types.Receipt {
	return n.sendValue(ctx, nil, rel, to, method, args...)
}

func (n *node) sendValue(ctx context.Context, value *big.Int, rel string, to common.Address, method string, args ...any) *types.Receipt {
	return n.sendAs(ctx, operatorKey, value, rel, to, method, args...)
}

// sendAs calls method from the account of key.
func (n *node) sendAs(ctx context.Context, key *ecdsa.PrivateKey, value *big.Int, rel string, to common.Address, method string, args ...any) *types.Receipt {
	a := n.art(rel)
	if n.err != nil {
		return nil
	}
	data, err := a.abi.Pack(method, args...)
	if err != nil {
		n.fail(fmt.Errorf("%s.%s: %w", a.name, method, err))
		return nil
	}
	return n.sendTx(ctx, key, &to, value, data, a.name+"."+method)
}

// call runs a read-only call and unpacks the outputs.
func (n *node) call(ctx context.Context, rel string, to common.Address, method string, args ...any) []any {
	a := n.art(rel)
	if n.err != nil {
		return nil
	}
	data, err := a.abi.Pack(method, args...)
	if err != nil {
		n.fail(fmt.Errorf("%s.%s: %w", a.name, method, err))
		return nil
	}
	out, err := n.client.CallContract(ctx, ethereum.CallMsg{From: n.operator, To: &to, Data: data}, nil)
	if err != nil {
		n.fail(fmt.Errorf("%s.%s at %s: %w", a.name, method, to, revertText(err)))
		return nil
	}
	vals, err := a.abi.Unpack(method, out)
	if err != nil {
		n.fail(fmt.Errorf("%s.%s at %s: %w", a.name, method, to, err))
		return nil
	}
	return vals
}

// callAddr is call for a method returning one address.
func (n *node) callAddr(ctx context.Context, rel string, to common.Address, method string, args ...any) common.Address {
	out := n.call(ctx, rel, to, method, args...)
	if n.err != nil {
		return common.Address{}
	}
	a, ok := out[0].(common.Address)
	if !ok {
		n.fail(fmt.Errorf("%s returned %T, want an address", method, out[0]))
	}
	return a
}

// callBig is call for a method whose first output is an integer.
func (n *node) callBig(ctx context.Context, rel string, to common.Address, method string, args ...any) *big.Int {
	out := n.call(ctx, rel, to, method, args...)
	if n.err != nil {
		return new(big.Int)
	}
	v, ok := out[0].(*big.Int)
	if !ok {
		n.fail(fmt.Errorf("%s returned %T, want an integer", method, out[0]))
		return new(big.Int)
	}
	return v
}

// sendTx signs and sends one transaction from key's account and waits for its receipt. The gas
// estimate doubles as a dry run: a revert is reported with its reason and nothing is sent.
func (n *node) sendTx(ctx context.Context, key *ecdsa.PrivateKey, to *common.Address, value *big.Int, data []byte, what string) *types.Receipt {
	if n.err != nil {
		return nil
	}
	if value == nil {
		value = new(big.Int)
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	msg := ethereum.CallMsg{From: from, To: to, Value: value, Data: data}
	gas, err := n.client.EstimateGas(ctx, msg)
	if err != nil {
		n.fail(fmt.Errorf("%s: %w", what, revertText(err)))
		return nil
	}
	head, err := n.client.HeaderByNumber(ctx, nil)
	if err != nil {
		n.fail(fmt.Errorf("%s: %w", what, err))
		return nil
	}
	// Every send waits for its receipt, so the pending nonce is the next one.
	nonce, err := n.client.PendingNonceAt(ctx, from)
	if err != nil {
		n.fail(fmt.Errorf("%s: %w", what, err))
		return nil
	}
	tip := big.NewInt(1e9)
	tx := types.NewTx(&types.DynamicFeeTx{
		ChainID: n.chainID, Nonce: nonce, To: to, Value: value, Data: data,
		Gas: min(gas*6/5, 1<<24), GasTipCap: tip, GasFeeCap: new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2))),
	})
	signed, err := types.SignTx(tx, types.LatestSignerForChainID(n.chainID), key)
	if err != nil {
		n.fail(fmt.Errorf("%s: sign: %w", what, err))
		return nil
	}
	if err := n.client.SendTransaction(ctx, signed); err != nil {
		n.fail(fmt.Errorf("%s: %w", what, err))
		return nil
	}
	if n.stop == nil {
		n.commit()
	}
	r, err := n.receipt(ctx, signed.Hash())
	if err != nil {
		n.fail(fmt.Errorf("%s: %w", what, err))
		return nil
	}
	if r.Status != types.ReceiptStatusSuccessful {
		n.fail(fmt.Errorf("%s: reverted on chain (gas used %d of %d)", what, r.GasUsed, signed.Gas()))
		return nil
	}
	return r
}

// receipt waits for a transaction's receipt.
func (n *node) receipt(ctx context.Context, h common.Hash) (*types.Receipt, error) {
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		r, err := n.client.TransactionReceipt(ctx, h)
		if err == nil {
			return r, nil
		}
		if !errors.Is(err, ethereum.NotFound) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("receipt of %s: %w", h, ctx.Err())
		case <-tick.C:
		}
	}
}

func (n *node) commit() {
	n.commitMu.Lock()
	n.backend.Commit()
	n.commitMu.Unlock()
}

// mine starts mining a block whenever a transaction is pending, from any
// sender (simtest.Mine); close stops it and waits for it.
func (n *node) mine(ctx context.Context) error {
	stop, err := simtest.Mine(ctx, n.backend, n.rpc, &n.commitMu)
	if err != nil {
		return fmt.Errorf("mine: %w", err)
	}
	n.stop = stop
	return nil
}

func (n *node) close() error {
	if n.stop != nil {
		n.stop()
	}
	return n.backend.Close()
}

// revertText turns an RPC error carrying revert data into an error naming the reason (Aave's
// reasons are numeric codes from its Errors library, e.g. "26").
func revertText(err error) error {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return err
	}
	s, ok := de.ErrorData().(string)
	if !ok {
		return err
	}
	if re := chain.DecodeRevert(common.FromHex(s)); re != nil {
		return fmt.Errorf("%w: %v", err, re)
	}
	return err
}
