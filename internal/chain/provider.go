package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	neturl "net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/lru"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/wardhq/ward/internal/taint"
)

// ProviderConfig configures a Provider. The zero value is usable: every
// field has a default.
type ProviderConfig struct {
	// ChainID, when non-zero, is the chain the endpoint must serve: opening
	// fails if eth_chainId says otherwise.
	ChainID uint64
	// Attempts is how many times a request is tried when it fails
	// transiently (default 4; 1 disables retries).
	Attempts int
	// RetryBase is the first backoff delay (default 100 ms); each retry
	// doubles it, up to RetryMax (default 2 s), with jitter.
	RetryBase, RetryMax time.Duration
	// HeaderTTL is how long the latest header is reused (default 1 s).
	HeaderTTL time.Duration
	// HeaderCache is how many headers by number are kept (default 256).
	HeaderCache int
	// PollMin and PollMax are the first and the longest pause between two
	// receipt polls in WaitReceipt (defaults 2 ms and 1 s); the pause
	// doubles from one to the other.
	PollMin, PollMax time.Duration
	// ChainConfig is the chain's protocol configuration, used by the
	// simulator; nil selects it by chain ID (see ChainConfigFor).
	ChainConfig *params.ChainConfig
	// RequestTimeout bounds one request to one endpoint (default 3 s): an
	// endpoint that stalls longer is down, and the next one is tried. It
	// is shorter than the gate's budget for a preview (5 s), so a stall is
	// found, and another endpoint tried, before the caller gives up: a
	// wait the caller cuts short says nothing about the endpoint.
	RequestTimeout time.Duration
	// Cooldown is how long an endpoint that failed is tried only after
	// the others (default 30 s); one that stalled is not tried at all
	// until then, and while every endpoint is down the provider's calls
	// fail at once with a *DownError.
	Cooldown time.Duration
}

func (c ProviderConfig) withDefaults() (ProviderConfig, error) {
	if c.Attempts < 0 || c.RetryBase < 0 || c.RetryMax < 0 || c.HeaderTTL < 0 || c.HeaderCache < 0 || c.PollMax < 0 || c.RequestTimeout < 0 || c.Cooldown < 0 {
		return c, errors.New("provider config: negative value")
	}
	if c.Attempts == 0 {
		c.Attempts = 4
	}
	if c.RetryBase == 0 {
		c.RetryBase = 100 * time.Millisecond
	}
	if c.RetryMax == 0 {
		c.RetryMax = 2 * time.Second
	}
	c.RetryMax = max(c.RetryMax, c.RetryBase)
	if c.HeaderTTL == 0 {
		c.HeaderTTL = time.Second
	}
	if c.HeaderCache == 0 {
		c.HeaderCache = 256
	}
	if c.PollMax == 0 {
		c.PollMax = time.Second
	}
	if c.PollMin <= 0 {
		c.PollMin = 2 * time.Millisecond
	}
	c.PollMin = min(c.PollMin, c.PollMax)
	if c.RequestTimeout == 0 {
		c.RequestTimeout = 3 * time.Second
	}
	if c.Cooldown == 0 {
		c.Cooldown = 30 * time.Second
	}
	return c, nil
}

// Waited returns the total time WaitReceipt calls have spent waiting for
// receipts: the chain's block time as this client saw it.
func (p *Provider) Waited() time.Duration { return time.Duration(p.waited.Load()) }

// Provider is a client of one chain over JSON-RPC, through one or more
// endpoints. Its methods retry transient failures (see the package
// comment) and fail over: a request goes to the endpoint that answered
// last; one that fails transiently or stalls past RequestTimeout is
// rested for Cooldown and the next is tried at once; an endpoint is used
// only once it has said it serves the provider's chain.
//
// A stall is never retried against the same endpoint within a call, and
// an endpoint that stalled is not tried again before its rest ends. When
// every endpoint is down (it stalled or could not be reached, and has not
// answered since), the provider's circuit is open: its calls fail at once
// with a *DownError naming the chain and when it is tried again; after
// that, one call at a time probes an endpoint, and the first answer
// closes the circuit. It is safe for concurrent use.
type Provider struct {
	eps     []*endpoint
	cur     atomic.Int32 // index of the endpoint that answered last
	probing atomic.Bool  // a call is probing a down chain (admit)
	idMu    sync.Mutex   // guards chainID while an endpoint is verified
	chainID uint64
	config  *params.ChainConfig
	retry   backoff
	cfg     ProviderConfig

	mu       sync.Mutex
	latest   *types.Header
	latestAt time.Time
	headers  lru.BasicLRU[uint64, *types.Header]

	waited atomic.Int64 // nanoseconds in WaitReceipt

	// settled, when set (the embedded dev chain), is called before
	// WaitReceipt returns a receipt and returns once the block that holds
	// it is fully sealed, its transaction pool moved to the new head.
	settled func()

	life     sync.Mutex     // guards isClosed and adding to checks
	isClosed bool           // Close has begun: no new checks
	closed   chan struct{}  // closed by Close: ends the checks
	checks   sync.WaitGroup // liveness checks (suspect)
}

// Dial connects to the JSON-RPC endpoint at url (http, https, ws, wss or
// an IPC path) and checks its chain ID. It is DialEndpoints with one URL.
func Dial(ctx context.Context, url string, cfg ProviderConfig) (*Provider, error) {
	return DialEndpoints(ctx, []string{url}, cfg)
}

// DialEndpoints connects to the endpoints of one chain, tried in turn
// (see Provider). Every endpoint that answers must serve the same chain,
// ChainID when it is set: one that serves another is an error. At least
// one must answer now; one that does not is checked when it is first
// needed.
//
// Providers put API keys in the URL's path, query or user info. For an
// http(s) endpoint the key is held as a tainted value in the HTTP
// transport: the RPC client and every error it returns know only the
// redacted URL (scheme and host).
func DialEndpoints(ctx context.Context, urls []string, cfg ProviderConfig) (*Provider, error) {
	if len(urls) == 0 {
		return nil, errors.New("dial: no endpoint")
	}
	var eps []*endpoint
	closeAll := func() {
		for _, e := range eps {
			e.rpc.Close()
		}
	}
	for _, url := range urls {
		dial, opts := url, []rpc.ClientOption(nil)
		if red := redactURL(url); red != url && (strings.HasPrefix(url, "http://") || strings.HasPrefix(url, "https://")) {
			dial = red
			opts = append(opts, rpc.WithHTTPClient(&http.Client{Transport: &secretURL{url: taint.New(url, taint.OwnerSecret), next: http.DefaultTransport}}))
		}
		c, err := rpc.DialOptions(ctx, dial, opts...)
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("dial %s: %w", redactURL(url), err)
		}
		eps = append(eps, newEndpoint(redactURL(url), c, true))
	}
	p, err := newProvider(ctx, eps, cfg)
	if err != nil {
		closeAll()
		return nil, err
	}
	return p, nil
}

// NewProvider returns a provider over an existing RPC client (such as the
// in-process client of the simulated backend) and checks its chain ID.
// Closing the provider does not close c.
func NewProvider(ctx context.Context, c *rpc.Client, cfg ProviderConfig) (*Provider, error) {
	if c == nil {
		return nil, errors.New("new provider: nil rpc client")
	}
	return newProvider(ctx, []*endpoint{newEndpoint("rpc", c, false)}, cfg)
}

func newProvider(ctx context.Context, eps []*endpoint, cfg ProviderConfig) (*Provider, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	p := &Provider{
		eps:     eps,
		chainID: cfg.ChainID,
		retry:   backoff{attempts: cfg.Attempts, base: cfg.RetryBase, most: cfg.RetryMax},
		cfg:     cfg,
		headers: lru.NewBasicLRU[uint64, *types.Header](cfg.HeaderCache),
		closed:  make(chan struct{}),
	}
	var answered bool
	var errs []error
	for i, e := range eps {
		err := p.retry.do(ctx, func(ctx context.Context) error {
			err := p.verify(ctx, e)
			if errors.Is(err, errStalled) {
				p.rest(e, err) // not retried: one stall is one timeout
				return nil
			}
			return err
		})
		if err == nil {
			if e.mu.Lock(); e.down != nil {
				err = e.down
			}
			e.mu.Unlock()
		}
		switch {
		case err == nil:
			if !answered {
				p.cur.Store(int32(i))
			}
			answered = true
		case e.wrongChain() != nil:
			return nil, fmt.Errorf("chain id: %w", e.wrongChain())
		default:
			errs = append(errs, fmt.Errorf("%s: %w", e.name, err))
		}
	}
	if !answered {
		return nil, fmt.Errorf("chain id: %w", errors.Join(errs...))
	}
	p.config = cfg.ChainConfig
	if p.config == nil {
		p.config = ChainConfigFor(p.chainID)
	}
	return p, nil
}

// secretURL sends every request to the endpoint's real URL, which only it
// holds (as a tainted value); the caller's request, and so every error
// net/http builds from it, carries the redacted one.
type secretURL struct {
	url  *taint.String
	next http.RoundTripper
}

func (t *secretURL) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	err := t.url.Use(func(b []byte) error {
		u, err := neturl.Parse(string(b))
		if err != nil {
			return errors.New("the endpoint URL does not parse")
		}
		if u.User != nil {
			pw, _ := u.User.Password()
			r.SetBasicAuth(u.User.Username(), pw)
			u.User = nil
		}
		r.URL, r.Host = u, u.Host
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t.next.RoundTrip(r)
}

// redactURL drops the path and query of an endpoint URL, where providers
// put API keys.
func redactURL(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		rest := u[i+3:]
		if j := strings.IndexAny(rest, "/?"); j >= 0 {
			rest = rest[:j]
		}
		if j := strings.LastIndexByte(rest, '@'); j >= 0 {
			rest = rest[j+1:]
		}
		return u[:i+3] + rest
	}
	return u
}

// Close ends the provider's liveness checks, waits for them, and releases
// the connections the provider dialled. Calls after Close fail.
func (p *Provider) Close() {
	p.life.Lock()
	if !p.isClosed {
		p.isClosed = true
		close(p.closed)
	}
	p.life.Unlock()
	p.checks.Wait()
	for _, e := range p.eps {
		if e.owned {
			e.rpc.Close()
		}
	}
}

// ChainID returns the chain the provider serves (checked when it opened).
// It is set before the provider is returned and never changes.
func (p *Provider) ChainID() uint64 { return p.chainID }

// ChainConfig returns the chain's protocol configuration.
func (p *Provider) ChainConfig() *params.ChainConfig { return p.config }

// RPC returns the JSON-RPC client of the endpoint that answered last (for
// forking and subscriptions). Requests made on it directly are neither
// retried nor failed over.
func (p *Provider) RPC() *rpc.Client { return p.eps[p.cur.Load()].rpc }

// do runs one request: refused at once while the circuit is open
// (admit), else on the endpoints in turn (each), retried with backoff
// when all of them failed transiently. A call that failed because every
// endpoint is down returns the *DownError.
func (p *Provider) do(ctx context.Context, op string, f func(ctx context.Context, e *endpoint) error) error {
	probe, err := p.admit()
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if probe {
		defer p.endProbe()
	}
	err = p.retry.do(ctx, func(ctx context.Context) error { return p.each(ctx, f) })
	if err == nil {
		return nil
	}
	if re := revertFrom(err); re != nil {
		return re
	}
	if retryable(err) && ctx.Err() == nil {
		if d := p.downError(); d != nil {
			err = d
		}
	}
	return fmt.Errorf("%s: %w", op, err)
}

// BalanceOf returns the native (ETH) balance of addr at the latest block
// (the pinned one: see Pin).
func (p *Provider) BalanceOf(ctx context.Context, addr common.Address) (*big.Int, error) {
	var b *big.Int
	block := p.at(ctx)
	err := p.do(ctx, "balance", func(ctx context.Context, e *endpoint) (err error) {
		b, err = e.ec.BalanceAt(ctx, addr, block)
		return err
	})
	return b, err
}

// TokenBalance returns owner's balance of the ERC-20 token at the latest
// block (the pinned one: see Pin).
func (p *Provider) TokenBalance(ctx context.Context, token, owner common.Address) (*big.Int, error) {
	data, err := ERC20ABI().Pack("balanceOf", owner)
	if err != nil {
		return nil, err
	}
	out, err := p.Call(ctx, ethereum.CallMsg{To: &token, Data: data})
	if err != nil {
		return nil, fmt.Errorf("balanceOf: %w", err)
	}
	if len(out) < 32 {
		return nil, fmt.Errorf("balanceOf %s: %d bytes returned (not an ERC-20?)", token, len(out))
	}
	return new(big.Int).SetBytes(out[:32]), nil
}

// Code returns the code at addr at the latest block (the pinned one: see
// Pin; empty for an account without code).
func (p *Provider) Code(ctx context.Context, addr common.Address) ([]byte, error) {
	var code []byte
	block := p.at(ctx)
	err := p.do(ctx, "code", func(ctx context.Context, e *endpoint) (err error) {
		code, err = e.ec.CodeAt(ctx, addr, block)
		return err
	})
	return code, err
}

// Call executes msg against the latest block (the pinned one: see Pin)
// without a transaction. A revert is returned as a *RevertError.
func (p *Provider) Call(ctx context.Context, msg ethereum.CallMsg) ([]byte, error) {
	return p.CallAt(ctx, msg, nil)
}

// CallAt is Call at block number (nil: the pinned block, else latest).
func (p *Provider) CallAt(ctx context.Context, msg ethereum.CallMsg, block *big.Int) ([]byte, error) {
	if block == nil {
		block = p.at(ctx)
	}
	var out []byte
	err := p.do(ctx, "call", func(ctx context.Context, e *endpoint) (err error) {
		out, err = e.ec.CallContract(ctx, msg, block)
		return err
	})
	return out, err
}

// Nonce returns the next nonce of addr, counting pending transactions.
func (p *Provider) Nonce(ctx context.Context, addr common.Address) (uint64, error) {
	var n uint64
	err := p.do(ctx, "nonce", func(ctx context.Context, e *endpoint) (err error) {
		n, err = e.ec.PendingNonceAt(ctx, addr)
		return err
	})
	return n, err
}

// MinedNonce returns the nonce of addr at the latest block: how many of
// its transactions are mined, leaving out those still pending.
func (p *Provider) MinedNonce(ctx context.Context, addr common.Address) (uint64, error) {
	var n uint64
	err := p.do(ctx, "mined nonce", func(ctx context.Context, e *endpoint) (err error) {
		n, err = e.ec.NonceAt(ctx, addr, nil)
		return err
	})
	return n, err
}

// SuggestGasPrice returns the node's legacy gas price suggestion.
func (p *Provider) SuggestGasPrice(ctx context.Context) (*big.Int, error) {
	var v *big.Int
	err := p.do(ctx, "gas price", func(ctx context.Context, e *endpoint) (err error) {
		v, err = e.ec.SuggestGasPrice(ctx)
		return err
	})
	return v, err
}

// SuggestGasTip returns the node's EIP-1559 priority fee suggestion.
func (p *Provider) SuggestGasTip(ctx context.Context) (*big.Int, error) {
	var v *big.Int
	err := p.do(ctx, "gas tip", func(ctx context.Context, e *endpoint) (err error) {
		v, err = e.ec.SuggestGasTipCap(ctx)
		return err
	})
	return v, err
}

// EstimateGas estimates the gas msg needs at the latest state. A call
// that would revert returns a *RevertError.
func (p *Provider) EstimateGas(ctx context.Context, msg ethereum.CallMsg) (uint64, error) {
	var g uint64
	err := p.do(ctx, "estimate gas", func(ctx context.Context, e *endpoint) (err error) {
		g, err = e.ec.EstimateGas(ctx, msg)
		return err
	})
	return g, err
}

// SendTransaction broadcasts a signed transaction. Sending it again,
// after a retry or to another endpoint, is safe: it is the same signed
// transaction, so at most one is ever mined. An endpoint that already has
// it ("already known"), or that refuses its nonce as too low while it
// knows the transaction by hash (an earlier attempt reached the chain),
// counts as success. It signs nothing: a Wallet's key is reachable only
// through Wallet.Send.
func (p *Provider) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	return p.do(ctx, "send transaction", func(ctx context.Context, e *endpoint) error {
		err := e.ec.SendTransaction(ctx, tx)
		var re rpc.Error
		if err == nil || !errors.As(err, &re) {
			return err
		}
		switch msg := strings.ToLower(re.Error()); {
		case strings.Contains(msg, "already known"):
			return nil
		case strings.Contains(msg, "nonce too low"):
			if known, _, lookErr := e.ec.TransactionByHash(ctx, tx.Hash()); lookErr == nil && known != nil && known.Hash() == tx.Hash() {
				return nil
			}
		}
		return err
	})
}

// TransactionKnown reports whether the node knows the transaction hash,
// pending or mined.
func (p *Provider) TransactionKnown(ctx context.Context, hash common.Hash) (bool, error) {
	var known bool
	err := p.do(ctx, "transaction by hash", func(ctx context.Context, e *endpoint) error {
		tx, _, err := e.ec.TransactionByHash(ctx, hash)
		switch {
		case errors.Is(err, ethereum.NotFound):
			known = false
			return nil
		case err != nil:
			return err
		}
		known = tx != nil && tx.Hash() == hash
		return nil
	})
	return known, err
}

// Receipt returns the receipt of a mined transaction, or ethereum.NotFound.
func (p *Provider) Receipt(ctx context.Context, hash common.Hash) (*types.Receipt, error) {
	var r *types.Receipt
	err := p.do(ctx, "receipt", func(ctx context.Context, e *endpoint) (err error) {
		r, err = e.ec.TransactionReceipt(ctx, hash)
		return err
	})
	if err != nil {
		if errors.Is(err, ethereum.NotFound) {
			return nil, ethereum.NotFound
		}
		return nil, err
	}
	p.sawBlock(r.BlockNumber)
	return r, nil
}

// WaitReceipt polls for the receipt of hash until it is mined and the
// node's latest block has reached the receipt's block (so reads made next
// see the transaction's effects), or ctx ends. Polling starts at 2 ms and
// backs off to PollMax.
func (p *Provider) WaitReceipt(ctx context.Context, hash common.Hash) (*types.Receipt, error) {
	start := time.Now()
	defer func() { p.waited.Add(int64(time.Since(start))) }()
	wait := p.cfg.PollMin
	t := time.NewTimer(0)
	defer t.Stop()
	var r *types.Receipt
	for {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("wait for receipt of %s: %w", hash, ctx.Err())
		case <-t.C:
		}
		if r == nil {
			var err error
			r, err = p.Receipt(ctx, hash)
			if err != nil && !errors.Is(err, ethereum.NotFound) && !retryable(err) {
				return nil, fmt.Errorf("wait for receipt of %s: %w", hash, err)
			}
		}
		if r != nil {
			p.sawBlock(r.BlockNumber)
			if h, err := p.HeaderLatest(ctx); err == nil && h.Number.Cmp(r.BlockNumber) >= 0 {
				if p.settled != nil {
					p.settled()
				}
				return r, nil
			}
		}
		t.Reset(wait)
		wait = min(wait*2, p.cfg.PollMax)
	}
}

// HeaderLatest returns the latest block header, reusing one fetched less
// than HeaderTTL ago; with a pinned ctx (see Pin), the pinned block's.
func (p *Provider) HeaderLatest(ctx context.Context) (*types.Header, error) {
	if n, ok := Pinned(ctx, p.chainID); ok {
		return p.HeaderByNumber(ctx, n)
	}
	p.mu.Lock()
	if p.latest != nil && time.Since(p.latestAt) < p.cfg.HeaderTTL {
		h := types.CopyHeader(p.latest)
		p.mu.Unlock()
		return h, nil
	}
	p.mu.Unlock()
	var h *types.Header
	if err := p.do(ctx, "latest header", func(ctx context.Context, e *endpoint) (err error) {
		h, err = e.ec.HeaderByNumber(ctx, nil)
		return err
	}); err != nil {
		return nil, err
	}
	p.mu.Lock()
	if p.latest == nil || h.Number.Cmp(p.latest.Number) >= 0 {
		p.latest, p.latestAt = h, time.Now()
	}
	p.headers.Add(h.Number.Uint64(), h)
	p.mu.Unlock()
	return types.CopyHeader(h), nil
}

// HeaderByNumber returns the header of block n, from the LRU when it has
// been fetched before.
func (p *Provider) HeaderByNumber(ctx context.Context, n uint64) (*types.Header, error) {
	p.mu.Lock()
	h, ok := p.headers.Get(n)
	p.mu.Unlock()
	if ok {
		return types.CopyHeader(h), nil
	}
	if err := p.do(ctx, "header", func(ctx context.Context, e *endpoint) (err error) {
		h, err = e.ec.HeaderByNumber(ctx, new(big.Int).SetUint64(n))
		return err
	}); err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.headers.Add(n, h)
	p.mu.Unlock()
	return types.CopyHeader(h), nil
}

// sawBlock drops the cached latest header when block n is newer.
func (p *Provider) sawBlock(n *big.Int) {
	if n == nil {
		return
	}
	p.mu.Lock()
	if p.latest != nil && n.Cmp(p.latest.Number) > 0 {
		p.latest = nil
	}
	p.mu.Unlock()
}

// forgetLatest drops the cached latest header (the dev chain calls it
// after mining a block).
func (p *Provider) forgetLatest() {
	p.mu.Lock()
	p.latest = nil
	p.mu.Unlock()
}

// account fetches the nonce, balance and code of addr at block in one
// batch request.
func (p *Provider) account(ctx context.Context, addr common.Address, block uint64) (uint64, *big.Int, []byte, error) {
	var (
		nonce hexutil.Uint64
		bal   hexutil.Big
		code  hexutil.Bytes
		num   = hexutil.EncodeUint64(block)
	)
	err := p.do(ctx, "account", func(ctx context.Context, e *endpoint) error {
		batch := []rpc.BatchElem{
			{Method: "eth_getTransactionCount", Args: []any{addr, num}, Result: &nonce},
			{Method: "eth_getBalance", Args: []any{addr, num}, Result: &bal},
			{Method: "eth_getCode", Args: []any{addr, num}, Result: &code},
		}
		if err := e.rpc.BatchCallContext(ctx, batch); err != nil {
			return err
		}
		for _, b := range batch {
			if b.Error != nil {
				return b.Error
			}
		}
		return nil
	})
	if err != nil {
		return 0, nil, nil, err
	}
	return uint64(nonce), (*big.Int)(&bal), code, nil
}

// storageAt fetches one storage slot of addr at block.
func (p *Provider) storageAt(ctx context.Context, addr common.Address, slot common.Hash, block uint64) (common.Hash, error) {
	var v common.Hash
	err := p.do(ctx, "storage", func(ctx context.Context, e *endpoint) error {
		b, err := e.ec.StorageAt(ctx, addr, slot, new(big.Int).SetUint64(block))
		if err != nil {
			return err
		}
		v = common.BytesToHash(b)
		return nil
	})
	return v, err
}
