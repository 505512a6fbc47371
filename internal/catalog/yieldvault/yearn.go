package yieldvault

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

var v3Version = regexp.MustCompile(`^3\.[0-9]{1,3}\.[0-9]{1,3}$`)

// maxStrategies bounds the default queue read (VaultV3 caps it at 10).
const maxStrategies = 10

var yearnInfo = native.ReadTool{
	Name: "yearn_get_vault",
	Description: "Read Yearn V3 vaults: the API version, the asset, price per share, total assets split into idle assets and debt lent to strategies, " +
		"each strategy of the default queue (its current and maximum debt and last report), the deposit limit and the most the wallet may deposit now, " +
		"whether the vault is shut down, and an account's shares (default: the agent's wallet) with their asset value. Without vault it reads the Yearn " +
		"vaults configured for this chain. A Yearn V3 vault is ERC-4626: deposit with vault_deposit and exit with vault_redeem or vault_withdraw, " +
		"passing the vault's address. Does not judge the strategies' risk and does not forecast yield.",
	Category: tool.CatYield, Budget: tool.Medium,
	Steps:   []string{"Reading the vault", "Reading its strategies", "Reading the position"},
	Snippet: "yearn_get_vault reads a Yearn V3 vault: price per share, idle and lent assets, strategies, deposit limit.",
	Params: []string{native.PAddress("vault", "The Yearn V3 vault; omit for the vaults configured for this chain"),
		native.PAddress("owner", "Whose shares (default: the agent's wallet)")},
	Result: []string{native.RProp("owner", "string", "the account read"),
		`"vaults":{"type":"array","items":{"type":"object","properties":{"vault":{"type":"string"},"api_version":{"type":"string"},"asset":` + native.RToken +
			`,"share":` + native.RToken + `,"price_per_share":{"type":"string"},"total_assets":` + native.RAmount + `,"total_idle":` + native.RAmount +
			`,"total_debt":` + native.RAmount + `,"deposit_limit":{"type":"string"},"max_deposit":{"type":"string"},"is_shutdown":{"type":"boolean"}` +
			`,"strategies":{"type":"array","items":{"type":"object","properties":{"strategy":{"type":"string"},"current_debt":` + native.RAmount +
			`,"max_debt":` + native.RAmount + `,"last_report":{"type":"string"}}}},"shares":` + native.RAmount + `,"assets":` + native.RAmount +
			`,"value_usd":{"type":"number"}}}}`},
	Action: "yield_info", Venue: "yearn",
	Run: readYearn,
}

type strategyOut struct {
	Strategy    string           `json:"strategy"`
	CurrentDebt native.AmountOut `json:"current_debt"`
	MaxDebt     native.AmountOut `json:"max_debt"`
	LastReport  string           `json:"last_report"`
}

type yearnOut struct {
	Vault         string           `json:"vault"`
	APIVersion    string           `json:"api_version"`
	Asset         native.TokenInfo `json:"asset"`
	Share         native.TokenInfo `json:"share"`
	PricePerShare string           `json:"price_per_share"`
	TotalAssets   native.AmountOut `json:"total_assets"`
	TotalIdle     native.AmountOut `json:"total_idle"`
	TotalDebt     native.AmountOut `json:"total_debt"`
	DepositLimit  string           `json:"deposit_limit"`
	MaxDeposit    string           `json:"max_deposit,omitempty"`
	IsShutdown    bool             `json:"is_shutdown"`
	Strategies    []strategyOut    `json:"strategies"`
	Shares        native.AmountOut `json:"shares"`
	Assets        native.AmountOut `json:"assets"`
	ValueUSD      *float64         `json:"value_usd,omitempty"`
}

func readYearn(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	owner := a.Whose(env, "owner")
	list := env.Venues.YearnVaults
	if a.Has("vault") {
		list = []common.Address{a.Address("vault")}
	}
	if err := a.Err(); err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, errors.New("no Yearn vault is configured for this chain: pass vault")
	}
	outs := []yearnOut{}
	for _, v := range list {
		o, err := readYearnVault(ctx, env, in, v, owner)
		if err != nil {
			return nil, err
		}
		outs = append(outs, o)
	}
	return map[string]any{"owner": owner.Hex(), "vaults": outs}, nil
}

func readYearnVault(ctx context.Context, env *native.Env, in *registry.Input, v, owner common.Address) (yearnOut, error) {
	in.Step(0)
	s, api, err := readYearnShare(ctx, env, v)
	if err != nil {
		return yearnOut{}, err
	}
	o := yearnOut{Vault: v.Hex(), APIVersion: api, Asset: s.asset, Share: s.vault,
		TotalAssets: native.AmountOf(s.totalAssets, s.asset.Decimals), Strategies: []strategyOut{}}
	if err := readYearnAccounts(ctx, env, v, s, &o); err != nil {
		return o, err
	}
	in.Step(1)
	if err := readYearnStrategies(ctx, env, v, s, &o); err != nil {
		return o, err
	}
	in.Step(2)
	shares, assets, err := s.holding(ctx, env, owner)
	if err != nil {
		return o, err
	}
	o.Shares, o.Assets = native.AmountOf(shares, s.vault.Decimals), native.AmountOf(assets, s.asset.Decimals)
	o.ValueUSD = native.USD(ctx, env, s.asset.Address, assets)
	return o, nil
}

// readYearnShare reads the ERC-4626 share v and its apiVersion, which
// must be 3.x.y.
func readYearnShare(ctx context.Context, env *native.Env, v common.Address) (share, string, error) {
	s, err := readShare(ctx, env, v, "a Yearn V3 vault")
	if err != nil {
		return share{}, "", err
	}
	r, err := namedABI.Call(ctx, env, v, "apiVersion")
	if err != nil {
		return share{}, "", fmt.Errorf("%s is not a Yearn V3 vault (no apiVersion): %w", v.Hex(), err)
	}
	// The version is third-party text: only a 3.x.y version passes, and
	// it is not echoed back when it does not.
	api, _ := r[0].(string)
	if !v3Version.MatchString(api) {
		return share{}, "", fmt.Errorf("%s is not a Yearn V3 vault (its apiVersion is not 3.x.y)", v.Hex())
	}
	return s, api, nil
}

// readYearnAccounts fills in o the vault's idle and lent assets, price per
// share, deposit limits (the wallet's too, if there is one) and whether it
// is shut down.
func readYearnAccounts(ctx context.Context, env *native.Env, v common.Address, s share, o *yearnOut) error {
	amounts := map[string]*native.AmountOut{"totalIdle": &o.TotalIdle, "totalDebt": &o.TotalDebt}
	for m, dst := range amounts {
		x, err := namedABI.CallBig(ctx, env, v, m)
		if err != nil {
			return err
		}
		*dst = native.AmountOf(x, s.asset.Decimals)
	}
	pps, err := namedABI.CallBig(ctx, env, v, "pricePerShare")
	if err != nil {
		return err
	}
	o.PricePerShare = native.RatString(new(big.Rat).SetFrac(pps, native.Pow10(int(s.asset.Decimals))), 18)
	limit, err := namedABI.CallBig(ctx, env, v, "deposit_limit")
	if err != nil {
		return err
	}
	o.DepositLimit = native.FormatCap(limit, s.asset.Decimals)
	if w := native.WalletAddress(env); w != (common.Address{}) {
		m, err := native.CallBig(ctx, env, chain.ERC4626ABI(), v, "maxDeposit", w)
		if err != nil {
			return err
		}
		o.MaxDeposit = native.FormatCap(m, s.asset.Decimals)
	}
	r, err := namedABI.Call(ctx, env, v, "isShutdown")
	if err != nil {
		return err
	}
	o.IsShutdown, _ = r[0].(bool)
	return nil
}

// readYearnStrategies appends to o the strategies of the vault's default
// queue, at most maxStrategies of them.
func readYearnStrategies(ctx context.Context, env *native.Env, v common.Address, s share, o *yearnOut) error {
	r, err := namedABI.Call(ctx, env, v, "get_default_queue")
	if err != nil {
		return err
	}
	queue, _ := r[0].([]common.Address)
	if len(queue) > maxStrategies {
		queue = queue[:maxStrategies]
	}
	for _, st := range queue {
		p, err := namedABI.Call(ctx, env, v, "strategies", st)
		if err != nil {
			return err
		}
		last, err := bigOf(p[1], "last_report")
		if err != nil {
			return err
		}
		cur, err := bigOf(p[2], "current_debt")
		if err != nil {
			return err
		}
		most, err := bigOf(p[3], "max_debt")
		if err != nil {
			return err
		}
		so := strategyOut{Strategy: st.Hex(), CurrentDebt: native.AmountOf(cur, s.asset.Decimals), MaxDebt: native.AmountOf(most, s.asset.Decimals)}
		if last.IsInt64() && last.Sign() > 0 {
			so.LastReport = time.Unix(last.Int64(), 0).UTC().Format(time.RFC3339)
		}
		o.Strategies = append(o.Strategies, so)
	}
	return nil
}
