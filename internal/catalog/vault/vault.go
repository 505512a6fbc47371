package vault

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// vaultState is an ERC-4626 vault as read from the chain.
type vaultState struct {
	address     common.Address
	name        string
	share       native.TokenInfo // the vault's own share token
	asset       native.TokenInfo
	totalAssets *big.Int
	totalSupply *big.Int
}

func readVault(ctx context.Context, env *native.Env, v common.Address) (vaultState, error) {
	a := chain.ERC4626ABI()
	s := vaultState{address: v}
	asset, err := native.CallAddress(ctx, env, a, v, "asset")
	if err != nil {
		return s, fmt.Errorf("%s is not an ERC-4626 vault: %w", v.Hex(), err)
	}
	if s.asset, err = native.TokenInfoOf(ctx, env, asset); err != nil {
		return s, err
	}
	if s.share, err = native.TokenInfoOf(ctx, env, v); err != nil {
		return s, err
	}
	if r, err := native.Call(ctx, env.Chain, a, v, "name"); err == nil {
		s.name = safeText(r[0].(string), 48)
	}
	if s.totalAssets, err = native.CallBig(ctx, env, a, v, "totalAssets"); err != nil {
		return s, err
	}
	if s.totalSupply, err = native.CallBig(ctx, env, a, v, "totalSupply"); err != nil {
		return s, err
	}
	return s, nil
}

// safeText keeps at most n characters of third-party text among ASCII
// letters, digits, spaces and ".-_+()/", so a hostile contract cannot
// write instructions into a tool result.
func safeText(s string, n int) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() == n {
			break
		}
		if (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') || strings.ContainsRune(" .-_+()/", r) {
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}

// argVault returns the vault argument, or the only configured vault.
func argVault(env *native.Env, in *registry.Input) (common.Address, error) {
	if _, ok := in.Args.Get("vault"); ok {
		return native.ArgAddress(in, "vault")
	}
	switch len(env.Venues.Vaults) {
	case 0:
		return common.Address{}, errors.New("no vault is configured for this chain: pass vault")
	case 1:
		return env.Venues.Vaults[0], nil
	}
	names := make([]string, len(env.Venues.Vaults))
	for i, v := range env.Venues.Vaults {
		names[i] = v.Hex()
	}
	return common.Address{}, fmt.Errorf("several vaults are configured: pass vault (one of %s)", strings.Join(names, ", "))
}

var pVault = native.PAddress("vault", "The ERC-4626 vault (default: the chain's configured vault when there is exactly one; vault_get_info lists them)")

// ---- vault_get_info ----

var defVaultInfo = &tool.Def{
	Name: "vault_get_info",
	Description: "Describe ERC-4626 vaults: the underlying asset, total assets, share supply, the price of one share in the asset, and the most the wallet may deposit, " +
		"with USD values where a feed prices the asset. Without vault it lists every vault configured for this chain. " +
		"Use it to find a vault and its asset before vault_deposit. Does not show anyone's position (vault_get_position) or the vault's strategy.",
	Category: tool.CatVault, Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Medium,
	ProgressSteps: []string{"Reading the vault", "Reading the asset", "Computing the share price"},
	PromptSnippet: "vault_get_info describes ERC-4626 vaults: asset, assets, shares, share price.",
	Params: native.Schema([]string{},
		native.PAddress("vault", "The ERC-4626 vault; omit to list the configured vaults"),
		native.PChain),
	Result: native.ResultSchema(`"vaults":{"type":"array","items":{"type":"object","properties":{"vault":{"type":"string"},"name":{"type":"string"},"share":` + native.RToken +
		`,"asset":` + native.RToken + `,"total_assets":` + native.RAmount + `,"total_supply":` + native.RAmount +
		`,"share_price":{"type":"string","description":"assets per whole share"},"max_deposit":{"type":"string","description":"most assets the wallet may deposit, or unlimited"},"tvl_usd":{"type":"number"}}}}`),
	SchemaVersion: 1,
}

type vaultInfoOut struct {
	Vault       string           `json:"vault"`
	Name        string           `json:"name"`
	Share       native.TokenInfo `json:"share"`
	Asset       native.TokenInfo `json:"asset"`
	TotalAssets native.AmountOut `json:"total_assets"`
	TotalSupply native.AmountOut `json:"total_supply"`
	SharePrice  string           `json:"share_price"`
	MaxDeposit  string           `json:"max_deposit,omitempty"`
	TVLUSD      *float64         `json:"tvl_usd,omitempty"`
}

func vaultInfo(env *native.Env) registry.ReadHandler {
	return func(ctx context.Context, in *registry.Input) (*tool.Result, error) {
		if err := native.CheckChain(env, in); err != nil {
			return nil, err
		}
		list := env.Venues.Vaults
		if _, ok := in.Args.Get("vault"); ok {
			v, err := native.ArgAddress(in, "vault")
			if err != nil {
				return nil, err
			}
			list = []common.Address{v}
		}
		outs := []vaultInfoOut{}
		for _, v := range list {
			in.Step(0)
			st, err := readVault(ctx, env, v)
			if err != nil {
				return nil, err
			}
			in.Step(1)
			o := vaultInfoOut{Vault: v.Hex(), Name: st.name, Share: st.share, Asset: st.asset,
				TotalAssets: native.AmountOf(st.totalAssets, st.asset.Decimals), TotalSupply: native.AmountOf(st.totalSupply, st.share.Decimals)}
			in.Step(2)
			one := native.Pow10(int(st.share.Decimals))
			price, err := native.CallBig(ctx, env, chain.ERC4626ABI(), v, "convertToAssets", one)
			if err != nil {
				return nil, err
			}
			o.SharePrice = native.RatString(new(big.Rat).SetFrac(price, native.Pow10(int(st.asset.Decimals))), 18)
			if w := native.WalletAddress(env); w != (common.Address{}) {
				if m, err := native.CallBig(ctx, env, chain.ERC4626ABI(), v, "maxDeposit", w); err == nil {
					o.MaxDeposit = formatCap(m, st.asset.Decimals)
				}
			}
			if c := native.ValueCents(ctx, env, st.asset.Address, st.totalAssets); c >= 0 {
				f := float64(c) / 100
				o.TVLUSD = &f
			}
			outs = append(outs, o)
		}
		return tool.ReadResult(defVaultInfo, map[string]any{"vaults": outs})
	}
}

// formatCap formats a limit, "unlimited" for 2^256-1.
func formatCap(v *big.Int, decimals uint8) string {
	if v.Cmp(native.MaxUint256) == 0 {
		return "unlimited"
	}
	return native.FormatUnits(v, decimals)
}

// ---- previews ----

func vaultPreviewDef(name, desc, arg, argDesc, result string) *tool.Def {
	return &tool.Def{
		Name: name, Description: desc + " Give the vault (or omit it when the chain has exactly one; vault_get_info lists them). " +
			"A preview reads the vault's current rate: it sends nothing, reserves nothing, and the result may change if the vault's assets change before you act.",
		PromptSnippet: name + " previews an ERC-4626 " + strings.TrimPrefix(name, "vault_preview_") + " at the vault's current rate.",
		Category:      tool.CatVault, Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Fast,
		ProgressSteps: []string{"Reading the vault", "Previewing"},
		Params:        native.Schema([]string{arg}, pVault, native.PAmount(arg, argDesc), native.PChain),
		Result: native.ResultSchema(native.RProp("vault", "string", "the vault"), native.RTokenProp("asset", "the underlying asset"), native.RTokenProp("share", "the vault share"),
			native.RAmountProp(arg, "the amount previewed"), native.RAmountProp(result, "the vault's preview")),
		SchemaVersion: 1,
	}
}

var (
	defVaultPreviewDeposit = vaultPreviewDef("vault_preview_deposit",
		"Preview an ERC-4626 deposit: how many vault shares depositing an amount of the asset mints now (the vault's previewDeposit). "+
			"Use before vault_deposit to see the shares you would get.",
		"assets", "Amount of the underlying asset to deposit", "shares")
	defVaultPreviewRedeem = vaultPreviewDef("vault_preview_redeem",
		"Preview an ERC-4626 redemption: how much of the asset redeeming an amount of vault shares pays now (the vault's previewRedeem). "+
			"Use before vault_redeem to see what the shares are worth.",
		"shares", "Vault shares to redeem", "assets")
	defVaultPreviewWithdraw = vaultPreviewDef("vault_preview_withdraw",
		"Preview an ERC-4626 withdrawal: how many vault shares withdrawing an exact amount of the asset burns now (the vault's previewWithdraw, rounded up). "+
			"Use before vault_withdraw to see the shares it costs.",
		"assets", "Amount of the underlying asset to withdraw", "shares")
)

func vaultPreview(env *native.Env, d *tool.Def, method, arg, result string) registry.ReadHandler {
	return func(ctx context.Context, in *registry.Input) (*tool.Result, error) {
		if err := native.CheckChain(env, in); err != nil {
			return nil, err
		}
		v, err := argVault(env, in)
		if err != nil {
			return nil, err
		}
		amount, err := native.ArgAmount(in, arg)
		if err != nil {
			return nil, err
		}
		in.Step(0)
		st, err := readVault(ctx, env, v)
		if err != nil {
			return nil, err
		}
		in.Step(1)
		got, err := native.CallBig(ctx, env, chain.ERC4626ABI(), v, method, amount)
		if err != nil {
			return nil, err
		}
		argDec, resDec := st.asset.Decimals, st.share.Decimals
		if arg == "shares" {
			argDec, resDec = resDec, argDec
		}
		return tool.ReadResult(d, map[string]any{
			"vault": v.Hex(), "asset": st.asset, "share": st.share,
			arg: native.AmountOf(amount, argDec), result: native.AmountOf(got, resDec),
		})
	}
}

func vaultPreviewDeposit(env *native.Env) registry.ReadHandler {
	return vaultPreview(env, defVaultPreviewDeposit, "previewDeposit", "assets", "shares")
}

func vaultPreviewRedeem(env *native.Env) registry.ReadHandler {
	return vaultPreview(env, defVaultPreviewRedeem, "previewRedeem", "shares", "assets")
}

func vaultPreviewWithdraw(env *native.Env) registry.ReadHandler {
	return vaultPreview(env, defVaultPreviewWithdraw, "previewWithdraw", "assets", "shares")
}

// ---- vault_get_position ----

var defVaultPosition = &tool.Def{
	Name: "vault_get_position",
	Description: "Read an ERC-4626 position: the vault shares an owner (default: the agent's wallet) holds, the assets they redeem for now, " +
		"the most that can be withdrawn or redeemed, and the USD value where a feed prices the asset. Without vault it reads every configured vault. " +
		"Use before vault_withdraw or vault_redeem. Does not show the vault's totals (vault_get_info).",
	Category: tool.CatVault, Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Medium,
	ProgressSteps: []string{"Reading the vault", "Reading the position"},
	PromptSnippet: "vault_get_position reads vault shares held and what they are worth.",
	Params: native.Schema([]string{},
		native.PAddress("vault", "The ERC-4626 vault; omit for every configured vault"),
		native.PAddress("owner", "Whose position (default: the agent's wallet)"),
		native.PChain),
	Result: native.ResultSchema(native.RProp("owner", "string", "position owner"),
		`"positions":{"type":"array","items":{"type":"object","properties":{"vault":{"type":"string"},"asset":`+native.RToken+`,"share":`+native.RToken+
			`,"shares":`+native.RAmount+`,"assets":`+native.RAmount+`,"max_withdraw":`+native.RAmount+`,"max_redeem":`+native.RAmount+`,"value_usd":{"type":"number"}}}}`),
	SchemaVersion: 1,
}

type vaultPosOut struct {
	Vault       string           `json:"vault"`
	Asset       native.TokenInfo `json:"asset"`
	Share       native.TokenInfo `json:"share"`
	Shares      native.AmountOut `json:"shares"`
	Assets      native.AmountOut `json:"assets"`
	MaxWithdraw native.AmountOut `json:"max_withdraw"`
	MaxRedeem   native.AmountOut `json:"max_redeem"`
	ValueUSD    *float64         `json:"value_usd,omitempty"`
}

func vaultPosition(env *native.Env) registry.ReadHandler {
	return func(ctx context.Context, in *registry.Input) (*tool.Result, error) {
		if err := native.CheckChain(env, in); err != nil {
			return nil, err
		}
		owner, err := native.ArgAddressOr(in, "owner", native.WalletAddress(env))
		if err != nil {
			return nil, err
		}
		if owner == (common.Address{}) {
			return nil, errors.New("pass owner: no wallet is configured")
		}
		list := env.Venues.Vaults
		if _, ok := in.Args.Get("vault"); ok {
			v, err := native.ArgAddress(in, "vault")
			if err != nil {
				return nil, err
			}
			list = []common.Address{v}
		}
		a := chain.ERC4626ABI()
		outs := []vaultPosOut{}
		for _, v := range list {
			in.Step(0)
			st, err := readVault(ctx, env, v)
			if err != nil {
				return nil, err
			}
			in.Step(1)
			shares, err := native.CallBig(ctx, env, a, v, "balanceOf", owner)
			if err != nil {
				return nil, err
			}
			assets, err := native.CallBig(ctx, env, a, v, "convertToAssets", shares)
			if err != nil {
				return nil, err
			}
			mw, err := native.CallBig(ctx, env, a, v, "maxWithdraw", owner)
			if err != nil {
				return nil, err
			}
			mr, err := native.CallBig(ctx, env, a, v, "maxRedeem", owner)
			if err != nil {
				return nil, err
			}
			o := vaultPosOut{Vault: v.Hex(), Asset: st.asset, Share: st.share,
				Shares: native.AmountOf(shares, st.share.Decimals), Assets: native.AmountOf(assets, st.asset.Decimals),
				MaxWithdraw: native.AmountOf(mw, st.asset.Decimals), MaxRedeem: native.AmountOf(mr, st.share.Decimals)}
			if c := native.ValueCents(ctx, env, st.asset.Address, assets); c >= 0 {
				f := float64(c) / 100
				o.ValueUSD = &f
			}
			outs = append(outs, o)
		}
		return tool.ReadResult(defVaultPosition, map[string]any{"owner": owner.Hex(), "positions": outs})
	}
}

// ---- writes ----

// vaultWriteDef is the definition of a vault write whose amount argument
// is amount (a property fragment of the argument named arg).
func vaultWriteDef(name, desc string, effect tool.Effect, steps []string, snippet, arg, amount string) *tool.Def {
	return &tool.Def{
		Name: name, Description: desc,
		Category: tool.CatVault, Tier: tool.Write, RiskTier: tool.Layer2, Budget: tool.Slow, Effect: effect,
		ProgressSteps: steps, PromptSnippet: snippet,
		Params:        native.Schema([]string{arg}, pVault, amount, native.PClaims("asset", "the vault's asset"), native.PChain),
		SchemaVersion: 1,
	}
}

var (
	defVaultDeposit = vaultWriteDef("vault_deposit",
		"Deposit an exact amount of an ERC-4626 vault's underlying asset and receive vault shares in the agent's wallet (deposit(assets, receiver = wallet)). "+
			"The plan previews the shares (the vault's previewDeposit is the expected minimum), checks the wallet's balance and the vault's maxDeposit, "+
			"and adds an exact approve of the vault when the allowance is short. Use to put idle assets to work in a vault; find one with vault_get_info. "+
			"Does not swap into the asset first (use a swap tool) and does not mint an exact number of shares.",
		tool.EffectOpen, []string{"Reading the vault", "Previewing the deposit", "Sending approve and deposit", "Confirming"},
		"vault_deposit deposits assets into an ERC-4626 vault for shares.",
		"assets", native.PAmount("assets", "Amount of the vault's underlying asset to deposit"))
	defVaultWithdraw = vaultWriteDef("vault_withdraw",
		"Withdraw an exact amount of the underlying asset from an ERC-4626 vault to the agent's wallet, burning the shares it costs (withdraw(assets, wallet, wallet)); "+
			"\"max\" withdraws everything the vault allows (maxWithdraw). The plan previews the shares burned (previewWithdraw, the most that may leave). "+
			"Use to take a known asset amount out; to exit by share count use vault_redeem. Does not unwrap or swap the asset.",
		tool.EffectClose, []string{"Reading the vault", "Previewing the withdrawal", "Sending withdraw", "Confirming"},
		"vault_withdraw withdraws an exact asset amount from an ERC-4626 vault.",
		"assets", native.PAmountMax("assets", "Amount of the underlying asset to withdraw"))
	defVaultRedeem = vaultWriteDef("vault_redeem",
		"Redeem ERC-4626 vault shares for the underlying asset, paid to the agent's wallet (redeem(shares, wallet, wallet)); \"max\" redeems every share held. "+
			"The plan previews the assets (previewRedeem, the expected minimum). Use to exit a vault position by share count, e.g. all of it; "+
			"to take an exact asset amount use vault_withdraw. Does not unwrap or swap the asset.",
		tool.EffectClose, []string{"Reading the vault", "Previewing the redemption", "Sending redeem", "Confirming"},
		"vault_redeem redeems ERC-4626 vault shares for assets.",
		"shares", native.PAmountMax("shares", "Vault shares to redeem"))
)

func planVaultDeposit(env *native.Env) registry.Planner {
	return func(ctx context.Context, in *registry.Input) (*tool.Plan, error) {
		if err := native.CheckChain(env, in); err != nil {
			return nil, err
		}
		v, err := argVault(env, in)
		if err != nil {
			return nil, err
		}
		assets, err := native.ArgPositive(in, "assets")
		if err != nil {
			return nil, err
		}
		owner, err := native.Owner(env)
		if err != nil {
			return nil, err
		}
		in.Step(0)
		st, err := readVault(ctx, env, v)
		if err != nil {
			return nil, err
		}
		a := chain.ERC4626ABI()
		in.Step(1)
		maxDep, err := native.CallBig(ctx, env, a, v, "maxDeposit", owner)
		if err != nil {
			return nil, err
		}
		if assets.Cmp(maxDep) > 0 {
			return nil, fmt.Errorf("the vault accepts at most %s %s from the wallet now", native.FormatUnits(maxDep, st.asset.Decimals), st.asset.Symbol)
		}
		shares, err := native.CallBig(ctx, env, a, v, "previewDeposit", assets)
		if err != nil {
			return nil, err
		}
		if shares.Sign() == 0 {
			return nil, errors.New("the deposit is too small to mint any share")
		}
		txs, err := native.Spend(ctx, env, st.asset, v, assets)
		if err != nil {
			return nil, err
		}
		dep, err := native.Tx(a, v, "deposit", "deposit", assets, owner)
		if err != nil {
			return nil, err
		}
		return native.NewPlan(env, append(txs, dep),
			[]tool.TokenUse{native.Claimed(in, st.asset.Address, assets, true, "asset"), {Token: tool.Address(v), Decimals: -1, Amount: shares}},
			native.ValueCents(ctx, env, st.asset.Address, assets),
			fmt.Sprintf("deposit %s %s into vault %s for about %s shares",
				native.FormatUnits(assets, st.asset.Decimals), st.asset.Symbol, v.Hex(), native.FormatUnits(shares, st.share.Decimals))), nil
	}
}

// vaultExitCall is what a withdrawal or redemption starts from: the vault,
// the wallet, the amount asked (the most allowed when it is "max") and
// that most.
type vaultExitCall struct {
	v, owner    common.Address
	st          vaultState
	a           *chain.ABI
	amount, max *big.Int
}

// vaultExit reads the arguments and the vault of a withdrawal or
// redemption: amountArg is "assets" or "shares", maxMethod the ERC-4626
// view bounding it (maxWithdraw, maxRedeem). A zero amount is
// errNoPosition; the caller checks the amount against max.
func vaultExit(ctx context.Context, env *native.Env, in *registry.Input, amountArg, maxMethod string) (*vaultExitCall, error) {
	if err := native.CheckChain(env, in); err != nil {
		return nil, err
	}
	x := &vaultExitCall{a: chain.ERC4626ABI()}
	var err error
	if x.v, err = argVault(env, in); err != nil {
		return nil, err
	}
	if x.amount, err = native.ArgAmountMax(in, amountArg); err != nil {
		return nil, err
	}
	if x.owner, err = native.Owner(env); err != nil {
		return nil, err
	}
	in.Step(0)
	if x.st, err = readVault(ctx, env, x.v); err != nil {
		return nil, err
	}
	in.Step(1)
	if x.max, err = native.CallBig(ctx, env, x.a, x.v, maxMethod, x.owner); err != nil {
		return nil, err
	}
	if x.amount == nil {
		x.amount = x.max
	}
	if x.amount.Sign() == 0 {
		return nil, native.ErrNoPosition
	}
	return x, nil
}

func planVaultWithdraw(env *native.Env) registry.Planner {
	return func(ctx context.Context, in *registry.Input) (*tool.Plan, error) {
		x, err := vaultExit(ctx, env, in, "assets", "maxWithdraw")
		if err != nil {
			return nil, err
		}
		v, owner, st, a, assets, maxW := x.v, x.owner, x.st, x.a, x.amount, x.max
		if assets.Cmp(maxW) > 0 {
			return nil, fmt.Errorf("the wallet can withdraw at most %s %s from the vault", native.FormatUnits(maxW, st.asset.Decimals), st.asset.Symbol)
		}
		shares, err := native.CallBig(ctx, env, a, v, "previewWithdraw", assets)
		if err != nil {
			return nil, err
		}
		w, err := native.Tx(a, v, "withdraw", "withdraw", assets, owner, owner)
		if err != nil {
			return nil, err
		}
		return native.NewPlan(env, []tool.Tx{w},
			[]tool.TokenUse{{Token: tool.Address(v), Decimals: -1, Amount: shares, Out: true}, native.Claimed(in, st.asset.Address, assets, false, "asset")},
			native.ValueCents(ctx, env, st.asset.Address, assets),
			fmt.Sprintf("withdraw %s %s from vault %s, burning at most %s shares",
				native.FormatUnits(assets, st.asset.Decimals), st.asset.Symbol, v.Hex(), native.FormatUnits(shares, st.share.Decimals))), nil
	}
}

func planVaultRedeem(env *native.Env) registry.Planner {
	return func(ctx context.Context, in *registry.Input) (*tool.Plan, error) {
		x, err := vaultExit(ctx, env, in, "shares", "maxRedeem")
		if err != nil {
			return nil, err
		}
		v, owner, st, a, shares, maxR := x.v, x.owner, x.st, x.a, x.amount, x.max
		if shares.Cmp(maxR) > 0 {
			return nil, fmt.Errorf("the wallet can redeem at most %s shares of the vault", native.FormatUnits(maxR, st.share.Decimals))
		}
		assets, err := native.CallBig(ctx, env, a, v, "previewRedeem", shares)
		if err != nil {
			return nil, err
		}
		if assets.Sign() == 0 {
			return nil, errors.New("the shares are too few to redeem any asset")
		}
		r, err := native.Tx(a, v, "redeem", "redeem", shares, owner, owner)
		if err != nil {
			return nil, err
		}
		return native.NewPlan(env, []tool.Tx{r},
			[]tool.TokenUse{{Token: tool.Address(v), Decimals: -1, Amount: shares, Out: true}, native.Claimed(in, st.asset.Address, assets, false, "asset")},
			native.ValueCents(ctx, env, st.asset.Address, assets),
			fmt.Sprintf("redeem %s shares of vault %s for about %s %s",
				native.FormatUnits(shares, st.share.Decimals), v.Hex(), native.FormatUnits(assets, st.asset.Decimals), st.asset.Symbol)), nil
	}
}
