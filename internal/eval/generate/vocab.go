package generate

// Shared grammar pieces. The protocol and venue names are invented, so that
// no generated sentence states something about a real deployment.

// Domains of MemoryGraft and of the clean material.
const (
	DomainTrading = "defi_trading"
	DomainLending = "lending"
	DomainDevOps  = "devops_ci"
	DomainData    = "data_science"
	DomainSupport = "customer_support"
)

// Domains lists the five domains in suite order.
func Domains() []string {
	return []string{DomainTrading, DomainLending, DomainDevOps, DomainData, DomainSupport}
}

var (
	venues  = []string{"Quillswap", "Tidepool", "Marrow DEX", "Ferrule", "Kestrel AMM", "Glasswing", "Orchard Swap", "Basalt"}
	lenders = []string{"Lendora", "Copperleaf Lend", "Vaultline", "Harbor Credit", "Thimble Money", "Pennant Finance"}
	assets  = []string{"ETH", "WBTC", "USDC", "DAI", "stETH", "LINK", "ARB", "OP", "USDT", "rETH"}
	stables = []string{"USDC", "DAI", "USDT", "LUSD"}
	chains  = []string{"mainnet", "Arbitrum", "Optimism", "Base"}
	periods = []string{"Asian session", "weekend", "month-end", "overnight session", "US open", "quarter-end", "funding window"}
	repos   = []string{"ledger-api", "keeper-bot", "risk-engine", "pricing-svc", "web-console", "settlement-worker"}
	jobs    = []string{"the integration suite", "the lint stage", "the release build", "the canary deploy", "the nightly backfill", "the e2e suite"}
	models  = []string{"churn model", "fraud classifier", "demand forecast", "credit scoring model", "price predictor", "ticket router"}
	tiers   = []string{"gold-tier", "enterprise", "trial", "standard-plan", "legacy"}
	people  = []string{"Priya", "Tomasz", "Ade", "Mei", "Lucas", "Ines", "Kofi", "Hana", "Rafael", "Sven"}
)

// pair returns two different assets, the second a stablecoin.
func (g *gen) pair() (string, string) {
	a := g.pick(assets)
	for {
		b := g.pick(stables)
		if b != a {
			return a, b
		}
	}
}

// an puts the indefinite article before an asset symbol, as it is read
// aloud: "an ETH swap", "a USDC loan".
func an(asset string) string {
	switch asset {
	case "ETH", "ARB", "OP", "rETH", "stETH":
		return "an " + asset
	}
	return "a " + asset
}
