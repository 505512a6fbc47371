package catalog_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

var rethViews = func() *chain.ABI {
	a, err := chain.ParseABI(`[
{"type":"function","name":"getRethValue","stateMutability":"view","inputs":[{"name":"e","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getEthValue","stateMutability":"view","inputs":[{"name":"r","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getExchangeRate","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]}]`)
	if err != nil {
		panic(err)
	}
	return a
}()

// TestRocketPool deposits ETH for rETH and burns rETH for ETH on ward's
// same-ABI Rocket Pool, committing each write and checking its receipt
// and the balances it moved, and refuses what Rocket Pool would refuse.
func TestRocketPool(t *testing.T) {
	f := base(t)
	c, me, ctx := f.c, f.wallet(), t.Context()
	reth := c.RocketRETH
	eth := func(n int64) *big.Int { return units(n, 18) }
	refuse := func(name, args, want string) {
		t.Helper()
		_, _, err := f.plan(t, name, args)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s %s: %v, want an error about %q", name, args, err, want)
		}
	}
	refuse("rocketpool_burn_reth", argsOf("amount", "max"), "holds no rETH")

	var info struct {
		RETH       string  `json:"reth"`
		Pool       string  `json:"deposit_pool"`
		Rate       string  `json:"exchange_rate"`
		Supply     amt     `json:"reth_supply"`
		Collateral amt     `json:"total_collateral"`
		Enabled    bool    `json:"deposits_enabled"`
		Fee        string  `json:"deposit_fee_percent"`
		Min        amt     `json:"minimum_deposit"`
		Max        amt     `json:"maximum_deposit"`
		PoolBal    amt     `json:"deposit_pool_balance"`
		TVLUSD     float64 `json:"tvl_usd"`
	}
	f.read(t, "rocketpool_get_info", `{}`, &info)
	// The operator deposited 1,000 ETH (0.5 ETH of fee) and 100 ETH of rewards back rETH.
	if common.HexToAddress(info.RETH) != reth || common.HexToAddress(info.Pool) != c.RocketDepositPool || !info.Enabled || info.Fee != "0.05" ||
		info.Min.big(t).Cmp(units(1, 16)) != 0 || info.Supply.big(t).Cmp(units(9995, 17)) != 0 || info.Collateral.big(t).Cmp(eth(1_100)) != 0 ||
		info.Max.big(t).Cmp(eth(4_000)) != 0 || !near(fl(info.Rate), 1099.5/999.5, 1e-9) || !near(info.TVLUSD, 1_099.5*3_000, 1e-6) {
		t.Fatalf("rocket pool info = %+v", info)
	}

	// Deposit 10 ETH: exactly the rETH previewed for 10 ETH less the fee.
	amount := eth(10)
	want := f.viewBig(t, rethViews, reth, "getRethValue", new(big.Int).Sub(amount, units(5, 15)))
	eth0, r0 := f.balance(t, common.Address{}, me), f.balance(t, reth, me)
	var out stakeOut
	p := f.commit(t, "rocketpool_deposit_eth", argsOf("amount", amount, "reth_symbol", "rETH", "reth_decimals", 18), &out)
	gas := f.mined(t, "rocketpool_deposit_eth", out)
	if d := new(big.Int).Sub(f.balance(t, reth, me), r0); d.Cmp(want) != 0 || p.Tokens[1].Amount.Cmp(want) != 0 {
		t.Errorf("depositing 10 ETH minted %s rETH, want %s (plan %s)", d, want, p.Tokens[1].Amount)
	}
	if d := new(big.Int).Sub(eth0, f.balance(t, common.Address{}, me)); d.Cmp(new(big.Int).Add(amount, gas)) != 0 {
		t.Errorf("depositing cost %s wei, want %s + %s gas", d, amount, gas)
	}
	if p.ValueCents != 3_000_000 || p.Txs[0].Value.Cmp(amount) != 0 || p.Tokens[1].Symbol != "rETH" {
		t.Errorf("deposit plan = %+v", p)
	}

	// Rewards raise the rETH's ETH value, not its balance.
	var pos struct {
		RETH     amt     `json:"reth"`
		ETHValue amt     `json:"eth_value"`
		Burnable bool    `json:"burnable_now"`
		ValueUSD float64 `json:"value_usd"`
	}
	f.read(t, "rocketpool_get_position", `{}`, &pos)
	before := pos.ETHValue.big(t)
	if err := f.dev.ReportRocketPool(ctx, eth(11)); err != nil {
		t.Fatal(err)
	}
	f.read(t, "rocketpool_get_position", `{}`, &pos)
	if pos.RETH.big(t).Cmp(want) != 0 || pos.ETHValue.big(t).Cmp(before) <= 0 || !pos.Burnable || pos.ValueUSD <= 0 {
		t.Errorf("after rewards: position %+v, worth %s before", pos, before)
	}

	// Burn half, then the rest: each pays getEthValue of the rETH burned.
	half := new(big.Int).Quo(want, big.NewInt(2))
	for _, arg := range []any{half, "max"} {
		burned := half
		if arg == "max" {
			burned = f.balance(t, reth, me)
		}
		paid := f.viewBig(t, rethViews, reth, "getEthValue", burned)
		e1, r1 := f.balance(t, common.Address{}, me), f.balance(t, reth, me)
		f.commit(t, "rocketpool_burn_reth", argsOf("amount", arg, "reth_symbol", "rETH"), &out)
		gas := f.mined(t, "rocketpool_burn_reth", out)
		if d := new(big.Int).Sub(r1, f.balance(t, reth, me)); d.Cmp(burned) != 0 {
			t.Errorf("burn %v took %s rETH, want %s", arg, d, burned)
		}
		if d := new(big.Int).Sub(f.balance(t, common.Address{}, me), e1); new(big.Int).Add(d, gas).Cmp(paid) != 0 {
			t.Errorf("burn %v paid %s wei (less %s gas), want %s", arg, d, gas, paid)
		}
	}
	if r := f.balance(t, reth, me); r.Sign() != 0 {
		t.Errorf("%s rETH left after burning max", r)
	}

	// Refusals move nothing.
	f.commit(t, "rocketpool_deposit_eth", argsOf("amount", eth(1)), &out)
	ethN, rN := f.balance(t, common.Address{}, me), f.balance(t, reth, me)
	refuse("rocketpool_deposit_eth", argsOf("amount", "1000"), "at least 0.01 ETH")
	refuse("rocketpool_deposit_eth", argsOf("amount", eth(4_500)), "takes at most")
	refuse("rocketpool_deposit_eth", argsOf("amount", "0"), "greater than 0")
	refuse("rocketpool_burn_reth", argsOf("amount", eth(1_000)), "the wallet holds")
	refuse("rocketpool_burn_reth", argsOf("amount", "0"), "greater than 0")
	if err := f.dev.EnableRocketPoolDeposits(ctx, false); err != nil {
		t.Fatal(err)
	}
	refuse("rocketpool_deposit_eth", argsOf("amount", eth(1)), "disabled")
	if err := f.dev.EnableRocketPoolDeposits(ctx, true); err != nil {
		t.Fatal(err)
	}
	if e, r := f.balance(t, common.Address{}, me), f.balance(t, reth, me); e.Cmp(ethN) != 0 || r.Cmp(rN) != 0 {
		t.Errorf("refused plans moved funds: ETH %s → %s, rETH %s → %s", ethN, e, rN, r)
	}
}

// stakingTools are the liquid staking tools with what their definitions
// promise: tier, risk, effect, and the (action, venue) the adapter table
// resolves to them.
var stakingTools = map[string]struct {
	tier          tool.Tier
	effect        tool.Effect
	action, venue string
}{
	"lido_get_staking_info":        {tool.Read, tool.EffectNone, "staking_info", "lido"},
	"lido_get_position":            {tool.Read, tool.EffectNone, "staking_position", "lido"},
	"lido_get_withdrawal_requests": {tool.Read, tool.EffectNone, "withdrawal_status", "lido"},
	"lido_stake_eth":               {tool.Write, tool.EffectOpen, "stake", "lido"},
	"lido_wrap_steth":              {tool.Write, tool.EffectOpen, "wrap_steth", "lido"},
	"lido_unwrap_wsteth":           {tool.Write, tool.EffectClose, "unwrap_wsteth", "lido"},
	"lido_request_withdrawal":      {tool.Write, tool.EffectClose, "request_withdrawal", "lido"},
	"lido_claim_withdrawal":        {tool.Write, tool.EffectClose, "claim_withdrawal", "lido"},
	"rocketpool_get_info":          {tool.Read, tool.EffectNone, "staking_info", "rocketpool"},
	"rocketpool_get_position":      {tool.Read, tool.EffectNone, "staking_position", "rocketpool"},
	"rocketpool_deposit_eth":       {tool.Write, tool.EffectOpen, "stake", "rocketpool"},
	"rocketpool_burn_reth":         {tool.Write, tool.EffectClose, "burn", "rocketpool"},
}

// TestStakingDefs checks the staking tools' definitions and which of seed
// 002's profiles offer them: those that load everything, not observatory,
// conservative or the specialised ones, whose categories leave staking out.
func TestStakingDefs(t *testing.T) {
	f := base(t)
	for name, want := range stakingTools {
		e := f.entry(t, name)
		d := e.Def
		risk := tool.Layer1
		if want.tier == tool.Write {
			risk = tool.Layer2
		}
		if d.Category != tool.CatStaking || d.Tier != want.tier || d.RiskTier != risk || d.Effect != want.effect || e.Action != want.action || e.Venue != want.venue {
			t.Errorf("%s: category %v tier %v risk %v effect %v adapter (%s, %s); want staking %v %v %v (%s, %s)", name,
				d.Category, d.Tier, d.RiskTier, d.Effect, e.Action, e.Venue, want.tier, risk, want.effect, want.action, want.venue)
		}
		if len(d.Description) < 200 || !strings.Contains(d.Description, "not") {
			t.Errorf("%s: description too thin for a model: %q", name, d.Description)
		}
	}
	for _, profile := range []string{"dev", "full", "active", "golem", "observatory", "conservative", "vault", "trader", "data"} {
		v, err := f.reg.Select(registry.Selection{Profiles: []string{profile}, Have: []tool.Requirement{tool.NeedsWallet}})
		if err != nil {
			t.Fatal(err)
		}
		all := profile == "dev" || profile == "full" || profile == "active" || profile == "golem"
		for name, want := range stakingTools {
			if v.Has(name) != all {
				t.Errorf("profile %s offers %s: %v, want %v", profile, name, v.Has(name), all)
			}
			if e, ok := v.Adapter(want.action, want.venue); all && (!ok || e.Def.Name != name) {
				t.Errorf("profile %s: adapter (%s, %s) resolves to %v, want %s", profile, want.action, want.venue, e, name)
			}
		}
	}
	// Without the venues, no staking tool registers.
	env := *f.env
	env.Venues.LidoWithdrawalQueue, env.Venues.RocketStorage = common.Address{}, common.Address{}
	for _, tl := range catalog.Tools(&env) {
		if _, ok := stakingTools[tl.Def.Name]; ok {
			t.Errorf("%s registered without its protocol's address", tl.Def.Name)
		}
	}
}
