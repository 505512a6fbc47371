package artifacts

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestLoadEveryArtifact(t *testing.T) {
	names := embedded()
	if len(names) == 0 {
		t.Fatal("embedded() is empty")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			a, err := Load(name)
			if err != nil {
				t.Fatalf("Load(%q): %v", name, err)
			}
			if a.Name != name {
				t.Errorf("Name = %q, want %q", a.Name, name)
			}
			var abi []map[string]any
			if err := json.Unmarshal(a.ABI, &abi); err != nil {
				t.Fatalf("ABI is not a JSON array: %v", err)
			}
			if len(abi) == 0 {
				t.Error("ABI is empty")
			}
			if len(a.Bytecode) == 0 || len(a.DeployedBytecode) == 0 {
				t.Errorf("len(Bytecode) = %d, len(DeployedBytecode) = %d, want both > 0", len(a.Bytecode), len(a.DeployedBytecode))
			}
			if len(a.DeployedBytecode) > 24576 {
				t.Errorf("runtime code is %d bytes, over the EIP-170 limit of 24576", len(a.DeployedBytecode))
			}
		})
	}
}

func TestLoadMissing(t *testing.T) {
	for _, name := range []string{"NoSuchContract", "", "../artifacts", "WETH9.json"} {
		t.Run(name, func(t *testing.T) {
			if _, err := Load(name); !errors.Is(err, ErrNotFound) {
				t.Errorf("Load(%q) error = %v, want ErrNotFound", name, err)
			}
		})
	}
}

func TestNamesIncludesTheDevChain(t *testing.T) {
	want := []string{
		"AToken", "ERC20Permit", "ERC4626Vault", "LiquidityHelper", "Pool", "PriceFeed", "SwapRouter",
		"UniswapV2Factory", "UniswapV2Pair", "UniswapV2Router02", "UniswapV3Factory", "UniswapV3Pool",
		"VariableDebtToken", "WETH9",
	}
	have := map[string]bool{}
	for _, n := range embedded() {
		have[n] = true
	}
	for _, n := range want {
		if !have[n] {
			t.Errorf("embedded() lacks %q", n)
		}
	}
}

// embedded returns the names of all embedded contracts, sorted.
func embedded() []string {
	entries, err := files.ReadDir(".")
	if err != nil {
		// The embedded root always exists; an error here is a build defect.
		return nil
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}
