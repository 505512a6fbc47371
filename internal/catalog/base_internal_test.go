package catalog

import (
	"math"
	"testing"
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
