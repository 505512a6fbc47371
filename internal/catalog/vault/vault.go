package vault

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

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

// argVault reads the vault argument, or the only configured vault.
func argVault(env *native.Env, a *native.Args) common.Address {
	if a.Has("vault") {
		return a.Address("vault")
	}
	switch len(env.Venues.Vaults) {
	case 0:
		a.Check(errors.New("no vault is configured for this chain: pass vault"))
		return common.Address{}
	case 1:
		return env.Venues.Vaults[0]
	}
	a.Check(fmt.Errorf("several vaults are configured: pass vault (one of %s)", native.Hexes(env.Venues.Vaults)))
	return common.Address{}
}

// argVaults reads the vault argument, or every configured vault.
func argVaults(env *native.Env, a *native.Args) []common.Address {
	if !a.Has("vault") {
		return env.Venues.Vaults
	}
	return []common.Address{a.Address("vault")}
}

var pVault = native.PAddress("vault", "The ERC-4626 vault (default: the chain's configured vault when there is exactly one; vault_get_info lists them)")

var info = native.ReadTool{
	Name: "vault_get_info",
	Description: "Describe ERC-4626 vaults: the underlying asset, total assets, share supply, the price of one share in the asset, and the most the wallet may deposit, " +
		"with USD values where a feed prices the asset. Without vault it lists every vault configured for this chain. " +
		"Use it to find a vault and its asset before vault_deposit. Does not show anyone's position (vault_get_position) or the vault's strategy.",
	Category: tool.CatVault, Budget: tool.Medium,
	Steps:   []string{"Reading the vault", "Reading the asset", "Computing the share price"},
	Snippet: "vault_get_info describes ERC-4626 vaults: asset, assets, shares, share price.",
	Params:  []string{native.PAddress("vault", "The ERC-4626 vault; omit to list the configured vaults")},
	Result: []string{`"vaults":{"type":"array","items":{"type":"object","properties":{"vault":{"type":"string"},"name":{"type":"string"},"share":` + native.RToken +
		`,"asset":` + native.RToken + `,"total_assets":` + native.RAmount + `,"total_supply":` + native.RAmount +
		`,"share_price":{"type":"string","description":"assets per whole share"},"max_deposit":{"type":"string","description":"most assets the wallet may deposit, or unlimited"},"tvl_usd":{"type":"number"}}}}`},
	Action: "vault", Venue: "vault",
	Run: readInfo,
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

func readInfo(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	list := argVaults(env, a)
	if err := a.Err(); err != nil {
		return nil, err
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
				o.MaxDeposit = native.FormatCap(m, st.asset.Decimals)
			}
		}
		o.TVLUSD = native.USD(ctx, env, st.asset.Address, st.totalAssets)
		outs = append(outs, o)
	}
	return map[string]any{"vaults": outs}, nil
}

// preview declares a vault_preview_* read: method (previewDeposit, ...)
// of an amount argument arg, answering an amount named result.
func preview(name, desc, method, arg, argDesc, result string) native.ReadTool {
	verb := strings.TrimPrefix(name, "vault_preview_")
	return native.ReadTool{
		Name: name, Description: desc + " Give the vault (or omit it when the chain has exactly one; vault_get_info lists them). " +
			"A preview reads the vault's current rate: it sends nothing, reserves nothing, and the result may change if the vault's assets change before you act.",
		Category: tool.CatVault, Budget: tool.Fast,
		Steps:    []string{"Reading the vault", "Previewing"},
		Snippet:  name + " previews an ERC-4626 " + verb + " at the vault's current rate.",
		Required: []string{arg}, Params: []string{pVault, native.PAmount(arg, argDesc)},
		Result: []string{native.RProp("vault", "string", "the vault"), native.RTokenProp("asset", "the underlying asset"), native.RTokenProp("share", "the vault share"),
			native.RAmountProp(arg, "the amount previewed"), native.RAmountProp(result, "the vault's preview")},
		Action: verb + "_preview", Venue: "vault",
		Run: func(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
			a := native.ArgsOf(in)
			v, amount := argVault(env, a), a.Amount(arg)
			if err := a.Err(); err != nil {
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
			return map[string]any{
				"vault": v.Hex(), "asset": st.asset, "share": st.share,
				arg: native.AmountOf(amount, argDec), result: native.AmountOf(got, resDec),
			}, nil
		},
	}
}

var (
	previewDeposit = preview("vault_preview_deposit",
		"Preview an ERC-4626 deposit: how many vault shares depositing an amount of the asset mints now (the vault's previewDeposit). "+
			"Use before vault_deposit to see the shares you would get.",
		"previewDeposit", "assets", "Amount of the underlying asset to deposit", "shares")
	previewRedeem = preview("vault_preview_redeem",
		"Preview an ERC-4626 redemption: how much of the asset redeeming an amount of vault shares pays now (the vault's previewRedeem). "+
			"Use before vault_redeem to see what the shares are worth.",
		"previewRedeem", "shares", "Vault shares to redeem", "assets")
	previewWithdraw = preview("vault_preview_withdraw",
		"Preview an ERC-4626 withdrawal: how many vault shares withdrawing an exact amount of the asset burns now (the vault's previewWithdraw, rounded up). "+
			"Use before vault_withdraw to see the shares it costs.",
		"previewWithdraw", "assets", "Amount of the underlying asset to withdraw", "shares")
)

var position = native.ReadTool{
	Name: "vault_get_position",
	Description: "Read an ERC-4626 position: the vault shares an owner (default: the agent's wallet) holds, the assets they redeem for now, " +
		"the most that can be withdrawn or redeemed, and the USD value where a feed prices the asset. Without vault it reads every configured vault. " +
		"Use before vault_withdraw or vault_redeem. Does not show the vault's totals (vault_get_info).",
	Category: tool.CatVault, Budget: tool.Medium,
	Steps:   []string{"Reading the vault", "Reading the position"},
	Snippet: "vault_get_position reads vault shares held and what they are worth.",
	Params: []string{
		native.PAddress("vault", "The ERC-4626 vault; omit for every configured vault"),
		native.PAddress("owner", "Whose position (default: the agent's wallet)")},
	Result: []string{native.RProp("owner", "string", "position owner"),
		`"positions":{"type":"array","items":{"type":"object","properties":{"vault":{"type":"string"},"asset":` + native.RToken + `,"share":` + native.RToken +
			`,"shares":` + native.RAmount + `,"assets":` + native.RAmount + `,"max_withdraw":` + native.RAmount + `,"max_redeem":` + native.RAmount + `,"value_usd":{"type":"number"}}}}`},
	Action: "vault_position", Venue: "vault",
	Run: readPosition,
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

func readPosition(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	owner := a.Whose(env, "owner")
	list := argVaults(env, a)
	if err := a.Err(); err != nil {
		return nil, err
	}
	abi := chain.ERC4626ABI()
	outs := []vaultPosOut{}
	for _, v := range list {
		in.Step(0)
		st, err := readVault(ctx, env, v)
		if err != nil {
			return nil, err
		}
		in.Step(1)
		shares, err := native.CallBig(ctx, env, abi, v, "balanceOf", owner)
		if err != nil {
			return nil, err
		}
		assets, err := native.CallBig(ctx, env, abi, v, "convertToAssets", shares)
		if err != nil {
			return nil, err
		}
		mw, err := native.CallBig(ctx, env, abi, v, "maxWithdraw", owner)
		if err != nil {
			return nil, err
		}
		mr, err := native.CallBig(ctx, env, abi, v, "maxRedeem", owner)
		if err != nil {
			return nil, err
		}
		outs = append(outs, vaultPosOut{Vault: v.Hex(), Asset: st.asset, Share: st.share,
			Shares: native.AmountOf(shares, st.share.Decimals), Assets: native.AmountOf(assets, st.asset.Decimals),
			MaxWithdraw: native.AmountOf(mw, st.asset.Decimals), MaxRedeem: native.AmountOf(mr, st.share.Decimals),
			ValueUSD: native.USD(ctx, env, st.asset.Address, assets)})
	}
	return map[string]any{"owner": owner.Hex(), "positions": outs}, nil
}

// writeParams are the parameters of a vault write whose amount is the
// fragment amount.
func writeParams(amount string) []string {
	return []string{pVault, amount, native.PClaims("asset", "the vault's asset")}
}

var deposit = native.WriteTool{
	Name: "vault_deposit",
	Description: "Deposit an exact amount of an ERC-4626 vault's underlying asset and receive vault shares in the agent's wallet (deposit(assets, receiver = wallet)). " +
		"The plan previews the shares (the vault's previewDeposit is the expected minimum), checks the wallet's balance and the vault's maxDeposit, " +
		"and adds an exact approve of the vault when the allowance is short. Use to put idle assets to work in a vault; find one with vault_get_info. " +
		"Does not swap into the asset first (use a swap tool) and does not mint an exact number of shares.",
	Category: tool.CatVault, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Reading the vault", "Previewing the deposit", "Sending approve and deposit", "Confirming"},
	Snippet:  "vault_deposit deposits assets into an ERC-4626 vault for shares.",
	Required: []string{"assets"}, Params: writeParams(native.PAmount("assets", "Amount of the vault's underlying asset to deposit")),
	Action: "deposit", Venue: "vault",
	Plan: planDeposit,
}

var withdraw = native.WriteTool{
	Name: "vault_withdraw",
	Description: "Withdraw an exact amount of the underlying asset from an ERC-4626 vault to the agent's wallet, burning the shares it costs (withdraw(assets, wallet, wallet)); " +
		"\"max\" withdraws everything the vault allows (maxWithdraw). The plan previews the shares burned (previewWithdraw, the most that may leave). " +
		"Use to take a known asset amount out; to exit by share count use vault_redeem. Does not unwrap or swap the asset.",
	Category: tool.CatVault, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the vault", "Previewing the withdrawal", "Sending withdraw", "Confirming"},
	Snippet:  "vault_withdraw withdraws an exact asset amount from an ERC-4626 vault.",
	Required: []string{"assets"}, Params: writeParams(native.PAmountMax("assets", "Amount of the underlying asset to withdraw")),
	Action: "withdraw", Venue: "vault",
	Plan: planWithdraw,
}

var redeem = native.WriteTool{
	Name: "vault_redeem",
	Description: "Redeem ERC-4626 vault shares for the underlying asset, paid to the agent's wallet (redeem(shares, wallet, wallet)); \"max\" redeems every share held. " +
		"The plan previews the assets (previewRedeem, the expected minimum). Use to exit a vault position by share count, e.g. all of it; " +
		"to take an exact asset amount use vault_withdraw. Does not unwrap or swap the asset.",
	Category: tool.CatVault, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the vault", "Previewing the redemption", "Sending redeem", "Confirming"},
	Snippet:  "vault_redeem redeems ERC-4626 vault shares for assets.",
	Required: []string{"shares"}, Params: writeParams(native.PAmountMax("shares", "Vault shares to redeem")),
	Action: "redeem", Venue: "vault",
	Plan: planRedeem,
}

func planDeposit(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	a := native.ArgsOf(in)
	v, assets := argVault(env, a), a.Positive("assets")
	owner := a.Wallet(env)
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	st, err := readVault(ctx, env, v)
	if err != nil {
		return nil, err
	}
	abi := chain.ERC4626ABI()
	in.Step(1)
	maxDep, err := native.CallBig(ctx, env, abi, v, "maxDeposit", owner)
	if err != nil {
		return nil, err
	}
	if assets.Cmp(maxDep) > 0 {
		return nil, fmt.Errorf("the vault accepts at most %s %s from the wallet now", native.FormatUnits(maxDep, st.asset.Decimals), st.asset.Symbol)
	}
	shares, err := native.CallBig(ctx, env, abi, v, "previewDeposit", assets)
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
	dep, err := native.Tx(abi, v, "deposit", "deposit", assets, owner)
	if err != nil {
		return nil, err
	}
	// A vault whose share price grows by the second (sDAI over the DSR)
	// mints a little fewer shares in the block that includes the deposit
	// than previewDeposit at the latest block: expect 1 bp less, which
	// covers a day of a 5 % rate.
	least := new(big.Int).Sub(shares, new(big.Int).Quo(shares, big.NewInt(10_000)))
	return native.NewPlan(ctx, env, append(txs, dep),
		[]tool.TokenUse{native.Claimed(in, st.asset.Address, assets, true, "asset"), {Token: tool.Address(v), Decimals: -1, Amount: least}},
		native.ValueCents(ctx, env, st.asset.Address, assets),
		fmt.Sprintf("deposit %s %s into vault %s for about %s shares",
			native.FormatUnits(assets, st.asset.Decimals), st.asset.Symbol, v.Hex(), native.FormatUnits(shares, st.share.Decimals))), nil
}

// exit is a withdrawal or a redemption as it starts: the vault, the
// wallet, the amount asked (the most allowed when it is "max") and that
// most.
type exit struct {
	v, owner    common.Address
	st          vaultState
	a           *chain.ABI
	amount, max *big.Int
}

// readExit reads the arguments and the vault of a withdrawal or
// redemption: amountArg is "assets" or "shares", maxMethod the ERC-4626
// view bounding it (maxWithdraw, maxRedeem). A zero amount is
// errNoPosition; the caller checks the amount against max.
func readExit(ctx context.Context, env *native.Env, in *registry.Input, amountArg, maxMethod string) (*exit, error) {
	a := native.ArgsOf(in)
	x := &exit{a: chain.ERC4626ABI(), v: argVault(env, a), amount: a.AmountOrMax(amountArg)}
	if err := a.Err(); err != nil {
		return nil, err
	}
	var err error
	if x.owner, err = native.Owner(env); err != nil {
		return nil, err
	}
	in.Step(0)
	if x.st, err = readVault(ctx, env, x.v); err != nil {
		return nil, err
	}
	if err := checkNoCooldown(ctx, env, x.v); err != nil {
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

// plan is x's plan: method (withdraw, redeem) of x's amount, burning at
// most shares for at least assets, summarised by summary.
func (x *exit) plan(ctx context.Context, env *native.Env, in *registry.Input, method string, shares, assets *big.Int, summary string) (*tool.Plan, error) {
	t, err := native.Tx(x.a, x.v, method, method, x.amount, x.owner, x.owner)
	if err != nil {
		return nil, err
	}
	return native.NewPlan(ctx, env, []tool.Tx{t},
		[]tool.TokenUse{{Token: tool.Address(x.v), Decimals: -1, Amount: shares, Out: true}, native.Claimed(in, x.st.asset.Address, assets, false, "asset")},
		native.ValueCents(ctx, env, x.st.asset.Address, assets), summary), nil
}

func planWithdraw(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	x, err := readExit(ctx, env, in, "assets", "maxWithdraw")
	if err != nil {
		return nil, err
	}
	st, assets := x.st, x.amount
	if assets.Cmp(x.max) > 0 {
		return nil, fmt.Errorf("the wallet can withdraw at most %s %s from the vault", native.FormatUnits(x.max, st.asset.Decimals), st.asset.Symbol)
	}
	shares, err := native.CallBig(ctx, env, x.a, x.v, "previewWithdraw", assets)
	if err != nil {
		return nil, err
	}
	return x.plan(ctx, env, in, "withdraw", shares, assets, fmt.Sprintf("withdraw %s %s from vault %s, burning at most %s shares",
		native.FormatUnits(assets, st.asset.Decimals), st.asset.Symbol, x.v.Hex(), native.FormatUnits(shares, st.share.Decimals)))
}

func planRedeem(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	x, err := readExit(ctx, env, in, "shares", "maxRedeem")
	if err != nil {
		return nil, err
	}
	st, shares := x.st, x.amount
	if shares.Cmp(x.max) > 0 {
		return nil, fmt.Errorf("the wallet can redeem at most %s shares of the vault", native.FormatUnits(x.max, st.share.Decimals))
	}
	assets, err := native.CallBig(ctx, env, x.a, x.v, "previewRedeem", shares)
	if err != nil {
		return nil, err
	}
	if assets.Sign() == 0 {
		return nil, errors.New("the shares are too few to redeem any asset")
	}
	return x.plan(ctx, env, in, "redeem", shares, assets, fmt.Sprintf("redeem %s shares of vault %s for about %s %s",
		native.FormatUnits(shares, st.share.Decimals), x.v.Hex(), native.FormatUnits(assets, st.asset.Decimals), st.asset.Symbol))
}

// cooldownDurationSelector is StakedUSDeV2's cooldownDuration().
var cooldownDurationSelector = crypto.Keccak256([]byte("cooldownDuration()"))[:4]

// checkNoCooldown refuses a withdrawal or redemption from a vault with
// Ethena's cooldown (StakedUSDeV2's cooldownDuration above zero), whose
// withdraw and redeem revert: its exit is a cooldown, then an unstake. A
// vault whose cooldownDuration reverts (it has none) or answers nothing
// has no cooldown; a call that could not be made refuses the plan.
func checkNoCooldown(ctx context.Context, env *native.Env, v common.Address) error {
	r, err := env.Chain.Call(ctx, ethereum.CallMsg{To: &v, Data: cooldownDurationSelector})
	switch {
	case errors.Is(err, chain.ErrReverted):
		return nil
	case err != nil:
		return fmt.Errorf("read whether vault %s has a withdrawal cooldown: %w", v.Hex(), err)
	case len(r) < 32:
		return nil
	}
	d := new(big.Int).SetBytes(r[:32])
	if d.Sign() == 0 {
		return nil
	}
	return fmt.Errorf("vault %s exits only through a cooldown of %s seconds: use ethena_cooldown_susde, then ethena_unstake_usde once it ends", v.Hex(), d)
}
