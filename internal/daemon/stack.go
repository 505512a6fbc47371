// Package daemon wires ward together and owns its lifecycle: the store,
// the policy, the chain (an embedded dev chain when no endpoint is
// configured), the tool catalogue, the safety hooks, the event bus and the
// tool gate. Everything it starts, it stops in Close, in reverse order.
package daemon

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/wardhq/ward/internal/addrbook"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/audit"
	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/embed"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/identity"
	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/llm"
	"github.com/wardhq/ward/internal/oracle"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/quarantine"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/relay"
	"github.com/wardhq/ward/internal/skill"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
	"github.com/wardhq/ward/internal/stream"
	"github.com/wardhq/ward/internal/taint"
	"github.com/wardhq/ward/internal/telemetry"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/trust"
	"github.com/wardhq/ward/internal/upstream"
	"github.com/wardhq/ward/internal/wasm"

	"github.com/tetratelabs/wazero"
	"github.com/wardhq/ward/internal/validate"
	"github.com/wardhq/ward/internal/validate/onchain"
	"github.com/wardhq/ward/internal/validate/reasoning"
	"github.com/wardhq/ward/internal/vault"
)

// Config is the whole of what Open needs.
type Config struct {
	// DB is the SQLite database file; Synchronous "full" (default) or
	// "normal".
	DB          string
	Synchronous string
	// Init lets an existing empty SQLite file become a new database
	// (sqlite.Config.Init); Verify checks the SQLite database before use
	// (sqlite.Config.Verify). OpenDataWith sets Verify.
	Init, Verify bool
	// Policy is the compiled policy (required).
	Policy *policy.Snapshot
	// RPCURL is the chain's JSON-RPC endpoint; empty starts the embedded
	// dev chain with its contracts.
	RPCURL string
	// RPCURLs are more endpoints of the same chain, tried in turn after
	// RPCURL (chain.DialEndpoints).
	RPCURLs []string
	ChainID uint64
	// Book is the address book the hallucination detector checks plans
	// against and the catalogue takes an endpoint's tokens and venues from
	// (nil: the shipped one).
	Book *addrbook.Book
	// MoreChains are the chains ward trades on besides the first (which
	// RPCURL or the dev chain is): a tool call names one with chain_id.
	MoreChains []ChainEndpoint
	// WalletKeyFile holds the agent wallet's key (hex) for RPCURL; the dev
	// chain has its own funded wallet.
	WalletKeyFile string
	// SafeAddress, when set, makes the first chain's writes go from that
	// Safe, of which WalletKeyFile's key is an owner (chain.SafeTx).
	SafeAddress common.Address
	// DevSafe makes the dev chain's writes go from a 1-of-1 Safe of the
	// dev wallet's key, deployed and funded at start.
	DevSafe bool
	// AccountAddress and EntryPoint, when set, make the first chain's
	// writes go from that ERC-4337 account, of which WalletKeyFile's key
	// is a session key (chain.Wallet, erc4337.go).
	AccountAddress common.Address
	EntryPoint     common.Address
	// DevAccount makes the dev chain's writes go from an ERC-4337 account
	// (the operator its owner, the dev wallet's key its session key),
	// deployed with an EntryPoint and funded at start.
	DevAccount bool
	// DevSeed makes the dev chain's accounts and addresses deterministic.
	DevSeed string
	// Price configures how the first chain's tokens are priced from pool
	// TWAPs (zero: the strict defaults).
	Price catalog.PriceConfig
	// Tokens and Venues configure the catalogue for RPCURL (the dev chain
	// fills them itself).
	Tokens []catalog.Token
	Venues catalog.Venues
	// Hooks configures the safety hooks (the simulator and chain reader
	// are wired here). On the dev chain a zero allowlist allows the dev
	// tokens and contracts.
	Hooks hook.Config
	// DevAllowlist, if set, adjusts the dev chain's default allowlist.
	DevAllowlist func(dc *chain.DevContracts, a *hook.AllowlistConfig)
	// Gate tunes permits: lifetime, announce delay, tick length.
	PermitTTL     time.Duration
	AnnounceDelay time.Duration
	TickPeriod    time.Duration
	QuarantineTTL time.Duration
	// Owner is the address whose signature approves privileged calls.
	Owner tool.Address
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Extra returns more tools to register next to the native catalogue
	// (the tools of upstream MCP servers ward fronts), and a function that
	// releases what it opened (called by Close; may be nil).
	Extra func(ctx context.Context, st *Stack) ([]registry.Tool, func() error, error)
	// WASM are the modules to serve as read tools ([[wasm_tool]]): each
	// is loaded (pin, ABI, compiled once) before the registry freezes,
	// and one that fails stops the start.
	WASM []wasm.Config
	// Trust configures reviewers, the judge and the address book.
	Trust config.Trust
	// Grimoire configures knowledge ingestion.
	Grimoire config.Grimoire
	// VaultKey is the file of the master key that seals withheld output
	// and sessions' ledgers (created 0600 if absent); empty disables
	// isolated orchestration and stores ledgers unsealed.
	VaultKey string
	// Tools is the tool selection of sessions the gate loads itself.
	Tools config.Tools
	// SessionLimits bound each principal's sessions.
	SessionLimits store.SessionLimits
	// Log receives what went wrong where no caller can be told.
	Log *slog.Logger
	// ReadsBestEffort lets reads go on when their decision cannot be
	// recorded ([audit] reads_best_effort).
	ReadsBestEffort bool
	// Telemetry configures the export of traces ([telemetry]); the zero
	// value exports nothing.
	Telemetry telemetry.Config
	// Streaming bounds the stream_ tools' subscriptions ([streaming];
	// zero: stream's defaults).
	Streaming config.Streaming
	// Relay connects the pipeline to the clade's other members
	// ([relay]); RelayDir keeps its durable state (required with it).
	Relay    config.Relay
	RelayDir string
	// DevDir, if set, is where the embedded dev chain keeps its database
	// (fresh at every start, removed at close) instead of in memory, so
	// that a long run neither slows down nor grows without bound.
	DevDir string
}

// Stack is a running ward.
type Stack struct {
	Store    Backend
	Engine   *policy.Engine
	Decider  *gate.Gate
	Dev      *chain.DevChain // nil with an RPC endpoint
	Provider *chain.Provider
	Wallet   *chain.Wallet
	Sim      *chain.Simulator
	Env      *catalog.Env
	// SafeWallets are the wallets, of any chain, that send from a Safe.
	SafeWallets []*chain.Wallet
	// Providers are the clients of every chain the stack trades on, the
	// first chain's (Provider) among them.
	Providers *chain.Providers
	// Book is the address book in force (the shipped one with the
	// operator's entries).
	Book     *addrbook.Book
	Registry *registry.Registry
	Hooks    *hook.Set
	Bus      *event.Bus
	Tools    *gate.Tools
	// Facade is the gate as the surfaces call it.
	Facade *facade.Tools
	// Ingest is the Grimoire's ingestion pipeline.
	Ingest *ingest.Pipeline
	// Upstream is the connected upstream MCP servers, when Config.Extra
	// set it (nil without [[upstream]]).
	Upstream *upstream.Set
	// Telemetry makes and exports the calls' spans; Close flushes it.
	Telemetry *telemetry.Provider
	// Relay is the connection to the clade's other members (nil without
	// [relay]).
	Relay *relay.Relay
	// Streams runs the stream_ tools' subscriptions; the surfaces end a
	// session's when its stream ends.
	Streams *stream.Hub

	vault *vault.Vault // nil without Config.VaultKey

	// owner is the gate as the privileged tools reach it (owner.go).
	owner *ownerOps

	closers []func() error

	changeMu sync.Mutex
	onChange []func(store.Change)
}

// Open starts everything cfg describes. On error, whatever started is
// stopped again.
func Open(ctx context.Context, cfg Config) (_ *Stack, err error) {
	if cfg.Policy == nil {
		return nil, errors.New("daemon: no policy")
	}
	s := &Stack{}
	defer func() {
		if err != nil {
			err = errors.Join(err, s.Close())
		}
	}()
	if cfg.DB == "" {
		cfg.DB = "ward.db"
	}
	if err := s.openTelemetry(ctx, cfg); err != nil {
		return nil, err
	}
	if err := s.openDecider(ctx, cfg); err != nil {
		return nil, err
	}
	if s.Book = cfg.Book; s.Book == nil {
		s.Book = addrbook.Shipped()
	}
	envs, err := s.openChains(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	s.reconcileSends(ctx, log, envs)
	if err := s.openStreams(cfg, envs); err != nil {
		return nil, err
	}
	if err := s.registerTools(ctx, cfg, envs); err != nil {
		return nil, err
	}
	if err := s.openHooks(&cfg); err != nil {
		return nil, err
	}
	s.closers = append(s.closers, func() error { s.Bus.Close(); return nil }, func() error { s.Streams.Close(); return nil })
	if err := s.openGate(ctx, cfg); err != nil {
		return nil, errors.Join(err, s.Close())
	}
	s.reconcileCommits(ctx, log)
	s.logOverrides(ctx, log)
	return s, nil
}

// openTelemetry starts the export of spans. It is first in, so last out:
// Close flushes the spans of everything else's shutdown too.
func (s *Stack) openTelemetry(ctx context.Context, cfg Config) error {
	var err error
	if s.Telemetry, err = telemetry.New(ctx, cfg.Telemetry); err != nil {
		return err
	}
	s.closers = append(s.closers, func() error {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), TelemetryFlush)
		defer cancel()
		// Spans a collector did not take are lost, and logged: never a
		// reason for ward to fail its shutdown.
		if err := s.Telemetry.Shutdown(ctx); err != nil && cfg.Log != nil {
			cfg.Log.Warn("shutdown: spans not exported", "err", err)
		}
		return nil
	})
	return nil
}

// openChains opens the first chain (on the dev chain, whose tokens
// cfg's hooks then allow unless cfg allows some), its simulator and the
// other chains cfg names, and returns their catalogue environments, the
// first chain's first.
func (s *Stack) openChains(ctx context.Context, cfg *Config) ([]*catalog.Env, error) {
	env, dc, err := s.openChain(ctx, *cfg)
	if err != nil {
		return nil, err
	}
	if dc != nil && isZeroAllowlist(cfg.Hooks.Allowlist) {
		cfg.Hooks.Allowlist = devAllowlist(dc, env.Tokens)
		if cfg.DevAllowlist != nil {
			cfg.DevAllowlist(dc, &cfg.Hooks.Allowlist)
		}
	}
	providers, err := chain.NewProviders(s.Provider)
	if err != nil {
		return nil, err
	}
	if s.Sim, err = chain.NewSimulator(providers, chain.SimConfig{}); err != nil {
		return nil, err
	}
	env.Chain, env.Wallet, env.Sim = s.Provider, s.Wallet, s.Sim
	s.Env = env
	more, err := s.openMoreChains(ctx, *cfg, providers)
	if err != nil {
		return nil, err
	}
	s.Providers = providers
	envs := append([]*catalog.Env{env}, more...)
	for _, e := range envs {
		if e.Wallet != nil && e.Wallet.Safe() != (common.Address{}) {
			s.SafeWallets = append(s.SafeWallets, e.Wallet)
		}
	}
	return envs, nil
}

// openStreams starts the event bus and the stream_ tools' subscriptions,
// which publish on it, for every chain's environment. Open closes them
// streams first (closers run last first), which ends every poller.
func (s *Stack) openStreams(cfg Config, envs []*catalog.Env) error {
	var err error
	if s.Bus, err = event.New(event.Config{}); err != nil {
		return err
	}
	if s.Streams, err = stream.New(stream.Config{MaxPerSession: cfg.Streaming.MaxPerSession, MinInterval: cfg.Streaming.MinInterval, Publish: s.Bus.Publish}); err != nil {
		return err
	}
	for _, e := range envs {
		e.Streams = s.Streams
	}
	return nil
}

// openHooks builds the hooks of cfg on the stack's simulator, store
// (spend and rate windows that survive a restart), chains and address
// book.
func (s *Stack) openHooks(cfg *Config) error {
	cfg.Hooks.Simulation.Simulator = simAdapter{s.Sim}
	cfg.Hooks.Windows = s.Store
	cfg.Hooks.Hallucination.Reader = &readerAdapter{ps: s.Providers}
	cfg.Hooks.Hallucination.Book = s.Book
	var err error
	s.Hooks, err = hook.NewSet(cfg.Hooks)
	return err
}

// logOverrides says at start which of the owner's stored settings win
// over ward.toml: the override of the spending limits, the allowlist's
// entries.
func (s *Stack) logOverrides(ctx context.Context, log *slog.Logger) {
	l, ok, err := s.Tools.SpendingOverride(ctx)
	switch {
	case err != nil:
		log.Warn("the owner's spending override could not be read: every priced write is refused until it can", "err", err)
	case ok:
		log.Info("the owner's spending override is in force over ward.toml's [hooks.spending] until cleared (POST /v1/gate/spending {\"clear\":true})",
			"per_tick_usd", hook.FormatLimitUSD(l.PerTickCents), "per_session_usd", hook.FormatLimitUSD(l.PerSessionCents),
			"daily_usd", hook.FormatLimitUSD(l.DailyCents))
	}
	es, err := s.Tools.AllowlistEntries(ctx)
	switch {
	case err != nil:
		log.Warn("the owner's allowlist changes could not be read: every write is refused until they can", "err", err)
	case len(es) > 0:
		allowed := 0
		for _, e := range es {
			if e.Allowed {
				allowed++
			}
		}
		log.Info("the owner's allowlist changes are in force over ward.toml's [hooks.allowlist] until reset (GET /v1/gate/allowlist; POST {\"reset\":true})",
			"allowed", allowed, "refused", len(es)-allowed)
	}
}

// openDecider opens the store at cfg.DB, the policy engine over
// cfg.Policy, and the decider that records every decision in the store's
// audit log, its spend and rate windows restored from the store.
func (s *Stack) openDecider(ctx context.Context, cfg Config) error {
	var err error
	s.Store, err = openStore(ctx, cfg.DB, sqlite.Config{Synchronous: cfg.Synchronous, Init: cfg.Init, Verify: cfg.Verify})
	if err != nil {
		return err
	}
	s.closers = append(s.closers, s.Store.Close)
	if s.Engine, err = policy.NewEngine(cfg.Policy); err != nil {
		return err
	}
	rec, err := audit.NewRecorder(audit.Config{Log: s.Store})
	if err != nil {
		return err
	}
	tracker := policy.NewTracker()
	if err := RestoreTracker(ctx, s.Store, tracker, cfg.Policy, time.Now()); err != nil {
		return err
	}
	if s.Decider, err = gate.New(gate.Config{Engine: s.Engine, Tracker: tracker, Audit: rec, Ledger: s.Store, ReadsBestEffort: cfg.ReadsBestEffort}); err != nil {
		return err
	}
	return nil
}

// ChainEndpoint is one more chain of a stack: its endpoints, the chain id
// they must serve, and the agent wallet's key file on it (none: no write
// tools on that chain).
type ChainEndpoint struct {
	Name          string
	RPCURLs       []string
	ChainID       uint64
	WalletKeyFile string
	SafeAddress   common.Address // zero: the key sends itself
	Price         catalog.PriceConfig
	// AccountAddress and EntryPoint: an ERC-4337 account sends (zero: not).
	AccountAddress common.Address
	EntryPoint     common.Address
}

// openMoreChains connects the stack's other chains, each with its
// provider (added to providers), wallet and catalogue environment from
// the address book. A chain that cannot be reached at start is left out
// with a warning (its calls are refused CHAIN_NOT_SUPPORTED) so the
// others keep working.
func (s *Stack) openMoreChains(ctx context.Context, cfg Config, providers *chain.Providers) ([]*catalog.Env, error) {
	var envs []*catalog.Env
	for _, c := range cfg.MoreChains {
		p, err := s.dial(ctx, c.RPCURLs, c.ChainID)
		if err != nil {
			log := cfg.Log
			if log == nil {
				log = slog.Default()
			}
			log.Warn("a chain is left out: it could not be reached at start", "chain", c.Name, "chain_id", c.ChainID, "err", err)
			continue
		}
		env, err := s.endpointEnv(ctx, p, c.WalletKeyFile, walletFrom{safe: c.SafeAddress, account: c.AccountAddress, entryPoint: c.EntryPoint}, c.Price, cfg.Now, cfg.Log)
		if err != nil {
			return nil, fmt.Errorf("chain %s: %w", c.Name, err)
		}
		env.Sim = s.Sim
		if err := providers.Add(p); err != nil {
			return nil, fmt.Errorf("chain %s: %w", c.Name, err)
		}
		envs = append(envs, env)
	}
	return envs, nil
}

// dial connects to the endpoints of one chain; Close closes them.
func (s *Stack) dial(ctx context.Context, urls []string, id uint64) (*chain.Provider, error) {
	p, err := chain.DialEndpoints(ctx, urls, chain.ProviderConfig{ChainID: id})
	if err != nil {
		return nil, err
	}
	s.closers = append(s.closers, func() error { p.Close(); return nil })
	return p, nil
}

// endpointEnv is the catalogue's environment on a chain ward reaches
// through p: the agent wallet of keyFile (none without one), sending from
// safe when it is set, and the tokens and venues the address book lists
// for the chain.
// walletFrom is what an endpoint's key sends from: itself (zero), a Safe
// it owns, or an ERC-4337 account of which it is a session key.
type walletFrom struct {
	safe                common.Address
	account, entryPoint common.Address
}

func (s *Stack) endpointEnv(ctx context.Context, p *chain.Provider, keyFile string, from walletFrom, price catalog.PriceConfig, now func() time.Time, log *slog.Logger) (*catalog.Env, error) {
	safe := from.safe
	if err := price.Validate(); err != nil {
		return nil, err
	}
	env := &catalog.Env{Chain: p, Now: now, Price: price, Prices: &catalog.PriceCache{}}
	if keyFile != "" {
		signer, err := chain.LoadLocalSigner(keyFile)
		if err != nil {
			return nil, err
		}
		s.closers = append(s.closers, signer.Close)
		// The chain outlives ward: every transaction is journaled before
		// it is sent, and reconciled after a restart (reconcileSends).
		if log == nil {
			log = slog.Default()
		}
		wcfg := chain.WalletConfig{
			Journal: sendJournal{s: s.Store, now: time.Now},
			Settled: func(ctx context.Context, st chain.Settled) { s.recordSettled(ctx, log, st) },
		}
		if safe != (common.Address{}) {
			// The Safe transactions that await other owners' signatures
			// are kept in the store, like the send journal.
			wcfg.Safe = safe
			if q, ok := s.Store.(store.SafeTxs); ok {
				wcfg.SafeQueue = safeQueue{s: q, now: time.Now}
			}
			// Where the book names the chain's MultiSendCallOnly, each
			// plan is one Safe transaction; the Safe delegates to it, so
			// its code is checked first.
			if bc, ok := s.Book.Chain(p.ChainID()); ok {
				if multi, ok := bc.Contract(addrbook.SafeMultiSendCallOnly); ok {
					if err := chain.CheckMultiSend(ctx, p, common.Address(multi)); err != nil {
						return nil, fmt.Errorf("wallet: the book's %s: %w", addrbook.SafeMultiSendCallOnly, err)
					}
					wcfg.SafeMultiSend = common.Address(multi)
				}
			}
		}
		if from.account != (common.Address{}) {
			// Refuse at start an account that is not there, answers to
			// another EntryPoint, or does not know the key.
			if err := chain.AccountSetup(ctx, p, from.account, from.entryPoint, signer.Address()); err != nil {
				return nil, fmt.Errorf("wallet: %w", err)
			}
			wcfg.Account, wcfg.EntryPoint = from.account, from.entryPoint
			log.Info("the wallet sends from an ERC-4337 account", "account", from.account.Hex(),
				"entry_point", from.entryPoint.Hex(), "session_key", signer.Address().Hex())
		}
		if env.Wallet, err = chain.NewWallet(signer, p, wcfg); err != nil {
			return nil, err
		}
		if safe != (common.Address{}) {
			if err := checkSafe(ctx, env.Wallet, log); err != nil {
				return nil, err
			}
		}
	}
	if bc, ok := s.Book.Chain(p.ChainID()); ok {
		env.Tokens, env.Venues = catalog.FromBook(bc)
	}
	return env, nil
}

// openChain connects the stack to its chain: the endpoint cfg.RPCURL,
// with the wallet of cfg.WalletKeyFile if set, or else the embedded dev
// chain with its contracts deployed. It returns the catalogue's
// environment for that chain (the dev chain's tokens and venues, or cfg's,
// or else the address book's for the endpoint's chain)
// and the dev chain's contracts (nil with an endpoint).
func (s *Stack) openChain(ctx context.Context, cfg Config) (*catalog.Env, *chain.DevContracts, error) {
	var err error
	if cfg.RPCURL != "" {
		if s.Provider, err = s.dial(ctx, append([]string{cfg.RPCURL}, cfg.RPCURLs...), cfg.ChainID); err != nil {
			return nil, nil, err
		}
		env, err := s.endpointEnv(ctx, s.Provider, cfg.WalletKeyFile, walletFrom{safe: cfg.SafeAddress, account: cfg.AccountAddress, entryPoint: cfg.EntryPoint}, cfg.Price, cfg.Now, cfg.Log)
		if err != nil {
			return nil, nil, err
		}
		s.Wallet = env.Wallet
		if cfg.Tokens != nil || !reflect.ValueOf(cfg.Venues).IsZero() {
			env.Tokens, env.Venues = cfg.Tokens, cfg.Venues
		}
		return env, nil, nil
	}
	if err := cfg.Price.Validate(); err != nil {
		return nil, nil, err
	}
	env := &catalog.Env{Now: cfg.Now, Price: cfg.Price, Prices: &catalog.PriceCache{}}
	if s.Dev, err = chain.StartDev(ctx, chain.DevConfig{Seed: cfg.DevSeed, AutoCommit: true, KeepFeeds: true, Dir: cfg.DevDir}); err != nil {
		return nil, nil, err
	}
	s.closers = append(s.closers, s.Dev.Close)
	dc, err := s.Dev.Deploy(ctx)
	if err != nil {
		return nil, nil, err
	}
	s.Provider, s.Wallet = s.Dev.Provider(), s.Dev.Wallet()
	if cfg.DevSafe {
		if s.Wallet, _, err = s.Dev.SafeWallet(ctx); err != nil {
			return nil, nil, err
		}
	}
	if cfg.DevAccount {
		if s.Wallet, _, err = s.Dev.AccountWallet(ctx); err != nil {
			return nil, nil, err
		}
	}
	env.Dev = s.Dev
	env.Tokens = devTokens(s.Dev)
	env.Venues = catalog.Venues{
		WETH: dc.WETH, UniswapV2Factory: dc.UniswapV2Factory, UniswapV2Router: dc.UniswapV2Router,
		UniswapV3Factory: dc.UniswapV3Factory, UniswapV3Router: dc.UniswapV3SwapRouter,
		UniswapV3LiquidityHelper: dc.UniswapV3LiquidityHelper,
		AavePool:                 dc.AavePool, Vaults: []common.Address{dc.VaultUSDC}, ETHFeed: dc.FeedETHUSD,
		MorphoBlue: dc.MorphoBlue, Comet: dc.CometUSDC,
		LidoWithdrawalQueue: dc.LidoWithdrawalQueue, RocketStorage: dc.RocketStorage,
		IdentityRegistry: dc.IdentityRegistry, ReputationRegistry: dc.ReputationRegistry,
		EigenStrategyManager: dc.EigenStrategyManager, EigenDelegationManager: dc.EigenDelegationManager,
		EigenStrategies:   []common.Address{dc.EigenStrategyWETH},
		GmxExchangeRouter: dc.GmxV2, GmxRouter: dc.GmxV2, GmxOrderVault: dc.GmxV2, GmxDataStore: dc.GmxV2, GmxReader: dc.GmxV2,
		GmxMarkets:   []common.Address{dc.GmxMarketETHUSD},
		PendleRouter: dc.PendleRouter, PendleMarkets: []common.Address{dc.PendleMarketDAI},
		Permit2: dc.Permit2, UniswapV4PoolManager: dc.UniswapV4PoolManager, UniswapV4StateView: dc.UniswapV4StateView,
		UniswapV4Quoter: dc.UniswapV4Quoter, UniversalRouter: dc.UniversalRouter,
		SavingsDai: dc.SavingsDai, StakedUSDe: dc.EthenaSUSDe, YearnVaults: []common.Address{dc.YearnVaultUSDC},
	}
	return env, dc, nil
}

// registerTools fills the registry and freezes it: the native catalogue
// on env, the Grimoire (knowledge ingestion over the same store, its tools
// in the registry, its search behind query_grimoire), and the tools of
// cfg.Extra.
func (s *Stack) registerTools(ctx context.Context, cfg Config, envs []*catalog.Env) error {
	var err error
	s.Registry = registry.New()
	if err := catalog.RegisterOn(s.Registry, envs...); err != nil {
		return err
	}
	privileged, err := s.ownerTools(cfg)
	if err != nil {
		return err
	}
	for _, t := range privileged {
		if err := s.Registry.Add(t); err != nil {
			return err
		}
	}
	if s.Ingest, err = openGrimoire(ctx, s, cfg); err != nil {
		return err
	}
	for _, t := range ingest.Tools(s.Ingest) {
		if err := s.Registry.Add(t); err != nil {
			return err
		}
	}
	if err := s.registerWASM(ctx, cfg); err != nil {
		return err
	}
	if cfg.Extra != nil {
		extra, release, err := cfg.Extra(ctx, s)
		if release != nil {
			s.closers = append(s.closers, release)
		}
		if err != nil {
			return err
		}
		for _, t := range extra {
			if err := s.Registry.Add(t); err != nil {
				return err
			}
		}
	}
	s.Registry.Freeze()
	if s.Upstream != nil {
		// An upstream definition the owner approves is served at once.
		s.Upstream.ServeApproved(s.Registry.Replace)
	}
	return nil
}

// registerWASM loads cfg.WASM's modules and registers their tools; an
// unpinned module is served, with a warning.
func (s *Stack) registerWASM(ctx context.Context, cfg Config) error {
	if len(cfg.WASM) == 0 {
		return nil
	}
	cache := wazero.NewCompilationCache()
	s.closers = append(s.closers, func() error { return cache.Close(context.WithoutCancel(ctx)) })
	for _, c := range cfg.WASM {
		c.Bus, c.Cache = s.Bus, cache
		t, err := wasm.Load(ctx, c)
		if err != nil {
			return err
		}
		s.closers = append(s.closers, func() error { return t.Close(context.WithoutCancel(ctx)) })
		if log := cfg.Log; !t.Pinned() {
			if log == nil {
				log = slog.Default()
			}
			log.Warn("wasm tool: module not pinned; set sha256 to refuse a changed module", "tool", c.Name, "module", c.Module, "sha256", t.SHA256())
		}
		if err := s.Registry.Add(t.Registry()); err != nil {
			return err
		}
	}
	return nil
}

// openGate builds the gate's tools over the stack: the owner's approver,
// the trust checkers, the vault of cfg.VaultKey if set, and the stores.
func (s *Stack) openGate(ctx context.Context, cfg Config) error {
	var approver gate.Approver
	if !cfg.Owner.IsZero() {
		approver = gate.OwnerApprover{Owner: cfg.Owner}
	}
	checkers, err := trustCheckers(cfg.Trust)
	if err != nil {
		return err
	}
	var vlt *vault.Vault
	if cfg.VaultKey != "" {
		if vlt, err = vault.Open(cfg.VaultKey); err != nil {
			return err
		}
		s.vault = vlt
		s.closers = append(s.closers, func() error { vlt.Close(); return nil })
		if err := checkVaultKey(ctx, s.Store, vlt, cfg.VaultKey); err != nil {
			return err
		}
	}
	s.Tools, err = gate.NewTools(gate.ToolsConfig{
		Decider: s.Decider, Engine: s.Engine, Registry: s.Registry, Hooks: s.Hooks,
		Permits: s.Store, Control: s.Store, Held: s.Store, Actions: s.Store, Bus: s.Bus, Approver: approver,
		PermitTTL: cfg.PermitTTL, AnnounceDelay: cfg.AnnounceDelay, TickPeriod: cfg.TickPeriod, QuarantineTTL: cfg.QuarantineTTL,
		ChainID: s.Provider.ChainID(), Now: cfg.Now,
		TrustLog: s.Store, Withheld: s.Store, Vault: vlt, Checkers: checkers, Knowledge: s.Ingest,
		DefaultReviewers: cfg.Trust.Reviewers, DefaultJudge: cfg.Trust.Judge, AddressBook: addressBook(cfg), AddressNames: cfg.Trust.Names, Book: describeBook(s.Book, s.Provider.ChainID(), s.Env.Tokens),
		Sessions: s.Store, Principals: s.Store, SessionLimits: cfg.SessionLimits, Log: cfg.Log, Tracer: s.Telemetry.TracerProvider(),
		View: func() (*registry.View, error) { return s.View(cfg.Tools) },
	})
	if err != nil {
		return err
	}
	s.owner.t.Store(s.Tools)
	if w, ok := s.Store.(store.Watcher); ok {
		if err := s.watch(w); err != nil {
			return err
		}
	}
	s.Facade, err = facade.New(facade.Config{Gate: s.Tools})
	return err
}

// watch follows the changes other instances commit to a shared store: the
// gate drops what it caches of a changed session and rereads its
// principal's review and taint, and every OnChange listener hears of it.
func (s *Stack) watch(w store.Watcher) error {
	ctx, cancel := context.WithCancel(context.Background())
	ch, err := w.Watch(ctx)
	if err != nil {
		cancel()
		return fmt.Errorf("watch the shared store: %w", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for c := range ch {
			if err := s.Tools.Forget(ctx, c); err != nil && ctx.Err() == nil {
				slog.Warn("shared store: a change could not be applied to the session cache", "kind", c.Kind, "err", err)
			}
			s.changeMu.Lock()
			ls := s.onChange
			s.changeMu.Unlock()
			for _, f := range ls {
				f(c)
			}
		}
	}()
	s.closers = append(s.closers, func() error { cancel(); <-done; return nil })
	return nil
}

// OnChange registers f to hear of every change committed to a shared store
// (by any instance, this one included); on a store no other process
// writes, f is never called.
func (s *Stack) OnChange(f func(store.Change)) {
	s.changeMu.Lock()
	s.onChange = append(s.onChange, f)
	s.changeMu.Unlock()
}

// checkVaultKey refuses a vault key other than the one the store's sealed
// data was written with: the store keeps the key's fingerprint from its
// first run, and every ward instance on a shared database must use the
// same key (a session another instance sealed would not open here).
func checkVaultKey(ctx context.Context, st store.KeyChecks, v *vault.Vault, path string) error {
	fp, err := v.Fingerprint()
	if err != nil {
		return err
	}
	stored, err := st.KeyCheck(ctx, "vault", fp)
	if err != nil {
		return fmt.Errorf("vault key check: %w", err)
	}
	if !bytes.Equal(stored, fp) {
		return fmt.Errorf("vault key %s is not the key this database's sessions and withheld outputs are sealed with: every ward on one database needs the same vault.key (copy it from the data directory of the first)", path)
	}
	return nil
}

// openGrimoire builds the ingestion pipeline over the stack's store: the
// hashed embedder, the oracle and immune memory (restored from the store,
// saved after each rejection), Stage 1 with the configured identities and
// Stage 2's three layers, and loads the Grimoire view.
func openGrimoire(ctx context.Context, s *Stack, cfg Config) (*ingest.Pipeline, error) {
	g := cfg.Grimoire
	reg, err := localIdentities(g)
	if err != nil {
		return nil, err
	}
	self, fleet, err := openFleet(ctx, s, cfg, reg)
	if err != nil {
		return nil, err
	}
	checker, err := stage1Checker(ctx, s, g, reg)
	if err != nil {
		return nil, err
	}
	orc, im, err := loadScreens(ctx, s)
	if err != nil {
		return nil, err
	}
	vals, book, err := stage2Validators(s, g)
	if err != nil {
		return nil, err
	}
	emb, err := grimoireEmbedder(g.Embedder)
	if err != nil {
		return nil, err
	}
	pb, err := openPlaybook(ctx, s, g)
	if err != nil {
		return nil, err
	}
	st3, err := loadStage3(ctx, s, cfg)
	if err != nil {
		return nil, err
	}
	p, err := ingest.New(ingest.Config{Embedder: emb, Oracle: orc, Immune: im, Checker: checker,
		Store: s.Store, Bus: s.Bus, Validators: vals, Strictness: g.Strictness, State: s.Store, Verifier: book,
		Clade: g.Clade, Members: reg, Playbook: pb, Stage3: st3, Actions: s.Store, Self: self, Fleet: fleet, Sessions: s.Store})
	if err != nil {
		return nil, err
	}
	if err := p.Grimoire().Load(ctx, s.Store); err != nil {
		return nil, err
	}
	if err := p.Restore(ctx); err != nil {
		return nil, fmt.Errorf("grimoire: the saved metrics and lessons: %w", err)
	}
	if err := joinFleet(ctx, s, p, cfg.Log); err != nil {
		return nil, err
	}
	return p, nil
}

// localIdentities is the registry of the configured identities and clade
// members.
func localIdentities(g config.Grimoire) (*quarantine.LocalRegistry, error) {
	reg, err := quarantine.NewLocalRegistry()
	if err != nil {
		return nil, err
	}
	for _, a := range g.Identities {
		if err := reg.Add(a); err != nil {
			return nil, fmt.Errorf("grimoire.identities: %w", err)
		}
	}
	for i, m := range g.Members {
		if err := reg.AddMember(m.Address, m.Clade, m.Confidence); err != nil {
			return nil, fmt.Errorf("grimoire.members %d: %w", i+1, err)
		}
	}
	return reg, nil
}

// openFleet opens the relay when it is enabled (s.Relay, closed with the
// stack) and returns this member's address and the publisher to the
// fleet; with the relay off both are zero.
func openFleet(ctx context.Context, s *Stack, cfg Config, reg *quarantine.LocalRegistry) (string, ingest.FleetPublisher, error) {
	if !cfg.Relay.Enabled {
		return "", nil, nil
	}
	if cfg.RelayDir == "" {
		return "", nil, errors.New("relay: no directory for its state")
	}
	rl, addr, err := openRelay(ctx, cfg.Relay, cfg.Grimoire.Clade, reg, cfg.RelayDir)
	if err != nil {
		return "", nil, err
	}
	s.Relay = rl
	s.closers = append(s.closers, func() error { rl.Close(); return nil })
	return strings.ToLower(addr.Hex()), ingest.RelayPublisher(rl), nil
}

// stage1Checker is Stage 1's signature and identity check over reg and,
// when one is configured, the ERC-8004 identity registry.
func stage1Checker(ctx context.Context, s *Stack, g config.Grimoire, reg *quarantine.LocalRegistry) (*quarantine.Checker, error) {
	var identities quarantine.Registry = reg
	if g.IdentityRegistry != (tool.Address{}) {
		// The operator's own identities first, then the ERC-8004
		// registry, authoritative for strangers.
		onchain, err := identity.NewERC8004Registry(s.Provider, common.Address(g.IdentityRegistry), identity.ERC8004Config{})
		if err == nil {
			err = onchain.Verify(ctx)
		}
		if err != nil {
			return nil, fmt.Errorf("grimoire.identity_registry: %w", err)
		}
		identities = identity.Either(reg, onchain)
	}
	return quarantine.New(quarantine.Config{ChainID: s.Provider.ChainID(), Registry: identities})
}

// loadScreens is the poison oracle and immune memory as the store saved
// them.
func loadScreens(ctx context.Context, s *Stack) (*oracle.Oracle, *oracle.Immune, error) {
	orc, err := oracle.New(oracle.Config{})
	if err != nil {
		return nil, nil, err
	}
	im, err := oracle.NewImmune(oracle.ImmuneConfig{})
	if err != nil {
		return nil, nil, err
	}
	if err := ingest.LoadMemory(ctx, s.Store, orc, im); err != nil {
		return nil, nil, fmt.Errorf("grimoire: the saved oracle and immune memory: %w", err)
	}
	return orc, im, nil
}

// stage2Validators is Stage 2's layers (with the configured reasoner) and
// L3's on-chain check, with the book verifier it and the pipeline share.
func stage2Validators(s *Stack, g config.Grimoire) ([]ingest.Validator, *validate.BookVerifier, error) {
	var opts []ingest.Stage2Option
	if len(g.Reasoning.Providers) > 0 {
		r, err := NewReasoner(g.Reasoning)
		if err != nil {
			return nil, nil, err
		}
		opts = append(opts, ingest.WithReasoner(r))
	}
	vals, err := ingest.Stage2(nil, opts...)
	if err != nil {
		return nil, nil, err
	}
	// L3 checks identities against the book in force (the operator's
	// overrides applied), then chain state against the first chain.
	// The pipeline's confidence check reads the same index of the book.
	book := validate.NewBookVerifier(s.Book)
	vals = append(vals, ingest.OnChain(s.Provider, onchain.Config{Book: s.Book, Verifier: book}))
	return vals, book, nil
}

// openPlaybook opens the configured playbook (closed with the stack), or
// none.
func openPlaybook(ctx context.Context, s *Stack, g config.Grimoire) (*adopt.Playbook, error) {
	if g.Playbook == "" {
		return nil, nil
	}
	pb, err := adopt.OpenPlaybook(ctx, g.Playbook)
	if err != nil {
		return nil, fmt.Errorf("grimoire.playbook: %w", err)
	}
	s.closers = append(s.closers, pb.Close)
	return pb, nil
}

// loadStage3 is Stage 3: strict and paranoid evaluate actionable entries
// in the sandbox, with the skill library this ward has verified so far
// and the configured components.
func loadStage3(ctx context.Context, s *Stack, cfg Config) (*ingest.Stage3, error) {
	lib := skill.NewLibrary()
	if err := ingest.LoadLibrary(ctx, s.Store, lib); err != nil {
		return nil, fmt.Errorf("grimoire: the saved skill library: %w", err)
	}
	if err := addComponents(ctx, cfg.Grimoire.Components, lib, cfg.Log); err != nil {
		return nil, err
	}
	return stage3(cfg.Grimoire.Sandbox, lib)
}

// joinFleet subscribes p to what the other members published, from the
// first message this member has not acked (all it missed while it was
// down) until the relay closes, announces this member, and republishes
// its oracle's filter (ingest.Pipeline.RepublishFilter). Without a relay
// it does nothing.
func joinFleet(ctx context.Context, s *Stack, p *ingest.Pipeline, log *slog.Logger) error {
	if s.Relay == nil {
		return nil
	}
	if log == nil {
		log = slog.Default()
	}
	if err := s.Relay.Subscribe(context.WithoutCancel(ctx), p.RelayHandler(log)); err != nil {
		return fmt.Errorf("relay: subscribe: %w", err)
	}
	if err := s.Relay.Announce(ctx); err != nil {
		log.Warn("relay: the membership announcement was not published", "err", err)
	}
	if err := p.RepublishFilter(ctx); err != nil {
		log.Warn("relay: the oracle's filter was not republished", "err", err)
	}
	return nil
}

// addComponents reads, pins and checks the [[grimoire.wasm_component]]
// modules and adds them to lib; any that fails stops ward from starting.
// An unpinned module is added, with a warning.
func addComponents(ctx context.Context, cs []config.WASMComponent, lib *skill.Library, log *slog.Logger) error {
	for i, c := range cs {
		b, err := wasm.ReadModule(c.Module)
		if err != nil {
			return fmt.Errorf("grimoire.wasm_component %d (%s): %w", i, c.Name, err)
		}
		sum := wasm.Sum(b)
		if c.SHA256 == "" {
			if log == nil {
				log = slog.Default()
			}
			log.Warn("wasm component: module not pinned; set sha256 to refuse a changed module", "component", c.Name, "module", c.Module, "sha256", sum)
		} else if !strings.EqualFold(c.SHA256, sum) {
			return fmt.Errorf("grimoire.wasm_component %d (%s): %s: %w (pinned %s, found %s)", i, c.Name, c.Module, wasm.ErrPin, c.SHA256, sum)
		}
		comp := skill.Component{Name: c.Name, Kind: c.Kind, Text: cmp.Or(c.Description, c.Name), WASM: b,
			Limits: skill.WASMLimits{Memory: c.Limits.Memory, WallClock: c.Limits.WallClock, CPU: c.Limits.CPU}}
		if err := ingest.AddComponent(ctx, lib, comp); err != nil {
			return fmt.Errorf("grimoire.wasm_component %d: %w", i, err)
		}
	}
	return nil
}

// stage3 is Stage 3 as [grimoire.sandbox] configures it: the isolation it
// requires, the agent's strategy, each rule decomposed and composed
// against lib now (a rule that does not decompose, or names a WASM
// component lib does not hold, stops ward from starting), and the LLM
// decomposer if one is set.
func stage3(sb config.Sandbox, lib *skill.Library) (*ingest.Stage3, error) {
	st := &ingest.Stage3{Library: lib, Require: sb.Require}
	for i, r := range sb.Strategy {
		f, err := skill.Parse(r)
		if err == nil {
			_, err = lib.Compose(f) // its conditions check, its components are registered
		}
		if err != nil {
			return nil, fmt.Errorf("grimoire.sandbox.strategy: rule %d: %w", i+1, err)
		}
		st.Strategy = append(st.Strategy, f)
	}
	if d := sb.Decomposer; d.Endpoint != "" {
		cfg := skill.LLMConfig{Endpoint: llm.ChatURL(d.Endpoint), Model: d.Model,
			Timeout: d.Timeout, MaxCalls: sb.MaxCalls, Chat: ingest.SkillChat(nil), APIKey: envKey(d.APIKeyEnv)}
		dec, err := skill.NewLLM(cfg)
		if err != nil {
			return nil, fmt.Errorf("grimoire.sandbox.decomposer: %w", err)
		}
		st.LLM = dec
	}
	return st, nil
}

// envKey is the API key held in the environment variable name, as a
// confidential tainted value; nil when no variable is named.
// NewReasoner is L2's reasoner as [grimoire.reasoning] configures it, each
// provider's key read from its api_key_env: what `ward serve` runs and
// `ward eval poisoning --reasoning` measures.
func NewReasoner(rc config.Reasoning) (*reasoning.Reasoner, error) {
	cfg := reasoning.ReasonerConfig{K: rc.K, Threshold: rc.Threshold, Judge: rc.Judge}
	for _, l := range rc.Providers {
		cfg.Providers = append(cfg.Providers, reasoning.LLMProvider{Endpoint: l.Endpoint, Model: l.Model, Timeout: l.Timeout, APIKey: envKey(l.APIKeyEnv)})
	}
	r, err := reasoning.NewReasoner(cfg)
	if err != nil {
		return nil, fmt.Errorf("grimoire.reasoning: %w", err)
	}
	return r, nil
}

func envKey(name string) *taint.String {
	if name == "" {
		return nil
	}
	return taint.New(os.Getenv(name), taint.StrategyConfidential)
}

// grimoireEmbedder is the configured embedder: the deterministic hashed
// one, or an OpenAI-compatible endpoint ([grimoire.embedder]).
func grimoireEmbedder(e config.Embedder) (embed.Embedder, error) {
	if e.Endpoint == "" {
		return embed.NewHashed(embed.HashedConfig{}), nil
	}
	cfg := embed.OpenAIConfig{Endpoint: e.Endpoint, Model: e.Model, Dim: e.Dimensions, Timeout: e.Timeout, Key: envKey(e.APIKeyEnv)}
	o, err := embed.NewOpenAI(cfg)
	if err != nil {
		return nil, fmt.Errorf("grimoire.embedder: %w", err)
	}
	return o, nil
}

// describeBook is the book that names the tokens of held calls for the
// owner: the address book with the catalogue's tokens of the main chain
// added where the book lacks them (the embedded dev chain's, which its
// deployment makes and no shipped book lists). On a conflict the book is
// kept as it is.
func describeBook(b *addrbook.Book, chainID uint64, tokens []catalog.Token) *addrbook.Book {
	c, _ := b.Chain(chainID)
	var add []addrbook.Token
	for _, t := range tokens {
		if c != nil {
			if _, ok := c.Token(tool.Address(t.Address)); ok {
				continue
			}
		}
		add = append(add, addrbook.Token{Address: tool.Address(t.Address), Symbol: t.Symbol, Decimals: t.Decimals, USDFeed: tool.Address(t.Feed)})
	}
	if len(add) == 0 {
		return b
	}
	out, err := b.With(addrbook.Overrides{Chains: []*addrbook.Chain{{ID: chainID, Tokens: add}}})
	if err != nil {
		return b
	}
	return out
}

// addressBook is the owner's address book plus the tokens and contracts of
// the allowlist: the owner named them, so they have trusted provenance in
// every session (an agent that read a token's third-party metadata can
// still trade the allowlisted token it looked up).
func addressBook(cfg Config) []string {
	book := append([]string{}, cfg.Trust.AddressBook...)
	for _, a := range append(append([]tool.Address{}, cfg.Hooks.Allowlist.Tokens...), cfg.Hooks.Allowlist.Contracts...) {
		if a != (tool.Address{}) {
			book = append(book, a.String())
		}
	}
	return book
}

// trustCheckers returns the configured LLM-backed checker, if any (the
// gate adds the built-in rule-based ones).
func trustCheckers(t config.Trust) (map[string]trust.Checker, error) {
	if t.LLM.Endpoint == "" {
		return nil, nil
	}
	key := envKey(t.LLM.APIKeyEnv)
	c, err := trust.NewLLM(trust.LLMConfig{Endpoint: t.LLM.Endpoint, Model: t.LLM.Model, APIKey: key, Timeout: t.LLM.Timeout,
		Name: config.LLMChecker, Authoritative: t.Judge == config.LLMChecker})
	if err != nil {
		return nil, fmt.Errorf("trust.llm: %w", err)
	}
	return map[string]trust.Checker{config.LLMChecker: c}, nil
}

// LocalPrincipal is the principal of sessions opened in process (the demo,
// benchmarks, evaluations), which no token stands for.
const LocalPrincipal = "local"

// Session returns the in-process session named name of the given profiles
// ("trader,vault"), opened through the gate like any client's (stored, its
// trust state durable), held by LocalPrincipal with the input source
// source.
func (s *Stack) Session(ctx context.Context, name string, source policy.InputSource, profiles string) (*gate.Session, error) {
	ps, err := registry.ParseProfiles(profiles)
	if err != nil {
		return nil, err
	}
	v, err := s.View(config.Tools{Profiles: ps})
	if err != nil {
		return nil, err
	}
	return s.Tools.OpenSession(ctx, gate.Owner{PrincipalID: LocalPrincipal + ":" + source.String(), Name: LocalPrincipal, Source: source}, name, v)
}

// View selects the tools t names, with the capabilities this stack has (a
// wallet or not).
func (s *Stack) View(t config.Tools) (*registry.View, error) {
	have := []tool.Requirement{}
	if s.Wallet != nil {
		have = append(have, tool.NeedsWallet)
	}
	if s.Ingest != nil {
		have = append(have, tool.NeedsMemory)
	}
	return s.Registry.Select(registry.Selection{Profiles: t.Profiles, Enable: t.Enable, Disable: t.Disable, Have: have})
}

// TelemetryFlush bounds how long Close waits for the collector to take
// the last spans: a collector that is down costs shutdown no more.
const TelemetryFlush = 2 * time.Second

// Close stops everything Open started, in reverse order.
func (s *Stack) Close() error {
	var errs []error
	for i := len(s.closers) - 1; i >= 0; i-- {
		errs = append(errs, s.closers[i]())
	}
	s.closers = nil
	return errors.Join(errs...)
}

// DefaultDB returns a database path in dir.
func DefaultDB(dir string) string { return filepath.Join(dir, "ward.db") }

func devTokens(d *chain.DevChain) []catalog.Token {
	var out []catalog.Token
	for _, t := range d.Tokens() {
		out = append(out, catalog.Token{Address: t.Address, Symbol: t.Symbol, Decimals: t.Decimals, Feed: t.Feed})
	}
	return out
}

func isZeroAllowlist(a hook.AllowlistConfig) bool {
	return len(a.Tokens) == 0 && !a.AnyToken && len(a.Contracts) == 0 && !a.AnyContract &&
		len(a.Selectors) == 0 && len(a.ContractSelectors) == 0 && !a.AnySelector
}

// devAllowlist allows the dev chain's tokens (and native ETH) and
// contracts, any function on them.
func devAllowlist(dc *chain.DevContracts, tokens []catalog.Token) hook.AllowlistConfig {
	a := hook.AllowlistConfig{AnySelector: true, Tokens: []tool.Address{{}}}
	for _, t := range tokens {
		a.Tokens = append(a.Tokens, tool.Address(t.Address))
		a.Contracts = append(a.Contracts, tool.Address(t.Address))
	}
	for _, c := range []common.Address{dc.WETH, dc.UniswapV2Router, dc.UniswapV3SwapRouter, dc.UniswapV3LiquidityHelper,
		dc.VaultUSDC, dc.AavePool, dc.FeedETHUSD, dc.FeedBTCUSD, dc.FeedUSDCUSD, dc.FeedDAIUSD,
		dc.UniswapV2PairUSDCWETH, dc.UniswapV2PairDAIUSDC, dc.UniswapV3PoolUSDCWETH, dc.AaveAUSDC, dc.AaveAWETH, dc.AaveADAI, dc.MorphoBlue, dc.CometUSDC,
		dc.LidoStETH, dc.LidoWstETH, dc.LidoWithdrawalQueue, dc.RocketDepositPool, dc.RocketRETH, dc.IdentityRegistry,
		dc.PendleRouter, dc.PendleMarketDAI, dc.PendleSYDAI, dc.PendlePTDAI, dc.PendleYTDAI,
		dc.SavingsDai, dc.EthenaSUSDe, dc.YearnVaultUSDC} {
		a.Contracts = append(a.Contracts, tool.Address(c))
		a.Tokens = append(a.Tokens, tool.Address(c)) // LP, vault and aTokens, staking tokens and agent identities (ERC-721) move too
	}
	for _, c := range []common.Address{dc.ReputationRegistry, dc.EigenStrategyManager, dc.EigenDelegationManager, dc.GmxV2,
		dc.Permit2, dc.UniversalRouter} {
		a.Contracts = append(a.Contracts, tool.Address(c))
	}
	a.Tokens = dedupe(a.Tokens)
	a.Contracts = dedupe(a.Contracts)
	return a
}

func dedupe(xs []tool.Address) []tool.Address {
	seen := map[tool.Address]bool{}
	var out []tool.Address
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// simAdapter gives the simulation hook the chain's simulator.
type simAdapter struct{ s *chain.Simulator }

func (a simAdapter) Simulate(ctx context.Context, chainID uint64, from tool.Address, txs []tool.Tx, watch []tool.Address) (hook.SimResult, error) {
	r, err := a.s.Simulate(ctx, chainID, from, txs, watch)
	if err != nil {
		return hook.SimResult{}, err
	}
	out := hook.SimResult{OK: r.OK, Reverted: r.Reverted, RevertReason: r.RevertReason, GasUsed: r.GasUsed, TotalGas: r.TotalGas}
	for _, d := range r.Deltas {
		out.Deltas = append(out.Deltas, hook.BalanceDelta{Token: d.Token, Before: d.Before, After: d.After, Delta: d.Delta})
	}
	return out, nil
}

// readerAdapter gives the hallucination hook chain reads. A contract's
// code and a token's symbol and decimals do not change once seen (code
// can only disappear by self-destruction in its creating transaction since
// Cancun), so they are cached; balances are always read fresh.
type readerAdapter struct {
	ps    *chain.Providers
	code  sync.Map // chainKey → []byte (non-empty only)
	metas sync.Map // chainKey → tokenMeta
}

type chainKey struct {
	chain uint64
	addr  tool.Address
}

type tokenMeta struct {
	symbol   string
	decimals uint8
}

func (a *readerAdapter) Code(ctx context.Context, chainID uint64, addr tool.Address) ([]byte, error) {
	k := chainKey{chainID, addr}
	if c, ok := a.code.Load(k); ok {
		return c.([]byte), nil
	}
	p, err := a.ps.Get(chainID)
	if err != nil {
		return nil, err
	}
	c, err := p.Code(ctx, common.Address(addr))
	if err == nil && len(c) > 0 {
		a.code.Store(k, c)
	}
	return c, err
}

func (a *readerAdapter) TokenMeta(ctx context.Context, chainID uint64, token tool.Address) (string, uint8, error) {
	if token.IsZero() {
		return "ETH", 18, nil
	}
	k := chainKey{chainID, token}
	if m, ok := a.metas.Load(k); ok {
		return m.(tokenMeta).symbol, m.(tokenMeta).decimals, nil
	}
	p, err := a.ps.Get(chainID)
	if err != nil {
		return "", 0, err
	}
	erc := chain.ERC20ABI()
	sym, err := callOne(ctx, p, erc, common.Address(token), "symbol")
	if err != nil {
		return "", 0, err
	}
	dec, err := callOne(ctx, p, erc, common.Address(token), "decimals")
	if err != nil {
		return "", 0, err
	}
	s, _ := sym.(string)
	d, _ := dec.(uint8)
	a.metas.Store(k, tokenMeta{s, d})
	return s, d, nil
}

func (a *readerAdapter) BalanceOf(ctx context.Context, chainID uint64, token, owner tool.Address) (*big.Int, error) {
	p, err := a.ps.Get(chainID)
	if err != nil {
		return nil, err
	}
	if token.IsZero() {
		return p.BalanceOf(ctx, common.Address(owner))
	}
	return p.TokenBalance(ctx, common.Address(token), common.Address(owner))
}

func callOne(ctx context.Context, p *chain.Provider, a *chain.ABI, to common.Address, method string) (any, error) {
	data, err := a.Pack(method)
	if err != nil {
		return nil, err
	}
	out, err := p.Call(ctx, callMsg(to, data))
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", method, to.Hex(), err)
	}
	v, err := a.Unpack(method, out)
	if err != nil || len(v) == 0 {
		return nil, fmt.Errorf("%s at %s: %v", method, to.Hex(), err)
	}
	return v[0], nil
}

func callMsg(to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{To: &to, Data: data}
}

// checkSafe refuses to start with a Safe wallet whose Safe does not
// answer as one or does not have ward's key among its owners.
func checkSafe(ctx context.Context, w *chain.Wallet, log *slog.Logger) error {
	nonce, threshold, owners, owner, err := w.SafeStatus(ctx)
	if err != nil {
		return fmt.Errorf("wallet: %w", err)
	}
	if !owner {
		return fmt.Errorf("wallet: the key of wallet_key_file (%s) is not an owner of the Safe %s", w.KeyAddress().Hex(), w.Safe().Hex())
	}
	log.Info("the wallet sends from a Safe", "safe", w.Safe().Hex(), "owner_key", w.KeyAddress().Hex(),
		"threshold", threshold, "owners", len(owners), "nonce", nonce)
	return nil
}
