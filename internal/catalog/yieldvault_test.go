package catalog_test

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// refuseWrite checks that planning name with args fails with an error
// about want.
func (f *baseFixture) refuseWrite(t *testing.T, name, args, want string) {
	t.Helper()
	if _, _, err := f.plan(t, name, args); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s %s: %v, want an error about %q", name, args, err, want)
	}
}

// TestSavingsDai reads the DSR of ward's same-ABI sDAI as an APY, then
// deposits DAI and redeems sDAI through the generic vault tools,
// committing each and checking receipts and balances.
func TestSavingsDai(t *testing.T) {
	f := base(t)
	c, me := f.c, f.wallet()
	var info struct {
		SDAI   string  `json:"sdai"`
		Pot    string  `json:"pot"`
		APY    float64 `json:"savings_rate_apy_percent"`
		DSR    string  `json:"dsr"`
		Chi    string  `json:"chi"`
		Price  string  `json:"share_price"`
		Total  amt     `json:"total_assets"`
		Shares amt     `json:"shares"`
	}
	f.read(t, "maker_get_savings_rate", `{}`, &info)
	if common.HexToAddress(info.SDAI) != c.SavingsDai || common.HexToAddress(info.Pot) != c.MakerPot || info.DSR != chain.DevDSR.String() {
		t.Fatalf("sdai info = %+v", info)
	}
	if !near(info.APY, 5, 1e-6) || fl(info.Price) < 1 || fl(info.Price) > 1.001 || info.Total.big(t).Cmp(units(100_000, 18)) < 0 || info.Shares.Raw != "0" {
		t.Errorf("sdai info = %+v, want a 5 %% APY, a price just over 1 and 100,000 DAI", info)
	}

	// Deposit 1,000 DAI: the DAI leaves, about 1,000 / chi sDAI arrive.
	dai0 := f.balance(t, c.DAI, me)
	var out stakeOut
	f.commit(t, "vault_deposit", argsOf("vault", c.SavingsDai, "assets", units(1_000, 18), "asset_symbol", "DAI"), &out)
	f.mined(t, "vault_deposit", out)
	wantDelta(t, "DAI deposited into sDAI", new(big.Int).Sub(dai0, f.balance(t, c.DAI, me)), units(1_000, 18))
	sdai := f.balance(t, c.SavingsDai, me)
	if sdai.Cmp(units(999, 18)) < 0 || sdai.Cmp(units(1_000, 18)) > 0 {
		t.Fatalf("1,000 DAI bought %s sDAI, want just under 1,000", sdai)
	}

	// Redeem it all: at least the 1,000 DAI back (the rate only grows).
	dai1 := f.balance(t, c.DAI, me)
	f.commit(t, "vault_redeem", argsOf("vault", c.SavingsDai, "shares", "max"), &out)
	f.mined(t, "vault_redeem", out)
	wantDelta(t, "sDAI after redeeming", f.balance(t, c.SavingsDai, me), new(big.Int))
	if back := new(big.Int).Sub(f.balance(t, c.DAI, me), dai1); back.Cmp(units(999_999, 15)) < 0 || back.Cmp(units(1_001, 18)) > 0 {
		t.Errorf("redeeming paid %s DAI, want about 1,000", back)
	}
	f.refuseWrite(t, "vault_redeem", argsOf("vault", c.SavingsDai, "shares", "max"), "no position")
}

// TestEthena deposits USDe into ward's same-ABI sUSDe, refuses a direct
// redemption while the cooldown is on, cools sUSDe down, refuses the
// unstake before the cooldown ends (at preview, saying when it ends),
// and unstakes after it, on a dev chain of its own (its clock moves a
// week).
func TestEthena(t *testing.T) {
	f, err := newFixture("ward catalog ethena tests")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.dev.Close() })
	c, me := f.c, f.wallet()
	e := func(n int64) *big.Int { return units(n, 18) }
	type ethenaInfo struct {
		Asset struct {
			Symbol string `json:"symbol"`
		} `json:"asset"`
		Price    string `json:"share_price"`
		Cooldown int64  `json:"cooldown_seconds"`
		Shares   amt    `json:"shares"`
		Cooling  amt    `json:"cooling_down"`
		End      string `json:"cooldown_end"`
		Ready    bool   `json:"unstake_ready"`
	}
	var info ethenaInfo
	f.read(t, "ethena_get_info", `{}`, &info)
	if info.Asset.Symbol != "USDe" || info.Cooldown != int64(chain.DevUSDeCooldown/time.Second) || fl(info.Price) != 1 || info.Cooling.Raw != "0" || info.Ready {
		t.Fatalf("ethena info = %+v", info)
	}
	f.refuseWrite(t, "ethena_unstake_usde", `{}`, "no USDe is cooling down")
	f.refuseWrite(t, "ethena_cooldown_susde", argsOf("shares", "max"), "holds no sUSDe")

	// Deposit 1,000 USDe through the generic vault tool.
	usde0 := f.balance(t, c.USDe, me)
	var out stakeOut
	f.commit(t, "vault_deposit", argsOf("vault", c.EthenaSUSDe, "assets", e(1_000), "asset_symbol", "USDe"), &out)
	f.mined(t, "vault_deposit", out)
	wantDelta(t, "USDe staked", new(big.Int).Sub(usde0, f.balance(t, c.USDe, me)), e(1_000))
	shares := f.balance(t, c.EthenaSUSDe, me)
	wantDelta(t, "sUSDe minted", shares, e(1_000))

	// With a cooldown, sUSDe does not redeem directly: refused at preview.
	// Refusals move nothing.
	usdeN := f.balance(t, c.USDe, me)
	f.refuseWrite(t, "vault_redeem", argsOf("vault", c.EthenaSUSDe, "shares", "max"), "ethena_cooldown_susde")
	f.refuseWrite(t, "vault_withdraw", argsOf("vault", c.EthenaSUSDe, "assets", e(1)), "ethena_cooldown_susde")
	f.refuseWrite(t, "ethena_cooldown_susde", argsOf("shares", e(2_000)), "the wallet holds")
	f.refuseWrite(t, "ethena_cooldown_susde", argsOf("assets", e(2_000)), "less than the")
	f.refuseWrite(t, "ethena_cooldown_susde", argsOf("shares", e(1), "assets", e(1)), "exactly one")
	f.refuseWrite(t, "ethena_cooldown_susde", `{}`, "exactly one")
	f.refuseWrite(t, "ethena_cooldown_susde", argsOf("shares", "0"), "greater than 0")
	if u, s := f.balance(t, c.USDe, me), f.balance(t, c.EthenaSUSDe, me); u.Cmp(usdeN) != 0 || s.Cmp(shares) != 0 {
		t.Errorf("refused plans moved funds: USDe %s → %s, sUSDe %s → %s", usdeN, u, shares, s)
	}

	// Cool down 400 USDe worth, then the rest by shares.
	f.commit(t, "ethena_cooldown_susde", argsOf("assets", e(400), "susde_symbol", "sUSDe"), &out)
	f.mined(t, "ethena_cooldown_susde", out)
	wantDelta(t, "sUSDe after cooling 400 USDe", f.balance(t, c.EthenaSUSDe, me), e(600))
	f.commit(t, "ethena_cooldown_susde", argsOf("shares", "max"), &out)
	f.mined(t, "ethena_cooldown_susde", out)
	wantDelta(t, "sUSDe after cooling all", f.balance(t, c.EthenaSUSDe, me), new(big.Int))
	wantDelta(t, "USDe during the cooldown", f.balance(t, c.USDe, me), new(big.Int).Sub(usde0, e(1_000)))

	f.read(t, "ethena_get_info", `{}`, &info)
	end, err := time.Parse(time.RFC3339, info.End)
	if err != nil || info.Cooling.big(t).Cmp(e(1_000)) != 0 || info.Ready || time.Until(end) < chain.DevUSDeCooldown-time.Hour {
		t.Fatalf("during the cooldown: %+v (%v)", info, err)
	}
	// Unstaking before the end is refused at preview with the end time, and moves nothing.
	if _, _, err := f.plan(t, "ethena_unstake_usde", `{}`); err == nil || !strings.Contains(err.Error(), "refused until then") || !strings.Contains(err.Error(), info.End) {
		t.Errorf("early unstake: %v, want a refusal naming %s", err, info.End)
	}

	// A week later the USDe comes back.
	if err := f.dev.AdjustTime(chain.DevUSDeCooldown + time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := f.dev.SetFeedAnswer(t.Context(), c.FeedUSDeUSD, big.NewInt(1e8)); err != nil { // a week-old price is stale
		t.Fatal(err)
	}
	f.read(t, "ethena_get_info", `{}`, &info)
	if !info.Ready {
		t.Errorf("after the cooldown: %+v", info)
	}
	usde1 := f.balance(t, c.USDe, me)
	p := f.commit(t, "ethena_unstake_usde", argsOf("usde_symbol", "USDe"), &out)
	f.mined(t, "ethena_unstake_usde", out)
	wantDelta(t, "USDe unstaked", new(big.Int).Sub(f.balance(t, c.USDe, me), usde1), e(1_000))
	if p.ValueCents != 100_000 {
		t.Errorf("unstake plan valued at %d cents, want 100,000", p.ValueCents)
	}
	f.refuseWrite(t, "ethena_unstake_usde", `{}`, "no USDe is cooling down")

	// With the cooldown off, sUSDe redeems directly and the cooldown tool
	// points there.
	if err := f.dev.SetUSDeCooldown(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	f.commit(t, "vault_deposit", argsOf("vault", c.EthenaSUSDe, "assets", e(100)), &out)
	f.mined(t, "vault_deposit", out)
	f.refuseWrite(t, "ethena_cooldown_susde", argsOf("shares", "max"), "no cooldown now")
	usde2 := f.balance(t, c.USDe, me)
	f.commit(t, "vault_redeem", argsOf("vault", c.EthenaSUSDe, "shares", "max"), &out)
	f.mined(t, "vault_redeem", out)
	wantDelta(t, "USDe redeemed without a cooldown", new(big.Int).Sub(f.balance(t, c.USDe, me), usde2), e(100))
}

// TestYearn reads ward's same-ABI Yearn V3 vault (idle assets, debt,
// the strategy's report, deposit limit), then deposits USDC and redeems
// it.
func TestYearn(t *testing.T) {
	f := base(t)
	c, me := f.c, f.wallet()
	type yv struct {
		Vault      string `json:"vault"`
		API        string `json:"api_version"`
		PPS        string `json:"price_per_share"`
		Total      amt    `json:"total_assets"`
		Idle       amt    `json:"total_idle"`
		Debt       amt    `json:"total_debt"`
		Limit      string `json:"deposit_limit"`
		MaxDeposit string `json:"max_deposit"`
		Strategies []struct {
			Strategy string `json:"strategy"`
			Debt     amt    `json:"current_debt"`
			Max      amt    `json:"max_debt"`
			Last     string `json:"last_report"`
		} `json:"strategies"`
		Shares amt `json:"shares"`
	}
	var got struct {
		Vaults []yv `json:"vaults"`
	}
	f.read(t, "yearn_get_vault", `{}`, &got)
	if len(got.Vaults) != 1 {
		t.Fatalf("yearn vaults = %+v", got)
	}
	v := got.Vaults[0]
	// The operator deposited 200,000 USDC, lent 150,000, and the strategy
	// gained 1,500 (less one unit: the strategy's shares round down).
	gained := new(big.Int).Sub(units(151_500, 6), big.NewInt(1))
	if common.HexToAddress(v.Vault) != c.YearnVaultUSDC || !strings.HasPrefix(v.API, "3.") || v.Total.big(t).Cmp(new(big.Int).Add(gained, units(50_000, 6))) != 0 ||
		v.Idle.big(t).Cmp(units(50_000, 6)) != 0 || v.Debt.big(t).Cmp(gained) != 0 || v.Limit != "10000000" ||
		len(v.Strategies) != 1 || common.HexToAddress(v.Strategies[0].Strategy) != c.YearnStrategyUSDC ||
		v.Strategies[0].Debt.big(t).Cmp(gained) != 0 || v.Strategies[0].Max.big(t).Cmp(units(1_000_000, 6)) != 0 ||
		v.Strategies[0].Last == "" || !near(fl(v.PPS), 1.0075, 1e-5) {
		t.Fatalf("yearn vault = %+v", v)
	}
	if err := f.readErr(t, "yearn_get_vault", argsOf("vault", c.VaultUSDC), &got); err == nil || !strings.Contains(err.Error(), "not a Yearn V3 vault") {
		t.Errorf("a plain ERC-4626 vault read as Yearn: %v", err)
	}

	// Deposit 60,000 USDC, then redeem it all.
	usdc0 := f.balance(t, c.USDC, me)
	var out stakeOut
	f.commit(t, "vault_deposit", argsOf("vault", c.YearnVaultUSDC, "assets", units(60_000, 6), "asset_symbol", "USDC"), &out)
	f.mined(t, "vault_deposit", out)
	wantDelta(t, "USDC deposited into Yearn", new(big.Int).Sub(usdc0, f.balance(t, c.USDC, me)), units(60_000, 6))
	if s := f.balance(t, c.YearnVaultUSDC, me); s.Sign() == 0 {
		t.Fatal("no yvUSDC minted")
	}
	f.refuseWrite(t, "vault_deposit", argsOf("vault", c.YearnVaultUSDC, "assets", units(10_000_000, 6)), "accepts at most")

	usdc1 := f.balance(t, c.USDC, me)
	f.commit(t, "vault_redeem", argsOf("vault", c.YearnVaultUSDC, "shares", "max"), &out)
	f.mined(t, "vault_redeem", out)
	wantDelta(t, "yvUSDC after redeeming", f.balance(t, c.YearnVaultUSDC, me), new(big.Int))
	back := new(big.Int).Sub(f.balance(t, c.USDC, me), usdc1)
	if back.Cmp(units(59_999, 6)) < 0 || back.Cmp(units(60_000, 6)) > 0 {
		t.Errorf("redeeming paid %s USDC, want 60,000 less rounding", back)
	}
}

// namedVaultTools are the named yield vault tools with what their
// definitions promise.
var namedVaultTools = map[string]struct {
	tier          tool.Tier
	effect        tool.Effect
	action, venue string
}{
	"maker_get_savings_rate": {tool.Read, tool.EffectNone, "yield_info", "maker"},
	"ethena_get_info":        {tool.Read, tool.EffectNone, "yield_info", "ethena"},
	"ethena_cooldown_susde":  {tool.Write, tool.EffectClose, "cooldown", "ethena"},
	"ethena_unstake_usde":    {tool.Write, tool.EffectClose, "unstake", "ethena"},
	"yearn_get_vault":        {tool.Read, tool.EffectNone, "yield_info", "yearn"},
}

// TestNamedVaultDefs checks the named yield vault tools' definitions and
// that they leave the catalogue without their venues (Yearn's read takes
// any vault, so it stays).
func TestNamedVaultDefs(t *testing.T) {
	f := base(t)
	for name, want := range namedVaultTools {
		e := f.entry(t, name)
		d := e.Def
		risk := tool.Layer1
		if want.tier == tool.Write {
			risk = tool.Layer2
		}
		if d.Category != tool.CatYield || d.Tier != want.tier || d.RiskTier != risk || d.Effect != want.effect || e.Action != want.action || e.Venue != want.venue {
			t.Errorf("%s: category %v tier %v risk %v effect %v adapter (%s, %s)", name, d.Category, d.Tier, d.RiskTier, d.Effect, e.Action, e.Venue)
		}
		if len(d.Description) < 200 || !strings.Contains(d.Description, "not") {
			t.Errorf("%s: description too thin for a model: %q", name, d.Description)
		}
	}
	v, err := f.reg.Select(registry.Selection{Profiles: []string{"observatory"}})
	if err != nil {
		t.Fatal(err)
	}
	if v.Has("ethena_cooldown_susde") || v.Has("ethena_unstake_usde") {
		t.Error("observatory offers sUSDe writes")
	}
	env := *f.env
	env.Venues.SavingsDai, env.Venues.StakedUSDe, env.Venues.YearnVaults = common.Address{}, common.Address{}, nil
	names := map[string]bool{}
	for _, tl := range catalog.Tools(&env) {
		names[tl.Def.Name] = true
	}
	for name := range namedVaultTools {
		if names[name] != (name == "yearn_get_vault") {
			t.Errorf("without venues, %s registered: %v", name, names[name])
		}
	}
}
