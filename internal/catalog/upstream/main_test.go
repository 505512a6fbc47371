// Package upstream_test deploys the published bytecode of Uniswap V2, Uniswap V3 and Aave V3
// (the npm packages pinned in testdata/npm) on go-ethereum's simulated backend and runs ward's
// catalogue tools against it, so the tools are checked against the protocols themselves and not
// only against the dev chain's look-alikes. It skips when the packages are not installed.
package upstream_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/testenv"
)

// The deployment is shared by every test of the binary: TestMain builds it once.
var (
	deployed   *world
	deployErr  error
	deployTime time.Duration
)

func TestMain(m *testing.M) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	start := time.Now()
	deployed, deployErr = setUp(ctx)
	deployTime = time.Since(start)
	cancel()
	defer func() {
		if deployed != nil {
			deployed.close()
		}
	}()
	m.Run() // testing exits with its result when TestMain returns
}

// setUp starts the chain and deploys the world; it returns errNotInstalled when the npm
// packages are missing.
func setUp(ctx context.Context) (*world, error) {
	if _, err := os.Stat(nodeModules); err != nil {
		return nil, errNotInstalled
	}
	n, err := newNode(ctx)
	if err != nil {
		return nil, err
	}
	w, err := deployWorld(ctx, n)
	if err != nil {
		n.close()
		return nil, err
	}
	if err := n.mine(ctx); err != nil {
		n.close()
		return nil, err
	}
	if w.agent, err = w.connect(ctx); err != nil {
		n.close()
		return nil, err
	}
	return w, nil
}

func (w *world) close() {
	if w.agent != nil {
		w.agent.signer.Close()
	}
	if err := w.n.close(); err != nil {
		fmt.Fprintf(os.Stderr, "close simulated backend: %v\n", err)
	}
}

// need returns the deployment, failing the test when the deployment failed
// and, when the npm packages are not installed, skipping it (failing it
// under CI).
func need(t *testing.T) *world {
	t.Helper()
	if errors.Is(deployErr, errNotInstalled) {
		testenv.Missing(t, deployErr.Error())
	}
	if deployErr != nil {
		t.Fatal(deployErr)
	}
	return deployed
}

// TestDeployment reports how the deployment went and checks that the published periphery and
// core builds agree: the routers' baked-in init code hashes are those of the published pair and
// pool creation code, as on mainnet, so no bytecode had to be patched.
func TestDeployment(t *testing.T) {
	w := need(t)
	t.Logf("deployed Uniswap V2, Uniswap V3 and Aave V3 in %v", deployTime.Round(time.Millisecond))
	for _, s := range w.notes {
		t.Log(s)
	}
	if len(w.patched) > 0 {
		t.Errorf("the published periphery's init code hash differs from the published core's; patched %v", w.patched)
	}
}

// TestProtocolsWork checks the deployment with the protocols' own interfaces, independently of
// ward's tools: if one of these fails, a tool failure below says nothing about the tool.
func TestProtocolsWork(t *testing.T) {
	w := need(t)
	ctx := t.Context()
	n := w.n
	t.Run("uniswap v2 router finds the pair", func(t *testing.T) {
		out := n.call(ctx, artV2Router, w.v2Router, "getAmountsOut", units(1, 18), []common.Address{w.weth, w.usdc})
		if err := n.take(); err != nil {
			t.Fatal(err)
		}
		amounts := out[0].([]*big.Int)
		// 1 WETH into 3,000,000 USDC / 1,000 WETH at 0.3 % fee: a little under 2,991 USDC (other
		// tests' trades move the price by well under 1 %).
		if got, want := amounts[1], units(2_991, 6); !within(got, want, 100) {
			t.Errorf("getAmountsOut(1 WETH) = %s USDC base units, want about %s", got, want)
		}
		if want := create2Pair(w.v2Factory, w.usdc, w.weth, v2InitCodeHash); want != w.v2Pair {
			t.Errorf("pair at %s, Router02 computes %s", w.v2Pair, want)
		}
	})
	t.Run("uniswap v3 quoter prices the pool", func(t *testing.T) {
		type quoteParams struct {
			TokenIn, TokenOut common.Address
			AmountIn, Fee     *big.Int
			SqrtPriceLimitX96 *big.Int
		}
		out := n.call(ctx, artV3Quoter, w.v3Quoter, "quoteExactInputSingle",
			quoteParams{TokenIn: w.weth, TokenOut: w.usdc, AmountIn: units(1, 18), Fee: big.NewInt(v3Fee), SqrtPriceLimitX96: new(big.Int)})
		if err := n.take(); err != nil {
			t.Fatal(err)
		}
		if got, want := out[0].(*big.Int), units(2_991, 6); !within(got, want, 100) {
			t.Errorf("quoteExactInputSingle(1 WETH) = %s USDC base units, want about %s", got, want)
		}
	})
	t.Run("aave prices and accounts the operator's supply", func(t *testing.T) {
		price := n.callBig(ctx, artAaveOracle, w.aaveOracle, "getAssetPrice", w.weth)
		out := n.call(ctx, artAavePool, w.aavePool, "getUserAccountData", n.operator)
		if err := n.take(); err != nil {
			t.Fatal(err)
		}
		if want := big.NewInt(3000e8); price.Cmp(want) != 0 {
			t.Errorf("oracle WETH price = %s, want %s", price, want)
		}
		// 1M USDC + 1M DAI + 1,000 WETH at $3,000 = $5M, in 8-decimal USD (plus any interest
		// earned from other tests' borrowers).
		if got, want := out[0].(*big.Int), units(5_000_000, 8); !within(got, want, 1) {
			t.Errorf("operator's total collateral = %s, want %s", got, want)
		}
	})
}
