package native

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// writeWith returns a maker of a write tool with its own write handler
// (registered only with a wallet). The handler must consume the
// capability before any effect, as execute does through Wallet.Send.
func WriteWith(d *tool.Def, action, venue string, plan func(env *Env) registry.Planner, handler func(env *Env, d *tool.Def) registry.WriteHandler) MakerFunc {
	require(d, tool.NeedsWallet)
	return func(env *Env) (registry.Tool, bool) {
		if env.Wallet == nil || env.Chain == nil {
			return registry.Tool{}, false
		}
		return registry.Tool{Def: d, Action: action, Venue: venue, Plan: plan(env), Write: handler(env, d)}, true
	}
}

// devWrite returns a maker of a testnet write tool: registered only on
// the dev chain, with a wallet. Its handler consumes the capability and
// then acts through the dev chain's operator.
func DevWrite(d *tool.Def, action, venue string, plan func(env *Env) registry.Planner, handler func(env *Env, d *tool.Def) registry.WriteHandler) MakerFunc {
	mk := WriteWith(d, action, venue, plan, handler)
	return func(env *Env) (registry.Tool, bool) {
		if env.Dev == nil {
			return registry.Tool{}, false
		}
		return mk(env)
	}
}

// when registers mk's tool only where ok(env) holds.
func When(ok func(env *Env) bool, mk MakerFunc) MakerFunc {
	return func(env *Env) (registry.Tool, bool) {
		if !ok(env) {
			return registry.Tool{}, false
		}
		return mk(env)
	}
}

// walletRead returns a maker of a read tool about the wallet itself:
// registered only with a wallet.
func WalletRead(d *tool.Def, action string, h func(env *Env) registry.ReadHandler) MakerFunc {
	require(d, tool.NeedsWallet)
	mk := Read(d, action, h)
	return func(env *Env) (registry.Tool, bool) {
		if env.Wallet == nil {
			return registry.Tool{}, false
		}
		return mk(env)
	}
}

// simRead returns a maker of a read tool that needs the simulator.
func SimRead(d *tool.Def, action string, h func(env *Env) registry.ReadHandler) MakerFunc {
	mk := Read(d, action, h)
	return func(env *Env) (registry.Tool, bool) {
		if env.Sim == nil {
			return registry.Tool{}, false
		}
		return mk(env)
	}
}

// pure returns a maker of a read tool that computes without the chain:
// always registered.
func Pure(d *tool.Def, action string, h func(env *Env) registry.ReadHandler) MakerFunc {
	return func(env *Env) (registry.Tool, bool) {
		return registry.Tool{Def: d, Action: action, Read: h(env)}, true
	}
}

// requiresMu serialises require: the makers run whenever Tools is called.
var requiresMu sync.Mutex

// require adds r to d's requirements once (Tools may build the catalogue
// many times).
func require(d *tool.Def, r tool.Requirement) {
	requiresMu.Lock()
	defer requiresMu.Unlock()
	if !slices.Contains(d.Requires, r) {
		d.Requires = append(d.Requires, r)
	}
}

// checkChain refuses a call whose chain_id argument names another chain
// than the one ward is connected to.
func CheckChain(env *Env, in *registry.Input) error {
	v, ok := in.Args.Get("chain_id")
	if !ok {
		return nil
	}
	id, err := v.Int()
	if err != nil || id <= 0 || uint64(id) != env.Chain.ChainID() {
		return fmt.Errorf("chain_id is not supported here: ward is connected to chain %d", env.Chain.ChainID())
	}
	return nil
}

// head returns the latest block header.
func Head(ctx context.Context, env *Env) (*types.Header, error) {
	h, err := env.Chain.HeaderLatest(ctx)
	if err != nil {
		return nil, fmt.Errorf("latest block: %w", err)
	}
	return h, nil
}

// refTime is the time a price's age is measured against: the later of
// the clock and the latest block's timestamp (a dev chain whose clock was
// advanced ages its feeds as its contracts see them).
func refTime(ctx context.Context, env *Env) time.Time {
	now := env.Clock()
	if h, err := env.Chain.HeaderLatest(ctx); err == nil {
		if bt := time.Unix(int64(h.Time), 0); bt.After(now) {
			return bt
		}
	}
	return now
}

// More property fragments.

func PBool(name, desc string) string {
	return fmt.Sprintf(`%q:{"type":"boolean","description":%q}`, name, desc)
}

func PAddresses(name, desc string, maxItems int) string {
	return fmt.Sprintf(`%q:{"type":"array","maxItems":%d,"uniqueItems":true,"items":{"type":"string","pattern":"^0x[0-9a-fA-F]{40}$"},"description":%q}`,
		name, maxItems, desc+" (0x-prefixed hex addresses)")
}

func PHex(name, desc string, maxBytes int) string {
	return fmt.Sprintf(`%q:{"type":"string","pattern":"^0x([0-9a-fA-F]{2})*$","maxLength":%d,"description":%q}`, name, 2+2*maxBytes, desc+" (0x-prefixed hex bytes)")
}

func PNumber(name, desc string, exclusiveMin, max float64) string {
	return fmt.Sprintf(`%q:{"type":"number","exclusiveMinimum":%g,"maximum":%g,"description":%q}`, name, exclusiveMin, max, desc)
}

func PDecimal(name, desc string) string {
	return fmt.Sprintf(`%q:{"type":"string","pattern":"^[0-9]{1,30}(\\.[0-9]{1,30})?$","description":%q}`, name, desc+" (decimal string, e.g. \"3012.55\")")
}

// resultSchema builds a result schema: an object with the given
// properties.
func ResultSchema(props ...string) []byte {
	return []byte(`{"type":"object","properties":{` + strings.Join(props, ",") + `}}`)
}

// rProp is one result property of a JSON type ("string", "integer",
// "number", "boolean", "array", "object").
func RProp(name, typ, desc string) string {
	return fmt.Sprintf(`%q:{"type":%q,"description":%q}`, name, typ, desc)
}

// argAddresses reads an array of addresses.
func ArgAddresses(in *registry.Input, name string) ([]common.Address, bool, error) {
	v, ok := in.Args.Get(name)
	if !ok {
		return nil, false, nil
	}
	var out []common.Address
	for i, e := range v.Elems() {
		s, _ := e.Str()
		a, err := tool.ParseAddress(s)
		if err != nil {
			return nil, true, fmt.Errorf("%s[%d]: %w", name, i, err)
		}
		out = append(out, common.Address(a))
	}
	return out, true, nil
}

func ArgFloat(in *registry.Input, name string) (float64, bool) {
	v, ok := in.Args.Get(name)
	if !ok {
		return 0, false
	}
	return v.Float()
}

func ArgBool(in *registry.Input, name string, def bool) bool {
	v, ok := in.Args.Get(name)
	if !ok {
		return def
	}
	b, ok := v.Bool()
	if !ok {
		return def
	}
	return b
}

func ArgHex(in *registry.Input, name string) ([]byte, error) {
	s := ArgString(in, name, "0x")
	var h tool.HexBytes
	if err := h.UnmarshalText([]byte(s)); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return h, nil
}
