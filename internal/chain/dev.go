package chain

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"os"
	"sync"
	"sync/atomic"
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
	// MaxClockLead, if positive, bounds how far auto-commit lets the
	// chain's clock run ahead of wall time (plus the jumps of
	// AdjustTime). Each block is at least a second after its parent, so
	// a chain mining more than a block a second runs ahead; once it is
	// MaxClockLead ahead, auto-commit waits for wall time to catch up and
	// seals everything pending in the next block. The cost is a block a
	// second: one wallet, which waits for each receipt before its next
	// transaction, then commits an approve-and-swap every two seconds.
	// Zero leaves the clock free (the catalogue judges ages by the later
	// of the head's time and wall time, and KeepFeeds keeps the feeds
	// fresh by the chain's clock).
	MaxClockLead time.Duration
	// Dir, if set, is where the chain keeps its database (created fresh:
	// anything there is removed first, as the dev chain starts from its
	// genesis every time) instead of in memory. go-ethereum's in-memory
	// database grows without bound and scans all of itself each time a
	// block is frozen, so a long run slows down and its memory grows;
	// on disk the chain's memory stays within its caches. The directory
	// is removed on Close.
	Dir string
	// KeepFeeds starts a keeper (with AutoCommit) that republishes the
	// latest answer of every dev price feed once it is FeedRefresh old by
	// the chain's clock, so that the feeds never go stale on a long run.
	// A feed set by SetFeedRound is left alone until SetFeedAnswer.
	KeepFeeds bool
	// FeedRefresh is the keeper's refresh age (default
	// DefaultFeedRefresh; well under the catalogue's one-hour maximum feed
	// age).
	FeedRefresh time.Duration

	// fillTime, if positive, bounds how long the miner fills a block
	// (go-ethereum's Miner.Recommit, 2 s by default): tests use it to get
	// the partial blocks a loaded machine gets.
	fillTime time.Duration
}

// DefaultFeedRefresh is DevConfig.FeedRefresh's default.
const DefaultFeedRefresh = 5 * time.Minute

// devBlockGasLimit lets the whole deployment fit in one block.
const devBlockGasLimit = 1_000_000_000

// The dev node's memory bounds: blocks of state history kept, and the
// size in MB of each of its trie and snapshot caches.
const (
	devStateHistory = 128
	devCacheMB      = 16
)

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
	maxLead  time.Duration
	jumped   atomic.Int64 // seconds added by AdjustTime
	refresh  time.Duration
	sealed   chan struct{} // kicks the feed keeper after a block is sealed

	stop context.CancelFunc // ends the auto-commit goroutines
	wg   sync.WaitGroup

	deployMu  sync.Mutex
	contracts *DevContracts
	tokens    []Token

	pinned map[common.Address]bool // feeds the keeper leaves alone; under deployMu

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
	if cfg.MaxClockLead < 0 || cfg.FeedRefresh < 0 {
		return nil, errors.New("start dev chain: negative clock lead or feed refresh")
	}
	if cfg.KeepFeeds && !cfg.AutoCommit {
		return nil, errors.New("start dev chain: the feed keeper needs auto-commit to mine its updates")
	}
	alloc := types.GenesisAlloc{
		walletS.Address():  {Balance: new(big.Int).Set(walletETH)},
		operator.Address(): {Balance: ether(10_000_000)},
	}
	sim, err := newSimBackend(alloc, cfg.Dir, cfg.fillTime)
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
	d := &DevChain{sim: sim, provider: p, wallet: w, walletS: walletS, operator: operator,
		maxLead: cfg.MaxClockLead, refresh: cmp.Or(cfg.FeedRefresh, DefaultFeedRefresh),
		pinned: map[common.Address]bool{}}
	// A receipt is visible as soon as its block is inserted, while the
	// pool moves to the new head afterwards: a wallet funded in that block
	// would be refused "insufficient funds" for a moment. commitLocked
	// syncs the pool before it lets go of commitMu, and WaitReceipt waits
	// for commitMu.
	p.settled = func() {
		d.commitMu.Lock()
		d.commitMu.Unlock() //nolint:staticcheck // an empty critical section: wait for a commit in progress
	}
	if cfg.AutoCommit {
		d.startAutoCommit(ctx, cfg.KeepFeeds)
	}
	return d, nil
}

// simBackend is go-ethereum's simulated backend (ethclient/simulated)
// assembled from the same parts, because simulated.Backend hides the
// in-process RPC client and the transaction pool this package needs.
type simBackend struct {
	dir    string // the database's directory, removed on close ("" in memory)
	stack  *node.Node
	eth    *eth.Ethereum
	beacon *catalyst.SimulatedBeacon
	rpc    *rpc.Client
}

func newSimBackend(alloc types.GenesisAlloc, dir string, fillTime time.Duration) (*simBackend, error) {
	nodeConf := node.DefaultConfig
	nodeConf.DataDir = ""
	if dir != "" {
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		nodeConf.DataDir = dir
	}
	nodeConf.P2P = p2p.Config{NoDiscovery: true}
	ethConf := ethconfig.Defaults
	ethConf.Genesis = &core.Genesis{Config: params.AllDevChainProtocolChanges, GasLimit: devBlockGasLimit, Alloc: alloc}
	ethConf.Miner.GasCeil = devBlockGasLimit
	if fillTime > 0 {
		ethConf.Miner.Recommit = fillTime
	}
	ethConf.SyncMode = ethconfig.FullSync
	ethConf.TxPool.NoLocals = true
	// The node keeps its database in memory, so what it keeps is what
	// the process holds: bound it (see docs/performance.md for the
	// measurements). Reverse state diffs for the last devStateHistory
	// blocks only (reads and replays are of recent blocks), and small
	// caches: the dev state is a few contracts.
	ethConf.StateHistory = devStateHistory
	ethConf.TrieCleanCache, ethConf.TrieDirtyCache, ethConf.SnapshotCache = devCacheMB, devCacheMB, devCacheMB
	// No log search index: nothing of ward's searches logs, and indexing
	// every block's took a quarter of the CPU of a loaded run. eth_getLogs
	// still answers, by scanning the blocks.
	ethConf.LogNoHistory = true
	ethConf.DatabaseCache = devCacheMB

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
	return &simBackend{dir: dir, stack: stack, eth: backend, beacon: beacon, rpc: stack.Attach()}, nil
}

func (b *simBackend) close() error {
	b.rpc.Close()
	err := errors.Join(b.beacon.Stop(), b.stack.Close())
	if b.dir != "" {
		err = errors.Join(err, os.RemoveAll(b.dir))
	}
	return err
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
	_ = d.sim.eth.TxPool().Sync() // fails only once the pool is closed
	d.provider.forgetLatest()
	d.kickKeeper()
}

// kickKeeper tells the feed keeper, if any, that the clock moved.
func (d *DevChain) kickKeeper() {
	if d.sealed != nil {
		select {
		case d.sealed <- struct{}{}:
		default:
		}
	}
}

// AdjustTime mines an empty block dt later than the current one (for
// tests of staleness and deadlines). It fails while transactions are
// pending.
func (d *DevChain) AdjustTime(dt time.Duration) error {
	d.commitMu.Lock()
	defer d.commitMu.Unlock()
	err := AdjustTime(d.sim.beacon, dt)
	d.provider.forgetLatest()
	if err == nil {
		d.jumped.Add(int64(dt / time.Second))
		d.kickKeeper()
	}
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
func (d *DevChain) startAutoCommit(ctx context.Context, keepFeeds bool) {
	added := make(chan core.NewTxsEvent, 16)
	sub := d.sim.eth.TxPool().SubscribeTransactions(added, true)
	kick := make(chan struct{}, 1)
	runCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	d.stop = stop
	if keepFeeds {
		d.sealed = make(chan struct{}, 1)
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			d.keepFeeds(runCtx)
		}()
	}
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
// kicked, never letting the chain's clock run more than maxLead (if
// positive) ahead of wall time (see DevConfig.MaxClockLead). It runs until ctx ends (Close).
func (d *DevChain) autoCommit(ctx context.Context, kick chan struct{}) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-kick:
		}
		// A transaction the miner never includes (priced below its
		// minimum tip) stays pending: stop after a few empty rounds.
		for range 16 {
			if wait := d.clockWait(time.Now()); d.maxLead > 0 && wait > 0 {
				t := time.NewTimer(wait)
				select {
				case <-ctx.Done():
					t.Stop()
					return
				case <-t.C:
				}
			}
			d.commitMu.Lock()
			pending, _ := d.sim.eth.TxPool().Stats()
			if pending > 0 {
				d.commitLocked()
			}
			d.commitMu.Unlock()
			if pending == 0 {
				break
			}
		}
	}
}

// clockWait is how long to wait at now before the next block (stamped at
// least a second after the head) is within maxLead of wall time plus the
// AdjustTime jumps.
func (d *DevChain) clockWait(now time.Time) time.Duration {
	head := d.sim.eth.BlockChain().CurrentBlock()
	next := time.Unix(int64(head.Time)+1-d.jumped.Load(), 0)
	return next.Sub(now.Add(d.maxLead))
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
