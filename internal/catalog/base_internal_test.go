package catalog

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

func TestImpermanentLossV2(t *testing.T) {
	for _, c := range []struct {
		name  string
		ratio float64
		want  float64
	}{
		{"unchanged", 1, 0},
		{"4x up", 4, -0.2},
		{"4x down", 0.25, -0.2},
		{"2x up", 2, 2*math.Sqrt2/3 - 1},
		{"10x up", 10, 2*math.Sqrt(10)/11 - 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := impermanentLossV2(c.ratio); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("impermanentLossV2(%v) = %v, want %v", c.ratio, got, c.want)
			}
		})
	}
}

func TestUSDCents(t *testing.T) {
	usd8 := Price{Answer: big.NewInt(1e8), Decimals: 8}
	for _, c := range []struct {
		name     string
		amount   *big.Int
		decimals uint8
		p        Price
		want     int64
		ok       bool
	}{
		{"1000 USDC", big.NewInt(1_000_000_000), 6, usd8, 100_000, true},
		{"dust rounds down", big.NewInt(9_999), 6, usd8, 0, true},
		{"1.5 ETH at 3000", new(big.Int).Mul(big.NewInt(15), big.NewInt(1e17)), 18, Price{Answer: big.NewInt(3000e8), Decimals: 8}, 450_000, true},
		{"overflow", new(big.Int).Lsh(big.NewInt(1), 255), 6, usd8, 0, false},
		{"zero answer", big.NewInt(1), 6, Price{Answer: new(big.Int), Decimals: 8}, 0, false},
		{"negative answer", big.NewInt(1), 6, Price{Answer: big.NewInt(-1), Decimals: 8}, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := usdCents(c.amount, c.decimals, c.p)
			if got != c.want || ok != c.ok {
				t.Errorf("usdCents = %d, %v; want %d, %v", got, ok, c.want, c.ok)
			}
		})
	}
}

func TestPermitDigestAndRecover(t *testing.T) {
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("catalog permit test")))
	if err != nil {
		t.Fatal(err)
	}
	owner := crypto.PubkeyToAddress(key.PublicKey)
	var sep [32]byte
	copy(sep[:], crypto.Keccak256([]byte("domain")))
	spender := common.HexToAddress("0x1111111111111111111111111111111111111111")
	digest := permitDigest(sep, owner, spender, big.NewInt(5), big.NewInt(0), big.NewInt(1<<40))
	sig, err := crypto.Sign(digest, key) // v is 0 or 1
	if err != nil {
		t.Fatal(err)
	}
	sig27 := bytes.Clone(sig)
	sig27[64] += 27
	for _, c := range []struct {
		name    string
		digest  []byte
		sig     []byte
		want    common.Address
		wantErr bool
		differs bool
	}{
		{"v 0/1", digest, sig, owner, false, false},
		{"v 27/28", digest, sig27, owner, false, false},
		{"other digest", permitDigest(sep, owner, spender, big.NewInt(6), big.NewInt(0), big.NewInt(1<<40)), sig27, owner, false, true},
		{"short", digest, sig[:64], common.Address{}, true, false},
		{"bad v", digest, append(bytes.Clone(sig[:64]), 29), common.Address{}, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := recoverSigner(c.digest, c.sig)
			switch {
			case c.wantErr:
				if err == nil {
					t.Errorf("recovered %s, want an error", got)
				}
			case err != nil:
				t.Errorf("recover: %v", err)
			case (got == c.want) == c.differs:
				t.Errorf("recovered %s, owner %s, want differs=%v", got, c.want, c.differs)
			}
		})
	}
	// The digest is EIP-712's: keccak(0x1901 ‖ separator ‖ struct hash).
	structHash := crypto.Keccak256(permitTypeHash, common.LeftPadBytes(owner[:], 32), common.LeftPadBytes(spender[:], 32),
		common.LeftPadBytes([]byte{5}, 32), make([]byte, 32), common.LeftPadBytes(big.NewInt(1<<40).Bytes(), 32))
	if want := crypto.Keccak256([]byte{0x19, 0x01}, sep[:], structHash); !bytes.Equal(digest, want) {
		t.Errorf("digest %x, want %x", digest, want)
	}
}

func FuzzRecoverSigner(f *testing.F) {
	f.Add(make([]byte, 32), make([]byte, 65))
	f.Add(bytes.Repeat([]byte{0xff}, 32), bytes.Repeat([]byte{0xff}, 65))
	f.Fuzz(func(t *testing.T, digest, sig []byte) {
		if len(digest) != 32 {
			return
		}
		_, _ = recoverSigner(digest, sig) // must not panic
	})
}

func TestSymbolChecks(t *testing.T) {
	for _, c := range []struct {
		sym       string
		printable bool
		fold      string
	}{
		{"USDC", true, "USDC"},
		{"usdc", true, "USDC"},
		{"USDС", false, "USDC"}, // Cyrillic Es
		{"WΕTH", false, "WETH"}, // Greek Epsilon
		{"W0ETH", true, "WOETH"},
		{"UNI-V2", true, "UNIV2"},
		{"", false, ""},
		{"VERYLONGSYMBOL", false, "VERYLONGSYMBOL"},
		{"US DC", false, "USDC"},
		{"USDC\u200b", false, "USDC"},
	} {
		t.Run(c.sym, func(t *testing.T) {
			if got := printableSymbol(c.sym); got != c.printable {
				t.Errorf("printableSymbol(%q) = %v, want %v", c.sym, got, c.printable)
			}
			if got := foldSymbol(c.sym); got != c.fold {
				t.Errorf("foldSymbol(%q) = %q, want %q", c.sym, got, c.fold)
			}
		})
	}
	if printableText("Circle USD\x07") || !printableText("Wrapped Ether") {
		t.Error("printableText misjudges control characters")
	}
}

func FuzzSymbolChecks(f *testing.F) {
	for _, s := range []string{"USDC", "USDС", "\xff\xfe", "\u202eCDSU"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if printableSymbol(s) && foldSymbol(s) == "" && s != "" {
			// A printable symbol of only punctuation folds to nothing.
			for _, r := range s {
				if r != '.' && r != '-' && r != '_' && r != '+' {
					t.Fatalf("printable symbol %q folds to nothing", s)
				}
			}
		}
		_ = printableText(s)
	})
}

func TestDeviationBps(t *testing.T) {
	for _, c := range []struct {
		obs, ref string
		want     float64
	}{
		{"2940", "3000", 200},
		{"3060", "3000", 200},
		{"3000", "3000", 0},
		{"1", "0.5", 10000},
	} {
		o, _ := ratDecimal(c.obs)
		r, _ := ratDecimal(c.ref)
		if got := deviationBps(o, r); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("deviationBps(%s, %s) = %v, want %v", c.obs, c.ref, got, c.want)
		}
	}
}

func testInput(t *testing.T, args string) *registry.Input {
	t.Helper()
	a, err := tool.ParseArgs([]byte(args))
	if err != nil {
		t.Fatal(err)
	}
	return &registry.Input{Args: a, Raw: json.RawMessage(args), Now: time.Now(), Step: func(int) {}}
}

func TestPermitDeadline(t *testing.T) {
	const block = 1_000_000
	for _, c := range []struct {
		args    string
		want    int64
		wantErr bool
	}{
		{`{}`, block + 3600, false},
		{`{"valid_for_seconds":60}`, block + 60, false},
		{`{"deadline":"1000500"}`, 1_000_500, false},
		{`{"deadline":"1000000"}`, 0, true},
		{`{"deadline":"999999"}`, 0, true},
		{`{"deadline":"3592001"}`, 0, true},
		{`{"deadline":"1000500","valid_for_seconds":60}`, 0, true},
	} {
		t.Run(c.args, func(t *testing.T) {
			got, err := permitDeadline(testInput(t, c.args), block)
			if c.wantErr {
				if err == nil {
					t.Errorf("deadline %s, want an error", got)
				}
				return
			}
			if err != nil || got.Int64() != c.want {
				t.Errorf("deadline %v, %v; want %d", got, err, c.want)
			}
		})
	}
}

func TestCompareNativeGas(t *testing.T) {
	eth := common.Address{}
	weth := common.HexToAddress("0x2222222222222222222222222222222222222222")
	gas := big.NewInt(1_000)
	amount := big.NewInt(1_000_000)
	unwrap := &tool.Plan{Tokens: []tool.TokenUse{
		{Token: tool.Address(weth), Amount: amount, Out: true},
		{Token: tool.Address(eth), Amount: amount},
	}}
	tokens := []common.Address{weth, eth}
	before := []*big.Int{big.NewInt(5_000_000), big.NewInt(9_000_000)}
	for _, c := range []struct {
		name     string
		after    []*big.Int
		verified bool
	}{
		{"exact less gas", []*big.Int{big.NewInt(4_000_000), big.NewInt(9_000_000 + 1_000_000 - 1_000)}, true},
		{"short of gas", []*big.Int{big.NewInt(4_000_000), big.NewInt(9_000_000 + 1_000_000 - 1_001)}, false},
		{"took more WETH", []*big.Int{big.NewInt(3_999_999), big.NewInt(10_000_000)}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, _, ok := compare(unwrap, tokens, before, c.after, gas); ok != c.verified {
				t.Errorf("verified = %v, want %v", ok, c.verified)
			}
		})
	}
}
