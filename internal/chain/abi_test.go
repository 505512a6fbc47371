package chain

import (
	"encoding/hex"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain/artifacts/published"
)

// TestWellKnownSelectors checks the hand-written ABIs against selectors
// of the mainnet contracts (as published by 4byte and the protocols'
// deployed interfaces).
func TestWellKnownSelectors(t *testing.T) {
	for _, tc := range []struct {
		abi    *ABI
		method string
		want   string
	}{
		{ERC20ABI(), "transfer", "a9059cbb"},
		{ERC20ABI(), "approve", "095ea7b3"},
		{ERC20ABI(), "transferFrom", "23b872dd"},
		{ERC20ABI(), "balanceOf", "70a08231"},
		{ERC20ABI(), "allowance", "dd62ed3e"},
		{ERC20ABI(), "decimals", "313ce567"},
		{ERC20ABI(), "symbol", "95d89b41"},
		{ERC20ABI(), "name", "06fdde03"},
		{ERC20ABI(), "totalSupply", "18160ddd"},
		{ERC20ABI(), "permit", "d505accf"},
		{ERC20ABI(), "nonces", "7ecebe00"},
		{ERC20ABI(), "DOMAIN_SEPARATOR", "3644e515"},
		{ERC20ABI(), "eip712Domain", "84b0196e"},
		{WETH9ABI(), "deposit", "d0e30db0"},
		{WETH9ABI(), "withdraw", "2e1a7d4d"},
		{AggregatorV3ABI(), "latestRoundData", "feaf968c"},
		{AggregatorV3ABI(), "getRoundData", "9a6fc8f5"},
		{AggregatorV3ABI(), "decimals", "313ce567"},
		{AggregatorV3ABI(), "latestAnswer", "50d25bcd"},
		{UniswapV2FactoryABI(), "getPair", "e6a43905"},
		{UniswapV2FactoryABI(), "createPair", "c9c65396"},
		{UniswapV2FactoryABI(), "allPairsLength", "574f2ba3"},
		{UniswapV2PairABI(), "getReserves", "0902f1ac"},
		{UniswapV2PairABI(), "token0", "0dfe1681"},
		{UniswapV2PairABI(), "token1", "d21220a7"},
		{UniswapV2PairABI(), "swap", "022c0d9f"},
		{UniswapV2Router02ABI(), "swapExactTokensForTokens", "38ed1739"},
		{UniswapV2Router02ABI(), "swapTokensForExactTokens", "8803dbee"},
		{UniswapV2Router02ABI(), "swapExactETHForTokens", "7ff36ab5"},
		{UniswapV2Router02ABI(), "swapExactTokensForETH", "18cbafe5"},
		{UniswapV2Router02ABI(), "addLiquidity", "e8e33700"},
		{UniswapV2Router02ABI(), "addLiquidityETH", "f305d719"},
		{UniswapV2Router02ABI(), "removeLiquidity", "baa2abde"},
		{UniswapV2Router02ABI(), "getAmountsOut", "d06ca61f"},
		{UniswapV2Router02ABI(), "getAmountsIn", "1f00ca74"},
		{UniswapV3FactoryABI(), "getPool", "1698ee82"},
		{UniswapV3FactoryABI(), "createPool", "a1671295"},
		{UniswapV3PoolABI(), "slot0", "3850c7bd"},
		{UniswapV3PoolABI(), "liquidity", "1a686502"},
		{UniswapV3PoolABI(), "fee", "ddca3f43"},
		{UniswapV3PoolABI(), "tickSpacing", "d0c93a7c"},
		{UniswapV3PoolABI(), "token0", "0dfe1681"},
		{UniswapV3PoolABI(), "swap", "128acb08"},
		{UniswapV3PoolABI(), "initialize", "f637731d"},
		{UniswapV3SwapRouterABI(), "exactInputSingle", "414bf389"},
		{UniswapV3SwapRouterABI(), "exactInput", "c04b8d59"},
		{UniswapV3SwapRouterABI(), "exactOutputSingle", "db3e2198"},
		{UniswapV3SwapRouterABI(), "multicall", "ac9650d8"},
		{UniswapV3SwapRouterABI(), "exactOutput", "f28c0498"},
		{UniswapV3SwapRouter02ABI(), "exactInputSingle", "04e45aaf"},
		{UniswapV3SwapRouter02ABI(), "exactInput", "b858183f"},
		{UniswapV3SwapRouter02ABI(), "exactOutputSingle", "5023b4df"},
		{UniswapV3SwapRouter02ABI(), "exactOutput", "09b81346"},
		{UniswapV3SwapRouter02ABI(), "multicall", "5ae401dc"},
		{UniswapV3QuoterV2ABI(), "quoteExactInput", "cdca1753"},
		{UniswapV3QuoterV2ABI(), "quoteExactOutput", "2f80bb1d"},
		{UniswapV3PositionManagerABI(), "mint", "88316456"},
		{UniswapV3PositionManagerABI(), "increaseLiquidity", "219f5d17"},
		{UniswapV3PositionManagerABI(), "decreaseLiquidity", "0c49ccbe"},
		{UniswapV3PositionManagerABI(), "collect", "fc6f7865"},
		{UniswapV3PositionManagerABI(), "positions", "99fbab88"},
		{UniswapV3PositionManagerABI(), "ownerOf", "6352211e"},
		{UniswapV3PositionManagerABI(), "tokenOfOwnerByIndex", "2f745c59"},
		{UniswapV3PositionManagerABI(), "multicall", "ac9650d8"},
		{ERC4626ABI(), "deposit", "6e553f65"},
		{ERC4626ABI(), "mint", "94bf804d"},
		{ERC4626ABI(), "withdraw", "b460af94"},
		{ERC4626ABI(), "redeem", "ba087652"},
		{ERC4626ABI(), "asset", "38d52e0f"},
		{ERC4626ABI(), "totalAssets", "01e1d114"},
		{ERC4626ABI(), "convertToAssets", "07a2d13a"},
		{ERC4626ABI(), "previewRedeem", "4cdad506"},
		{AaveV3PoolABI(), "supply", "617ba037"},
		{AaveV3PoolABI(), "withdraw", "69328dec"},
		{AaveV3PoolABI(), "borrow", "a415bcad"},
		{AaveV3PoolABI(), "repay", "573ade81"},
		{AaveV3PoolABI(), "liquidationCall", "00a718a9"},
		{AaveV3PoolABI(), "getUserAccountData", "bf92857c"},
		{AaveV3PoolABI(), "getReserveData", "35ea6a75"},
		{Permit2ABI(), "allowance", "927da105"},
		{Permit2ABI(), "approve", "87517c45"},
		{Permit2ABI(), "lockdown", "cc53287f"},
		{Permit2ABI(), "DOMAIN_SEPARATOR", "3644e515"},
	} {
		t.Run(tc.method+"_"+tc.want, func(t *testing.T) {
			sel, ok := tc.abi.Selector(tc.method)
			if !ok {
				t.Fatalf("no method %s", tc.method)
			}
			if got := hex.EncodeToString(sel[:]); got != tc.want {
				t.Errorf("selector of %s = %s, want %s", tc.method, got, tc.want)
			}
			if name, ok := tc.abi.MethodBySelector(sel); !ok || name != tc.method {
				t.Errorf("MethodBySelector(%x) = %q, %v", sel, name, ok)
			}
		})
	}
}

func TestWellKnownEvents(t *testing.T) {
	for _, tc := range []struct {
		abi   *ABI
		event string
		want  string
	}{
		{ERC20ABI(), "Transfer", "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"},
		{ERC20ABI(), "Approval", "8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925"},
		{UniswapV2PairABI(), "Swap", "d78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822"},
		{UniswapV2PairABI(), "Sync", "1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1"},
		{UniswapV3PoolABI(), "Swap", "c42079f94a6350d7e6235f29174924f928cc2ac818eb64fed8004e115fbcca67"},
	} {
		id, ok := tc.abi.Event(tc.event)
		if !ok || hex.EncodeToString(id[:]) != tc.want {
			t.Errorf("topic of %s = %x (found %v), want %s", tc.event, id, ok, tc.want)
		}
	}
}

func TestUnpackArgs(t *testing.T) {
	owner := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	data, err := ERC20ABI().Pack("balanceOf", owner)
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(data); got != "70a08231"+strings.Repeat("0", 62)+"aa" {
		t.Errorf("calldata = %s", got)
	}

	name, args, err := ERC20ABI().UnpackArgs(data)
	if err != nil || name != "balanceOf" || args[0].(common.Address) != owner {
		t.Errorf("UnpackArgs = %s %v %v", name, args, err)
	}
	if _, _, err := ERC20ABI().UnpackArgs([]byte{1, 2}); err == nil {
		t.Error("UnpackArgs accepted calldata without a selector")
	}
}

func TestDecodeRevert(t *testing.T) {
	errorString := func(s string) []byte {
		b, err := abiArgs("string").Pack(s)
		if err != nil {
			t.Fatal(err)
		}
		return append([]byte{0x08, 0xc3, 0x79, 0xa0}, b...)
	}
	panicCode := func(c int64) []byte {
		return append([]byte{0x4e, 0x48, 0x7b, 0x71}, common.LeftPadBytes(big.NewInt(c).Bytes(), 32)...)
	}
	custom := knownErrors().abi.Errors["ERC20InsufficientBalance"]
	insufficient, err := custom.Inputs.Pack(common.HexToAddress("0x01"), big.NewInt(5), big.NewInt(7))
	if err != nil {
		t.Fatal(err)
	}
	insufficient = append(append([]byte(nil), custom.ID[:4]...), insufficient...)

	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, ""},
		{"error string", errorString("UniswapV2Router: EXPIRED"), "UniswapV2Router: EXPIRED"},
		{"panic overflow", panicCode(0x11), "panic: arithmetic underflow or overflow"},
		{"erc-6093 custom error", insufficient, "ERC20InsufficientBalance(0x0000000000000000000000000000000000000001, 5, 7)"},
		{"unknown custom error", []byte{0xde, 0xad, 0xbe, 0xef}, "custom error 0xdeadbeef"},
		{"short", []byte{0x01, 0x02}, "malformed revert data 0x0102"},
		{"truncated error string", errorString("x")[:40], "custom error 0x08c379a0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			re := DecodeRevert(tc.data)
			if re.Reason != tc.want {
				t.Errorf("reason = %q, want %q", re.Reason, tc.want)
			}
			if !errors.Is(re, ErrReverted) {
				t.Error("errors.Is(revert, ErrReverted) = false")
			}
			if string(re.Data) != string(tc.data) {
				t.Errorf("data = %x, want %x", re.Data, tc.data)
			}
		})
	}
}

func FuzzDecodeRevert(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0x08, 0xc3, 0x79, 0xa0})
	f.Add(append([]byte{0x4e, 0x48, 0x7b, 0x71}, make([]byte, 32)...))
	f.Add([]byte{0xe4, 0x50, 0xd3, 0x8c, 0, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		re := DecodeRevert(data)
		if len(data) > 0 && re.Reason == "" {
			t.Errorf("no reason for %x", data)
		}
	})
}

// TestPositionManagerABIMatchesPublished checks the hand-written
// NonfungiblePositionManager fragment against the ABI of the published
// artifact, method by method: same signature, same outputs.
func TestPositionManagerABIMatchesPublished(t *testing.T) {
	art, err := published.Load("NonfungiblePositionManager")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ParseABI(art.ABI)
	if err != nil {
		t.Fatal(err)
	}
	mine := UniswapV3PositionManagerABI()
	if len(mine.abi.Methods) < 10 {
		t.Fatalf("fragment has %d methods", len(mine.abi.Methods))
	}
	for name, m := range mine.abi.Methods {
		p, ok := pub.abi.Methods[name]
		if !ok {
			t.Errorf("%s: not in the published ABI", name)
			continue
		}
		if m.Sig != p.Sig || argTypes(m.Outputs) != argTypes(p.Outputs) {
			t.Errorf("%s: fragment %s -> %s, published %s -> %s", name, m.Sig, argTypes(m.Outputs), p.Sig, argTypes(p.Outputs))
		}
	}
}

func argTypes(args abi.Arguments) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(a.Type.String() + ",")
	}
	return b.String()
}

// TestPermit2ABIMatchesPublished checks the hand-written Permit2 fragment
// against the ABI published with Permit2's code (its interfaces'), method
// by method and error by error.
func TestPermit2ABIMatchesPublished(t *testing.T) {
	art, err := published.Load("Permit2")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ParseABI(art.ABI)
	if err != nil {
		t.Fatal(err)
	}
	mine := Permit2ABI()
	for name, m := range mine.abi.Methods {
		p, ok := pub.abi.Methods[name]
		if !ok {
			t.Errorf("%s: not in the published ABI", name)
			continue
		}
		if m.Sig != p.Sig || argTypes(m.Outputs) != argTypes(p.Outputs) {
			t.Errorf("%s: fragment %s -> %s, published %s -> %s", name, m.Sig, argTypes(m.Outputs), p.Sig, argTypes(p.Outputs))
		}
	}
	for name, e := range mine.abi.Errors {
		if p, ok := pub.abi.Errors[name]; !ok || p.Sig != e.Sig {
			t.Errorf("error %s: not in the published ABI as %s", name, e.Sig)
		}
	}
	for name, e := range mine.abi.Events {
		if p, ok := pub.abi.Events[name]; !ok || p.Sig != e.Sig {
			t.Errorf("event %s: not in the published ABI as %s", name, e.Sig)
		}
	}
}

// TestERC8004Selectors checks the ERC-8004 fragments against the selectors
// and event topics of the ABI agent0-sdk 1.7.1 (npm) publishes for the
// registries deployed at 0x8004A169... and 0x8004BAa1..., computed from
// that package's JSON when these fragments were written.
func TestERC8004Selectors(t *testing.T) {
	for _, tc := range []struct {
		abi    *ABI
		method string
		want   string
	}{
		{ERC8004IdentityABI(), "register", "1aa3a008"},
		{ERC8004IdentityABI(), "register0", "f2c298be"},
		{ERC8004IdentityABI(), "register1", "8ea42286"},
		{ERC8004IdentityABI(), "ownerOf", "6352211e"},
		{ERC8004IdentityABI(), "tokenURI", "c87b56dd"},
		{ERC8004IdentityABI(), "getAgentWallet", "00339509"},
		{ERC8004IdentityABI(), "getMetadata", "cb4799f2"},
		{ERC8004IdentityABI(), "setMetadata", "466648da"},
		{ERC8004IdentityABI(), "setAgentURI", "0af28bd3"},
		{ERC8004IdentityABI(), "getApproved", "081812fc"},
		{ERC8004IdentityABI(), "isApprovedForAll", "e985e9c5"},
		{ERC8004ReputationABI(), "giveFeedback", "3c036a7e"},
		{ERC8004ReputationABI(), "getSummary", "81bbba58"},
		{ERC8004ReputationABI(), "readAllFeedback", "d9d84224"},
		{ERC8004ReputationABI(), "readFeedback", "232b0810"},
		{ERC8004ReputationABI(), "getLastIndex", "f2d81759"},
		{ERC8004ReputationABI(), "getClients", "42dd519c"},
		{ERC8004ReputationABI(), "revokeFeedback", "4ab3ca99"},
		{ERC8004ReputationABI(), "appendResponse", "c2349ab2"},
	} {
		sel, ok := tc.abi.Selector(tc.method)
		if got := hex.EncodeToString(sel[:]); !ok || got != tc.want {
			t.Errorf("selector of %s = %s (%v), want %s", tc.method, got, ok, tc.want)
		}
	}
	for _, tc := range []struct {
		abi   *ABI
		event string
		want  string
	}{
		{ERC8004IdentityABI(), "Registered", "ca52e62c367d81bb2e328eb795f7c7ba24afb478408a26c0e201d155c449bc4a"},
		{ERC8004IdentityABI(), "URIUpdated", "3a2c7fffc2cba7582c690e3b82c453ea02a308326a98a3ad7576c606336409fb"},
		{ERC8004IdentityABI(), "MetadataSet", "2c149ed548c6d2993cd73efe187df6eccabe4538091b33adbd25fafdb8a1468b"},
		{ERC8004ReputationABI(), "NewFeedback", "6a4a61743519c9d648a14e6493f47dbe3ff1aa29e7785c96c8326a205e58febc"},
		{ERC8004ReputationABI(), "FeedbackRevoked", "25156fd3288212246d8b008d5921fde376c71ed14ac2e072a506eb06fde6d09d"},
	} {
		id, ok := tc.abi.Event(tc.event)
		if got := hex.EncodeToString(id[:]); !ok || got != tc.want {
			t.Errorf("topic of %s = %s (%v), want %s", tc.event, got, ok, tc.want)
		}
	}
}

// TestUniswapV4ABIsMatchPublished checks the StateView, V4Quoter and
// Universal Router fragments against the ABIs of the published
// artifacts: same signatures, same outputs, same errors.
func TestUniswapV4ABIsMatchPublished(t *testing.T) {
	for _, c := range []struct {
		name string
		mine *ABI
	}{{"StateView", UniswapV4StateViewABI()}, {"V4Quoter", UniswapV4QuoterABI()}, {"UniversalRouter", UniversalRouterABI()}} {
		t.Run(c.name, func(t *testing.T) {
			art, err := published.Load(c.name)
			if err != nil {
				t.Fatal(err)
			}
			pub, err := ParseABI(art.ABI)
			if err != nil {
				t.Fatal(err)
			}
			// By signature: the router overloads execute, which go-ethereum
			// names execute and execute0 in the order the ABI lists them.
			bySig := map[string]abi.Method{}
			for _, p := range pub.abi.Methods {
				bySig[p.Sig] = p
			}
			for name, m := range c.mine.abi.Methods {
				p, ok := bySig[m.Sig]
				if !ok {
					t.Errorf("%s: %s is not in the published ABI", name, m.Sig)
					continue
				}
				if argTypes(m.Outputs) != argTypes(p.Outputs) {
					t.Errorf("%s: fragment %s -> %s, published -> %s", name, m.Sig, argTypes(m.Outputs), argTypes(p.Outputs))
				}
			}
			for name, e := range c.mine.abi.Errors {
				if p, ok := pub.abi.Errors[name]; !ok || p.Sig != e.Sig {
					t.Errorf("error %s: not in the published ABI as %s", name, e.Sig)
				}
			}
		})
	}
}
