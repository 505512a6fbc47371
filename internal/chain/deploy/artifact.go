package deploy

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"

	"github.com/wardhq/ward/internal/chain/artifacts"
	"github.com/wardhq/ward/internal/chain/artifacts/published"
)

// Artifact names: "published:" for the protocols' own bytecode, "ward:"
// for ward's test tokens and feeds, which stand in for tokens and
// Chainlink feeds rather than for a protocol.
const (
	artWETH9      = "published:WETH9"
	artV2Factory  = "published:UniswapV2Factory"
	artV2Pair     = "published:UniswapV2Pair"
	artV2Router   = "published:UniswapV2Router02"
	artV3Factory  = "published:UniswapV3Factory"
	artV3Pool     = "published:UniswapV3Pool"
	artV3Position = "published:NonfungiblePositionManager"
	artV3Router   = "published:SwapRouter"
	artV3Router02 = "published:SwapRouter02"
	artV3Quoter   = "published:QuoterV2"

	artV4PoolManager = "published:PoolManager"
	artV4StateView   = "published:StateView"
	artV4Quoter      = "published:V4Quoter"
	artV4Liquidity   = "published:PoolModifyLiquidityTest"
	artURouter       = "published:UniversalRouter"

	artAaveProvider = "published:PoolAddressesProvider"
	artAaveACL      = "published:ACLManager"
	artAavePool     = "published:Pool"
	artAaveConfig   = "published:PoolConfigurator"
	artAaveRates    = "published:DefaultReserveInterestRateStrategy"
	artAaveOracle   = "published:AaveOracle"
	artAaveAToken   = "published:AToken"
	artAaveStable   = "published:StableDebtToken"
	artAaveVariable = "published:VariableDebtToken"
	artAaveData     = "published:AaveProtocolDataProvider"

	// artPermit2 is published as runtime code only: see deployRuntime.
	artPermit2 = "published:Permit2"

	artERC20           = "ward:ERC20Permit"
	artFeed            = "ward:PriceFeed"
	artRuntimeDeployer = "ward:RuntimeDeployer"
)

// artifact is a contract ready to deploy: its parsed ABI and a function
// that links its creation code.
type artifact struct {
	name  string
	abi   abi.ABI
	links []string
	code  func(libs map[string][20]byte) ([]byte, error)
}

// load reads and parses the artifact named art.
func load(art string) (*artifact, error) {
	var a *artifact
	if name, ok := strings.CutPrefix(art, "published:"); ok {
		p, err := published.Load(name)
		if err != nil {
			return nil, err
		}
		a = &artifact{name: name, code: p.Link}
		for _, l := range p.Links {
			a.links = append(a.links, l.Library)
		}
		if a.abi, err = abi.JSON(bytes.NewReader(p.ABI)); err != nil {
			return nil, fmt.Errorf("%s: abi: %w", art, err)
		}
	} else if name, ok := strings.CutPrefix(art, "ward:"); ok {
		w, err := artifacts.Load(name)
		if err != nil {
			return nil, err
		}
		a = &artifact{name: name, code: func(map[string][20]byte) ([]byte, error) { return bytes.Clone(w.Bytecode), nil }}
		if a.abi, err = abi.JSON(bytes.NewReader(w.ABI)); err != nil {
			return nil, fmt.Errorf("%s: abi: %w", art, err)
		}
	} else {
		return nil, fmt.Errorf("artifact %q: want a published: or ward: name", art)
	}
	return a, nil
}

// ABI returns the parsed ABI of a deployed contract's artifact, by the
// names Result uses: "published:UniswapV2Router02", "ward:PriceFeed".
// Tests and callers use it to talk to what Deploy put on chain.
func ABI(art string) (abi.ABI, error) {
	a, err := load(art)
	if err != nil {
		return abi.ABI{}, err
	}
	return a.abi, nil
}
