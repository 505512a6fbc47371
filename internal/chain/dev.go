package chain

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/catalyst"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/event"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

// DevConfig configures a dev chain. The zero value is usable: random
// keys, manual mining.
type DevConfig struct {
	// Seed derives the dev accounts' keys; the same seed gives the same
	// accounts and, after Deploy, the same contract addresses. Empty means
	// random keys.
	Seed string
	// AutoCommit mines a block as soon as a transaction is pending, so a
	// Wallet.Send on the dev chain gets its receipts. Without it, blocks
	// are mined only by Commit.
	AutoCommit bool
	// WalletETH is the dev wallet's starting balance in wei (default
	// 1,000 ETH).
	WalletETH *big.Int
}

// devBlockGasLimit lets the whole deployment fit in one block.
const devBlockGasLimit = 1_000_000_000

// DevChain is an in-process chain (go-ethereum's simulated backend, chain
// ID 1337) with two funded accounts: the dev wallet, whose key only the
// Wallet uses, and an operator that deploys contracts and provides their
// liquidity. Its methods are safe for concurrent use.
//
// Auto-commit is owned by the DevChain: a goroutine subscribed to the
// transaction pool's "new executable transactions" feed, so it sees
// transactions from any sender and any client of the chain (a hook in this
// package's send path would miss the others), kicks a second goroutine
// that mines blocks while transactions are pending. Close stops both and
// waits for them. Explicit Commit and Deploy share a lock with it, so a
// deployment batch is never split.
type DevChain struct {
	sim      *simBackend
	provider *Provider
	wallet   *Wallet
	walletS  *LocalSigner
	operator *LocalSigner

	commitMu sync.Mutex // one block at a time

	stop context.CancelFunc // ends the auto-commit goroutines
	wg   sync.WaitGroup

	deployMu  sync.Mutex
	contracts *DevContracts
	tokens    []Token

	closeOnce sync.Once
	closeErr  error
}

// StartDev starts a dev chain. ctx bounds the start only; the chain runs
// until Close.
func StartDev(ctx context.Context, cfg DevConfig) (*DevChain, error) {
	walletS, err := devKey(cfg.Seed, 0)
	if err != nil {
		return nil, err
	}
	operator, err := devKey(cfg.Seed, 1)
	if err != nil {
		return nil, err
	}
	walletETH := cfg.WalletETH
	if walletETH == nil {
		walletETH = ether(1_000)
	}
	if walletETH.Sign() < 0 {
		return nil, errors.New("start dev chain: negative wallet balance")
	}
	alloc := types.GenesisAlloc{
		walletS.Address():  {Balance: new(big.Int).Set(walletETH)},
		operator.Address(): {Balance: ether(10_000_000)},
	}
	sim, err := newSimBackend(alloc)
	if err != nil {
		return nil, fmt.Errorf("start dev chain: %w", err)
	}
	p, err := NewProvider(ctx, sim.rpc, ProviderConfig{ChainID: DevChainID, PollMin: 200 * time.Microsecond, PollMax: 5 * time.Millisecond, Attempts: 1})
	if err != nil {
		sim.close()
		return nil, fmt.Errorf("start dev chain: %w", err)
	}
	w, err := NewWallet(walletS, p, WalletConfig{})
	if err != nil {
		sim.close()
		return nil, err
	}
	d := &DevChain{sim: sim, provider: p, wallet: w, walletS: walletS, operator: operator}
	if cfg.AutoCommit {
		d.startAutoCommit(ctx)
	}
	return d, nil
}

// simBackend is go-ethereum's simulated backend (ethclient/simulated)
// assembled from the same parts, because simulated.Backend hides the
// in-process RPC client and the transaction pool this package needs.
type simBackend struct {
	stack  *node.Node
	eth    *eth.Ethereum
	beacon *catalyst.SimulatedBeacon
	rpc    *rpc.Client
}

func newSimBackend(alloc types.GenesisAlloc) (*simBackend, error) {
	nodeConf := node.DefaultConfig
	nodeConf.DataDir = ""
	nodeConf.P2P = p2p.Config{NoDiscovery: true}
	ethConf := ethconfig.Defaults
	ethConf.Genesis = &core.Genesis{Config: params.AllDevChainProtocolChanges, GasLimit: devBlockGasLimit, Alloc: alloc}
	ethConf.Miner.GasCeil = devBlockGasLimit
	ethConf.SyncMode = ethconfig.FullSync
	ethConf.TxPool.NoLocals = true

	stack, err := node.New(&nodeConf)
	if err != nil {
		return nil, err
	}
	backend, err := eth.New(stack, &ethConf)
	if err != nil {
		stack.Close()
		return nil, err
	}
	filterSystem := filters.NewFilterSystem(backend.APIBackend, filters.Config{})
	stack.RegisterAPIs([]rpc.API{{Namespace: "eth", Service: filters.NewFilterAPI(filterSystem)}})
	if err := stack.Start(); err != nil {
		stack.Close()
		return nil, err
	}
	beacon, err := catalyst.NewSimulatedBeacon(0, common.Address{}, backend)
	if err != nil {
		stack.Close()
		return nil, err
	}
	if err := beacon.Fork(backend.BlockChain().GetCanonicalHash(0)); err != nil {
		beacon.Stop()
		stack.Close()
		return nil, err
	}
	return &simBackend{stack: stack, eth: backend, beacon: beacon, rpc: stack.Attach()}, nil
}

func (b *simBackend) close() error {
	b.rpc.Close()
	err := b.beacon.Stop()
	return errors.Join(err, b.stack.Close())
}

// devKey derives dev account i from seed (random when seed is empty).
func devKey(seed string, i uint32) (*LocalSigner, error) {
	if seed == "" {
		k, err := crypto.GenerateKey()
		if err != nil {
			return nil, fmt.Errorf("dev key: %w", err)
		}
		raw := crypto.FromECDSA(k)
		defer clear(raw)
		return newLocalSigner(raw)
	}
	var n [8]byte
	for ctr := uint32(0); ; ctr++ {
		binary.BigEndian.PutUint32(n[:4], i)
		binary.BigEndian.PutUint32(n[4:], ctr)
		raw := crypto.Keccak256([]byte("ward dev chain\x00"), []byte(seed), n[:])
		s, err := newLocalSigner(raw)
		clear(raw)
		if err == nil {
			return s, nil
		}
	}
}

// ether returns n ETH in wei.
func ether(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

// Provider returns the dev chain's provider.
func (d *DevChain) Provider() *Provider { return d.provider }

// Wallet returns the dev wallet (the only Wallet over its key).
func (d *DevChain) Wallet() *Wallet { return d.wallet }

// WalletAddress returns the dev wallet's address.
func (d *DevChain) WalletAddress() common.Address { return d.walletS.Address() }

// OperatorAddress returns the address that deploys the contracts and
// provides their liquidity.
func (d *DevChain) OperatorAddress() common.Address { return d.operator.Address() }

// Commit mines the pending transactions into a block and returns the
// number of the new head.
func (d *DevChain) Commit(ctx context.Context) (uint64, error) {
	d.commitMu.Lock()
	d.commitLocked()
	d.commitMu.Unlock()
	h, err := d.provider.HeaderLatest(ctx)
	if err != nil {
		return 0, fmt.Errorf("commit: %w", err)
	}
	return h.Number.Uint64(), nil
}

func (d *DevChain) commitLocked() {
	d.sim.beacon.Commit()
	d.provider.forgetLatest()
}

// AdjustTime mines an empty block dt later than the current one (for
// tests of staleness and deadlines). It fails while transactions are
// pending.
func (d *DevChain) AdjustTime(dt time.Duration) error {
	d.commitMu.Lock()
	defer d.commitMu.Unlock()
	err := AdjustTime(d.sim.beacon, dt)
	d.provider.forgetLatest()
	return err
}

// AdjustTime seals an empty block dt after the head on a simulated chain
// (go-ethereum's simulated.Backend or its beacon). The pool drops mined
// transactions asynchronously after a block, so the beacon may still see
// the last one as pending for a moment, longer on a loaded machine: the
// call is retried for up to 10 s while it reports a pending transaction.
func AdjustTime(b interface{ AdjustTime(time.Duration) error }, dt time.Duration) error {
	var err error
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if err = b.AdjustTime(dt); err == nil || time.Now().After(deadline) {
			return err
		}
	}
}

// startAutoCommit starts the two auto-commit goroutines: one drains the
// pool's feed at once (the pool must never block on it: sealing a block
// waits for the pool), the other mines.
func (d *DevChain) startAutoCommit(ctx context.Context) {
	added := make(chan core.NewTxsEvent, 16)
	sub := d.sim.eth.TxPool().SubscribeTransactions(added, true)
	kick := make(chan struct{}, 1)
	runCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	d.stop = stop
	d.wg.Add(2)
	go func() {
		defer d.wg.Done()
		d.forwardNewTxs(runCtx, sub, added, kick)
	}()
	go func() {
		defer d.wg.Done()
		d.autoCommit(runCtx, kick)
	}()
}

// forwardNewTxs turns the pool's new-transaction events into a pending
// kick for autoCommit, without ever blocking.
func (d *DevChain) forwardNewTxs(ctx context.Context, sub event.Subscription, added chan core.NewTxsEvent, kick chan struct{}) {
	defer sub.Unsubscribe()
	for {
		select {
		case <-ctx.Done():
			return
		case <-sub.Err():
			return
		case <-added:
			select {
			case kick <- struct{}{}:
			default: // a kick is already pending
			}
		}
	}
}

// autoCommit mines blocks while transactions are pending, each time it is
// kicked. It runs until ctx ends (Close).
func (d *DevChain) autoCommit(ctx context.Context, kick chan struct{}) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-kick:
		}
		d.commitMu.Lock()
		// A transaction the miner never includes (priced below its
		// minimum tip) stays pending: stop after a few empty rounds.
		for range 16 {
			if pending, _ := d.sim.eth.TxPool().Stats(); pending == 0 {
				break
			}
			d.commitLocked()
		}
		d.commitMu.Unlock()
	}
}

// Close stops auto-commit and the chain. It is idempotent.
func (d *DevChain) Close() error {
	d.closeOnce.Do(func() {
		if d.stop != nil {
			d.stop()
			d.wg.Wait()
		}
		d.walletS.Close()
		d.operator.Close()
		d.closeErr = d.sim.close()
	})
	return d.closeErr
}
