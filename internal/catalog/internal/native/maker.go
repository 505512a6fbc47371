package native

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

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
