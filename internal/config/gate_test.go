package config

import (
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/hook"
)

func TestGateSectionsDefaults(t *testing.T) {
	f, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(f.Tools.Profiles, ",") != "active" || f.Chain.RPCURL != "" || f.Chain.DevSeed != "ward-dev" {
		t.Errorf("tools/chain defaults: %+v %+v", f.Tools, f.Chain)
	}
	if f.Gate.PermitTTL != 3*time.Minute || f.Gate.AnnounceDelay != 30*time.Second || f.Gate.TickPeriod != 30*time.Second {
		t.Errorf("gate defaults: %+v", f.Gate)
	}
	if f.Hooks.Spending.PerTickCents != 100_000 || f.Hooks.Spending.DailyCents != 2_000_000 || f.Hooks.Rate.Max != 30 {
		t.Errorf("hook defaults: %+v", f.Hooks)
	}
}

func TestGateSectionsOverrides(t *testing.T) {
	f, err := Parse("w.toml", []byte(`
[tools]
profile = "trader,vault"
disable = ["uniswap_add_liquidity"]
[chain]
rpc_url = "http://127.0.0.1:8545"
chain_id = 1
[gate]
permit_ttl = "90s"
announce_delay = "0s"
owner = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
[hooks.spending]
per_tick_usd = 12.5
daily_usd = 1e30
[hooks.rate]
max_writes = 5
window = "10m"
[hooks.allowlist]
tokens = ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"]
any_contract = true
any_selector = true
`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(f.Tools.Profiles, ",") != "trader,vault" || f.Chain.ChainID != 1 || f.Gate.PermitTTL != 90*time.Second {
		t.Errorf("parsed: %+v %+v %+v", f.Tools, f.Chain, f.Gate)
	}
	if f.Hooks.Spending.PerTickCents != 1250 || f.Hooks.Spending.DailyCents != hook.Unlimited || f.Hooks.Rate.Max != 5 || f.Hooks.Rate.Window != 10*time.Minute {
		t.Errorf("hooks: %+v", f.Hooks)
	}
	if len(f.Hooks.Allowlist.Tokens) != 1 || !f.Hooks.Allowlist.AnyContract {
		t.Errorf("allowlist: %+v", f.Hooks.Allowlist)
	}
}

func TestGateSectionsErrors(t *testing.T) {
	for _, tc := range []struct{ name, toml, want string }{
		{"profile", "[tools]\nprofile = \"trader,nope\"\n", "2:11: tools.profile"},
		{"rpc", "[chain]\nrpc_url = \"ftp://x\"\n", "2:11: chain.rpc_url"},
		{"duration", "[gate]\npermit_ttl = \"soon\"\n", "2:14: gate.permit_ttl"},
		{"owner", "[gate]\nowner = \"0x12\"\n", "2:9: gate.owner"},
		{"delay outlives the permit", "[gate]\nannounce_delay = \"1h\"\n", "gate.announce_delay: must be shorter than gate.permit_ttl (3m0s)"},
		{"delay equals the permit", "[gate]\npermit_ttl = \"1m\"\nannounce_delay = \"60s\"\n", "gate.announce_delay: must be shorter"},
		{"negative", "[hooks.spending]\ndaily_usd = -1.0\n", "2:13: hooks.spending.daily_usd"},
		{"token", "[hooks.allowlist]\ntokens = [\"nope\"]\n", "hooks.allowlist.tokens[0]"},
		{"any and list", "[hooks.allowlist]\ntokens = [\"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\"]\nany_token = true\n", "hooks.allowlist"},
		{"unknown key", "[gate]\npermit = \"1m\"\n", "permit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("w.toml", []byte(tc.toml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}
