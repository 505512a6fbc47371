package catalog

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// The gas forecast: the next block's base fee by EIP-1559's rule and the
// priority fees recent blocks paid.

var gasForecast = native.ReadTool{
	Name: "intel_forecast_gas",
	Description: "Forecast gas prices from the chain's recent blocks: the next block's base fee computed from the latest block by " +
		"EIP-1559's rule (target = gas limit / 2; the base fee moves by at most 1/8 in proportion to how far gas used is from the " +
		"target), the range the base fee can reach after that (at most +12.5% or -12.5% a block), the base fees of the last blocks " +
		"(min, median, max), and the 10th, 50th and 90th percentiles of the priority fees (tips) paid in them (each block's " +
		"gas-weighted percentiles as the node's eth_feeHistory reports them; the forecast is the median of those over the blocks). " +
		"Use it to choose a tip and a max fee, or to wait for a cheaper block. Assumes the coming blocks resemble the last ones; " +
		"it does not predict demand. On chains without a base fee it says so and returns no base fee forecast.",
	Category: tool.CatIntelligence, Budget: tool.Medium,
	Steps:   []string{"Reading recent blocks", "Reading priority fees", "Computing"},
	Snippet: "intel_forecast_gas forecasts the next base fee (EIP-1559) and tip percentiles from recent blocks.",
	Params: []string{
		native.PInt("blocks", "How many recent blocks to read (default 20)", 1, 1024)},
	Result: []string{
		native.RProp("next_base_fee_wei", "string", "The next block's base fee by EIP-1559's rule"),
		native.RProp("priority_fee_p50_wei", "string", "Median of the blocks' median tips"),
		native.RProp("blocks", "integer", "Blocks read")},
	Action: "gas_forecast",
	Run:    readGasForecast,
}

// Tip percentiles asked of eth_feeHistory.
var tipPercentiles = []float64{10, 50, 90}

type gasForecastOut struct {
	LatestBlock       uint64   `json:"latest_block"`
	Blocks            int      `json:"blocks"`
	BaseFeeWei        string   `json:"latest_base_fee_wei,omitempty"`
	GasUsed           uint64   `json:"latest_gas_used"`
	GasLimit          uint64   `json:"latest_gas_limit"`
	NextBaseFeeWei    string   `json:"next_base_fee_wei,omitempty"`
	NextBaseFeeGwei   string   `json:"next_base_fee_gwei,omitempty"`
	NodeNextBaseFee   string   `json:"node_next_base_fee_wei,omitempty"`
	SecondBlockMinWei string   `json:"second_block_base_fee_min_wei,omitempty"`
	SecondBlockMaxWei string   `json:"second_block_base_fee_max_wei,omitempty"`
	BaseFeeMinWei     string   `json:"recent_base_fee_min_wei,omitempty"`
	BaseFeeMedianWei  string   `json:"recent_base_fee_median_wei,omitempty"`
	BaseFeeMaxWei     string   `json:"recent_base_fee_max_wei,omitempty"`
	GasUsedRatioMean  float64  `json:"gas_used_ratio_mean"`
	TipP10Wei         string   `json:"priority_fee_p10_wei"`
	TipP50Wei         string   `json:"priority_fee_p50_wei"`
	TipP90Wei         string   `json:"priority_fee_p90_wei"`
	SuggestedMaxFee   string   `json:"suggested_max_fee_wei,omitempty"`
	Notes             []string `json:"notes"`
}

// nextBaseFee is EIP-1559's base fee of the block after one with the
// given base fee, gas used and gas limit (elasticity 2, change
// denominator 8).
func nextBaseFee(base *big.Int, gasUsed, gasLimit uint64) *big.Int {
	target := gasLimit / 2
	if target == 0 || gasUsed == target {
		return new(big.Int).Set(base)
	}
	if gasUsed > target {
		d := new(big.Int).Mul(base, new(big.Int).SetUint64(gasUsed-target))
		d.Quo(d, new(big.Int).SetUint64(target))
		d.Quo(d, big.NewInt(8))
		if d.Sign() == 0 {
			d.SetInt64(1)
		}
		return d.Add(d, base)
	}
	d := new(big.Int).Mul(base, new(big.Int).SetUint64(target-gasUsed))
	d.Quo(d, new(big.Int).SetUint64(target))
	d.Quo(d, big.NewInt(8))
	return new(big.Int).Sub(base, d)
}

// medianBig is the median of xs (the lower middle for an even count).
func medianBig(xs []*big.Int) *big.Int {
	s := slices.Clone(xs)
	slices.SortFunc(s, func(a, b *big.Int) int { return a.Cmp(b) })
	return s[(len(s)-1)/2]
}

type feeHistory struct {
	BaseFee      []*hexutil.Big   `json:"baseFeePerGas"`
	GasUsedRatio []float64        `json:"gasUsedRatio"`
	Reward       [][]*hexutil.Big `json:"reward"`
}

func readGasForecast(ctx context.Context, env *Env, in *registry.Input) (any, error) {
	n := native.ArgInt(in, "blocks", 20)
	if n < 1 || n > 1024 {
		return nil, errors.New("blocks must be between 1 and 1024")
	}
	in.Step(0)
	h, err := native.Head(ctx, env)
	if err != nil {
		return nil, err
	}
	out := gasForecastOut{LatestBlock: h.Number.Uint64(), GasUsed: h.GasUsed, GasLimit: h.GasLimit, Notes: []string{}}
	if latest := int64(out.LatestBlock) + 1; n > latest {
		n = latest
	}
	in.Step(1)
	var fh feeHistory
	if err := env.Chain.RPC().CallContext(ctx, &fh, "eth_feeHistory", hexutil.Uint64(n), hexutil.EncodeUint64(out.LatestBlock), tipPercentiles); err != nil {
		return nil, fmt.Errorf("eth_feeHistory: %w", err)
	}
	if len(fh.Reward) == 0 {
		return nil, errors.New("eth_feeHistory returned no blocks")
	}
	in.Step(2)
	out.Blocks = len(fh.Reward)
	tips := make([][]*big.Int, len(tipPercentiles))
	for _, r := range fh.Reward {
		if len(r) != len(tipPercentiles) {
			return nil, fmt.Errorf("eth_feeHistory returned %d tip percentiles, want %d", len(r), len(tipPercentiles))
		}
		for i, v := range r {
			tips[i] = append(tips[i], v.ToInt())
		}
	}
	p := make([]*big.Int, len(tips))
	for i := range tips {
		p[i] = medianBig(tips[i])
	}
	out.TipP10Wei, out.TipP50Wei, out.TipP90Wei = p[0].String(), p[1].String(), p[2].String()
	sum := 0.0
	for _, r := range fh.GasUsedRatio {
		sum += r
	}
	if len(fh.GasUsedRatio) > 0 {
		out.GasUsedRatioMean = sum / float64(len(fh.GasUsedRatio))
	}
	if h.BaseFee == nil {
		out.Notes = append(out.Notes, "the chain has no EIP-1559 base fee: no base fee forecast")
		return out, nil
	}
	next := nextBaseFee(h.BaseFee, h.GasUsed, h.GasLimit)
	out.BaseFeeWei, out.NextBaseFeeWei, out.NextBaseFeeGwei = h.BaseFee.String(), next.String(), native.FormatUnits(next, 9)
	// After the next block the base fee moves by at most 1/8 either way
	// (a full block raises it by exactly 1/8, an empty one lowers it by 1/8).
	out.SecondBlockMaxWei = nextBaseFee(next, h.GasLimit, h.GasLimit).String()
	out.SecondBlockMinWei = nextBaseFee(next, 0, h.GasLimit).String()
	// eth_feeHistory's baseFeePerGas holds one more entry than blocks:
	// the node's own next base fee, reported beside ours as a check.
	if len(fh.BaseFee) == out.Blocks+1 {
		node := fh.BaseFee[out.Blocks].ToInt()
		out.NodeNextBaseFee = node.String()
		if node.Cmp(next) != 0 {
			out.Notes = append(out.Notes, "the node's next base fee differs from EIP-1559's rule applied to the latest header (a chain with other fee parameters)")
		}
		var recent []*big.Int
		for _, b := range fh.BaseFee[:out.Blocks] {
			recent = append(recent, b.ToInt())
		}
		lo, hi := slices.MinFunc(recent, func(a, b *big.Int) int { return a.Cmp(b) }), slices.MaxFunc(recent, func(a, b *big.Int) int { return a.Cmp(b) })
		out.BaseFeeMinWei, out.BaseFeeMedianWei, out.BaseFeeMaxWei = lo.String(), medianBig(recent).String(), hi.String()
	}
	// A max fee that survives two full blocks (base fee × 1.125²) plus the
	// 90th percentile tip.
	maxFee := new(big.Int).Add(nextBaseFee(next, h.GasLimit, h.GasLimit), p[2])
	out.SuggestedMaxFee = maxFee.String()
	return out, nil
}
