package uniswap

import (
	"encoding/hex"
	"math/big"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
)

// TestConnectors checks where two-hop routes may pass: WETH and the
// configured priced tokens, in that order, never the trade's own tokens
// or an unpriced token, at most maxConnectors.
func TestConnectors(t *testing.T) {
	a := func(b byte) common.Address { return common.Address{b} }
	feed := a(0xfe)
	env := &native.Env{
		Venues: native.Venues{WETH: a(1)},
		Tokens: []native.Token{
			{Address: a(2), Feed: feed}, {Address: a(3)}, {Address: a(4), Feed: feed},
			{Address: a(1), Feed: feed}, {Address: a(5), Feed: feed}, {Address: a(6), Feed: feed}, {Address: a(7), Feed: feed},
		},
	}
	for _, tc := range []struct {
		name    string
		in, out common.Address
		want    []common.Address
	}{
		{"WETH first, unpriced and duplicate skipped, bounded", a(9), a(8), []common.Address{a(1), a(2), a(4), a(5)}},
		{"the trade's tokens are not connectors", a(1), a(2), []common.Address{a(4), a(5), a(6), a(7)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := connectorsOf(env, tc.in, tc.out); !slices.Equal(got, tc.want) {
				t.Errorf("connectors = %v, want %v", got, tc.want)
			}
		})
	}
	if got := connectorsOf(&native.Env{}, a(1), a(2)); len(got) != 0 {
		t.Errorf("connectors with nothing configured = %v, want none", got)
	}
}

// TestV3Path checks the packed path against the layout the router and
// quoter read: token, 3-byte fee, token; reversed for exact outputs.
func TestV3Path(t *testing.T) {
	x, y, z := common.Address{0xaa}, common.Address{0xbb}, common.Address{0xcc}
	got := hex.EncodeToString(v3Path([]common.Address{x, y, z}, []int64{500, 3000}, false))
	want := hex.EncodeToString(x[:]) + "0001f4" + hex.EncodeToString(y[:]) + "000bb8" + hex.EncodeToString(z[:])
	if got != want {
		t.Errorf("forward path %s, want %s", got, want)
	}
	got = hex.EncodeToString(v3Path([]common.Address{x, y, z}, []int64{500, 3000}, true))
	want = hex.EncodeToString(z[:]) + "000bb8" + hex.EncodeToString(y[:]) + "0001f4" + hex.EncodeToString(x[:])
	if got != want {
		t.Errorf("reversed path %s, want %s", got, want)
	}
}

func TestSlippageMax(t *testing.T) {
	for _, tc := range []struct{ x, bps, want int64 }{{10000, 50, 10050}, {1, 50, 2}, {0, 50, 0}, {199, 0, 199}} {
		if got := slippageMax(big.NewInt(tc.x), tc.bps); got.Int64() != tc.want {
			t.Errorf("slippageMax(%d, %d) = %s, want %d", tc.x, tc.bps, got, tc.want)
		}
	}
}
