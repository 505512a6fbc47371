// Package identity answers Stage 1's question "is this agent registered?"
// from an ERC-8004 ("Trustless Agents") identity registry on chain, and
// combines that answer with the operator's local registry.
//
// An ERC-8004 identity registry is an ERC-721: each agent identity is a
// token, and an address is a registered agent when it owns one. The
// registry here uses only that ERC-721 surface, so any compliant registry
// works. The exact calls are:
//
//   - eth_getCode(registry, "latest"), until it has once returned code: a
//     registry address without code is ErrNoCode, never an empty answer;
//   - eth_call({to: registry, data: 0x70a08231 ‖ uint256(agent)},
//     "latest"), that is balanceOf(address): the agent is known when the
//     32-byte answer is above zero.
//
// ownerOf(uint256) and the registry's metadata (agent wallets, token URIs)
// are not read: an entry names its signer's address, not a token id.
//
// A registry that cannot answer (an RPC failure, a revert, a reply that is
// not one 32-byte word) returns an error, never "known" or "unknown":
// Stage 1 then leaves the entry undecided. Answers are cached per address,
// positive ones longer than negative ones, so a stranger that registers is
// seen soon and a known agent costs one call per TTL.
package identity

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/quarantine"
	"github.com/wardhq/ward/internal/tool"
)

// CallReader reads contract state at the latest block; *chain.Provider
// satisfies it.
type CallReader interface {
	// Call executes msg against the latest block without a transaction.
	Call(ctx context.Context, msg ethereum.CallMsg) ([]byte, error)
	// Code returns the code at addr at the latest block.
	Code(ctx context.Context, addr common.Address) ([]byte, error)
}

// Defaults of ERC8004Config.
const (
	DefaultPositiveTTL = 5 * time.Minute
	DefaultNegativeTTL = 30 * time.Second
	DefaultCacheSize   = 4096
	DefaultTimeout     = 10 * time.Second
)

// ERC8004Config configures an ERC8004Registry. The zero value uses the
// defaults.
type ERC8004Config struct {
	// PositiveTTL is how long a registered agent is remembered as known
	// (0: DefaultPositiveTTL). A token burnt or transferred away is seen
	// after at most this long.
	PositiveTTL time.Duration
	// NegativeTTL is how long an unregistered address is remembered as
	// unknown (0: DefaultNegativeTTL); it is capped at PositiveTTL.
	NegativeTTL time.Duration
	// CacheSize bounds the addresses remembered, least recently used
	// evicted first (0: DefaultCacheSize).
	CacheSize int
	// Timeout bounds the calls of one Known (0: DefaultTimeout).
	Timeout time.Duration
}

// ErrNoCode is returned when the registry address holds no contract (a
// wrong address, or a registry on another chain than the provider's).
var ErrNoCode = errors.New("no contract code at the registry address")

// balanceOf is the selector of ERC-721 balanceOf(address).
var balanceOf = [4]byte{0x70, 0xa0, 0x82, 0x31}

// ERC8004Registry is a quarantine.Registry backed by an ERC-8004 identity
// registry contract: an address is known when balanceOf(address) > 0 at
// the latest block. It is safe for concurrent use.
type ERC8004Registry struct {
	r        CallReader
	registry common.Address
	cfg      ERC8004Config
	now      func() time.Time // the cache's clock; tests replace it

	hasCode atomic.Bool // the registry address was seen with code

	mu    sync.Mutex
	cache *cache
}

var _ quarantine.Registry = (*ERC8004Registry)(nil)

// NewERC8004Registry returns a registry reading the ERC-8004 identity
// registry at registry through r. It makes no call: the contract is
// looked for on first use, or by Verify.
func NewERC8004Registry(r CallReader, registry common.Address, cfg ERC8004Config) (*ERC8004Registry, error) {
	if r == nil {
		return nil, errors.New("identity: erc-8004 registry: a call reader is required")
	}
	if registry == (common.Address{}) {
		return nil, errors.New("identity: erc-8004 registry: the registry address is the zero address")
	}
	if cfg.PositiveTTL < 0 || cfg.NegativeTTL < 0 || cfg.CacheSize < 0 || cfg.Timeout < 0 {
		return nil, errors.New("identity: erc-8004 registry: negative ttl, cache size or timeout")
	}
	if cfg.PositiveTTL == 0 {
		cfg.PositiveTTL = DefaultPositiveTTL
	}
	if cfg.NegativeTTL == 0 {
		cfg.NegativeTTL = DefaultNegativeTTL
	}
	cfg.NegativeTTL = min(cfg.NegativeTTL, cfg.PositiveTTL)
	if cfg.CacheSize == 0 {
		cfg.CacheSize = DefaultCacheSize
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	return &ERC8004Registry{r: r, registry: registry, cfg: cfg, now: time.Now, cache: newCache(cfg.CacheSize)}, nil
}

// Address returns the registry contract's address.
func (g *ERC8004Registry) Address() common.Address { return g.registry }

// Verify checks that the registry address holds a contract at the latest
// block: an error wrapping ErrNoCode if not, or the RPC failure. Once it
// has succeeded it is not repeated.
func (g *ERC8004Registry) Verify(ctx context.Context) error {
	if g.hasCode.Load() {
		return nil
	}
	code, err := g.r.Code(ctx, g.registry)
	if err != nil {
		return fmt.Errorf("identity: erc-8004 registry %s: code: %w", g.registry.Hex(), err)
	}
	if len(code) == 0 {
		return fmt.Errorf("identity: erc-8004 registry %s: %w", g.registry.Hex(), ErrNoCode)
	}
	g.hasCode.Store(true)
	return nil
}

// Known reports whether address (0x-hex, either case) owns an identity
// token; a malformed address is not known. A cached answer is returned
// without a call. An error means the registry could not answer: no code at
// the registry address (ErrNoCode), an RPC failure, a revert or a reply
// that is not one 32-byte word; errors are not cached.
func (g *ERC8004Registry) Known(ctx context.Context, address string) (bool, error) {
	a, ok := parseAddress(address)
	if !ok {
		return false, nil
	}
	start := g.now()
	g.mu.Lock()
	known, hit := g.cache.get(a, start)
	g.mu.Unlock()
	if hit {
		return known, nil
	}
	ctx, cancel := context.WithTimeout(ctx, g.cfg.Timeout)
	defer cancel()
	if err := g.Verify(ctx); err != nil {
		return false, err
	}
	n, err := g.balanceOf(ctx, a)
	if err != nil {
		return false, err
	}
	known = n.Sign() > 0
	ttl := g.cfg.NegativeTTL
	if known {
		ttl = g.cfg.PositiveTTL
	}
	g.mu.Lock()
	g.cache.put(a, known, start.Add(ttl))
	g.mu.Unlock()
	return known, nil
}

// balanceOf calls balanceOf(owner) on the registry.
func (g *ERC8004Registry) balanceOf(ctx context.Context, owner common.Address) (*big.Int, error) {
	data := make([]byte, 4+32)
	copy(data, balanceOf[:])
	copy(data[4+12:], owner[:])
	out, err := g.r.Call(ctx, ethereum.CallMsg{To: &g.registry, Data: data})
	if err != nil {
		return nil, fmt.Errorf("identity: erc-8004 registry %s: balanceOf(%s): %w", g.registry.Hex(), owner.Hex(), err)
	}
	if len(out) != 32 {
		return nil, fmt.Errorf("identity: erc-8004 registry %s: balanceOf(%s) returned %d bytes, want 32 (not an ERC-721?)",
			g.registry.Hex(), owner.Hex(), len(out))
	}
	return new(big.Int).SetBytes(out), nil
}

// parseAddress parses s with tool.ParseAddress, as go-ethereum's type.
func parseAddress(s string) (common.Address, bool) {
	a, err := tool.ParseAddress(s)
	if err != nil {
		return common.Address{}, false
	}
	return common.Address(a), true
}

// cache is a least-recently-used map of answers with expiry times. It is
// not safe for concurrent use.
type cache struct {
	size  int
	order *list.List // of *answer, most recently used first
	byKey map[common.Address]*list.Element
}

type answer struct {
	addr    common.Address
	known   bool
	expires time.Time
}

func newCache(size int) *cache {
	return &cache{size: size, order: list.New(), byKey: make(map[common.Address]*list.Element)}
}

// get returns the answer for a if it has not expired at now.
func (c *cache) get(a common.Address, now time.Time) (known, ok bool) {
	el, ok := c.byKey[a]
	if !ok {
		return false, false
	}
	ans := el.Value.(*answer)
	if !now.Before(ans.expires) {
		c.order.Remove(el)
		delete(c.byKey, a)
		return false, false
	}
	c.order.MoveToFront(el)
	return ans.known, true
}

// put records the answer for a until expires, evicting the least recently
// used answer beyond the size.
func (c *cache) put(a common.Address, known bool, expires time.Time) {
	if el, ok := c.byKey[a]; ok {
		*el.Value.(*answer) = answer{addr: a, known: known, expires: expires}
		c.order.MoveToFront(el)
		return
	}
	c.byKey[a] = c.order.PushFront(&answer{addr: a, known: known, expires: expires})
	if c.order.Len() > c.size {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*answer).addr)
	}
}
