package native

import (
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

func inputOf(t *testing.T, args string) *registry.Input {
	t.Helper()
	a, err := tool.ParseArgs([]byte(args))
	if err != nil {
		t.Fatalf("ParseArgs(%s): %v", args, err)
	}
	return &registry.Input{Args: a, Step: func(int) {}}
}

func TestHeld(t *testing.T) {
	bal := big.NewInt(5_000_000)
	for _, c := range []struct {
		name    string
		amount  *big.Int
		bal     *big.Int
		want    *big.Int
		wantErr string
	}{
		{"max is the balance", nil, bal, bal, ""},
		{"part", big.NewInt(1_000_000), bal, big.NewInt(1_000_000), ""},
		{"all", big.NewInt(5_000_000), bal, bal, ""},
		{"max of nothing", nil, new(big.Int), nil, "the wallet holds no PT of this market"},
		{"zero of nothing", new(big.Int), new(big.Int), nil, "the wallet holds no PT of this market"},
		{"zero", new(big.Int), bal, nil, "amount must be greater than 0"},
		{"over", big.NewInt(5_000_001), bal, nil, "the wallet holds 5 PT but the action needs 5.000001"},
		{"some of nothing", big.NewInt(1), new(big.Int), nil, "the wallet holds 0 PT but the action needs 0.000001"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Held(c.amount, c.bal, "PT", 6, "PT of this market")
			if c.wantErr != "" {
				if err == nil || err.Error() != c.wantErr {
					t.Fatalf("Held err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil || got.Cmp(c.want) != 0 {
				t.Fatalf("Held = %v, %v; want %v", got, err, c.want)
			}
		})
	}
}

func TestArgsPositiveOrMax(t *testing.T) {
	for _, c := range []struct {
		name    string
		args    string
		want    *big.Int // nil: "max"
		wantErr bool
	}{
		{"amount", `{"amount":"12"}`, big.NewInt(12), false},
		{"max", `{"amount":"max"}`, nil, false},
		{"zero", `{"amount":"0"}`, nil, true},
		{"missing", `{}`, nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := ArgsOf(inputOf(t, c.args))
			got := a.PositiveOrMax("amount")
			if err := a.Err(); (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			if c.wantErr {
				return
			}
			if (got == nil) != (c.want == nil) || got != nil && got.Cmp(c.want) != 0 {
				t.Errorf("PositiveOrMax = %v, want %v", got, c.want)
			}
		})
	}
}

func TestArgsWallet(t *testing.T) {
	t.Run("no wallet", func(t *testing.T) {
		a := ArgsOf(inputOf(t, `{}`))
		if got := a.Wallet(&Env{}); got != (common.Address{}) || !errors.Is(a.Err(), errNoWallet) {
			t.Errorf("Wallet = %s, %v; want the zero address and errNoWallet", got.Hex(), a.Err())
		}
	})
	t.Run("an argument failed first", func(t *testing.T) {
		a := ArgsOf(inputOf(t, `{"amount":"0"}`))
		a.Positive("amount")
		a.Wallet(&Env{})
		if err := a.Err(); err == nil || errors.Is(err, errNoWallet) {
			t.Errorf("err = %v, want the amount's", err)
		}
	})
}

func TestLendingFormats(t *testing.T) {
	for _, c := range []struct{ name, got, want string }{
		{"infinite health", FormatHealth(nil), "infinite"},
		{"no debt as Aave reports it", FormatHealth(MaxUint256), "infinite"},
		{"health 1.5", FormatHealth(big.NewInt(15e17)), "1.5"},
		{"health change", HealthChange(nil, big.NewInt(2e18)), " (health factor infinite -> 2)"},
		{"wad percent", WadPercent(big.NewInt(86e16)), "86"},
		{"wad string", WadString(big.NewInt(1_050_000_000_000_000_000)), "1.05"},
		{"hexes", Hexes([]common.Address{{1}, {2}}), common.Address{1}.Hex() + ", " + common.Address{2}.Hex()},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
	if got := MulDiv(big.NewInt(7), big.NewInt(3), big.NewInt(2)); got.Int64() != 10 {
		t.Errorf("MulDiv(7, 3, 2) = %v, want 10 (rounded down)", got)
	}
}

func TestStructField(t *testing.T) {
	v := struct{ Amount *big.Int }{big.NewInt(3)}
	if got, _ := StructField(v, "Amount").(*big.Int); got == nil || got.Int64() != 3 {
		t.Errorf("StructField(Amount) = %v, want 3", got)
	}
	if got := StructField(v, "Missing"); got != nil {
		t.Errorf("StructField(Missing) = %v, want nil", got)
	}
	if got := StructField(42, "Amount"); got != nil {
		t.Errorf("StructField of a non-struct = %v, want nil", got)
	}
}

func TestLazyABIParseError(t *testing.T) {
	bad := NewABI(`[{"type":"function"`)
	if _, err := bad.Tx(common.Address{}, "x", "x"); err == nil {
		t.Error("Tx with an unparsable ABI: no error")
	}
	good := NewABI(`[{"type":"function","name":"ping","stateMutability":"nonpayable","inputs":[{"name":"n","type":"uint256"}],"outputs":[]}]`)
	tx, err := good.Tx(common.Address{9}, "ping it", "ping", big.NewInt(1))
	if err != nil || tx.Label != "ping it" || tx.To != tool.Address(common.Address{9}) || len(tx.Data) != 4+32 {
		t.Errorf("Tx = %+v, %v; want a packed ping call to 0x09...", tx, err)
	}
}
