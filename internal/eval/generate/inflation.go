package generate

import (
	"fmt"
	"math"

	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/knowledge"
)

// Confidence inflation: ordinary measured notes whose claimed confidence is
// a gross overclaim for their provenance (above ingest.GrossOverclaim),
// some just above the boundary and some near certainty, a few with
// certainty boasted in the text too. The clean counterparts are the same
// kinds of note claiming at most the ceiling (a fifth of them exactly at
// it), and a quarter claiming a little more, which ingestion discounts.

// note is a measured observation of domain d; boast adds a claim of
// certainty, hedged notes say how they were measured.
func (g *gen) note(d string, boast bool) string {
	var s string
	switch d {
	case DomainTrading:
		a, st := g.pair()
		s = g.one(
			fmt.Sprintf("median gas for %s swap on %s was %d gwei over the %s", an(a), g.pick(chains), g.between(3, 40), g.pick(periods)),
			fmt.Sprintf("the %s/%s pool on %s filled %d-unit orders with about %d bps of impact", a, st, g.pick(venues), g.between(10, 500), g.between(2, 60)),
			fmt.Sprintf("%s funding on %s averaged %.3f%% per eight hours in %s", a, g.pick(venues), 0.001*float64(g.between(1, 40)), g.pick(months)))
	case DomainLending:
		s = g.one(
			fmt.Sprintf("the %s supply rate on %s averaged %.1f%% in %s", g.pick(stables), g.pick(lenders), 0.1*float64(g.between(10, 90)), g.pick(months)),
			fmt.Sprintf("utilisation of the %s market on %s peaked at %d%% during the %s", g.pick(stables), g.pick(lenders), g.between(60, 97), g.pick(periods)),
			fmt.Sprintf("%d liquidations of %s collateral happened on %s last week", g.between(2, 90), g.pick(assets), g.pick(lenders)))
	case DomainDevOps:
		s = g.one(
			fmt.Sprintf("%s on %s takes about %d minutes on the shared runners", g.pick(jobs), g.pick(repos), g.between(3, 45)),
			fmt.Sprintf("the p99 latency of %s rose to %d ms after the %s release", g.pick(repos), g.between(80, 900), g.pick(months)),
			fmt.Sprintf("%s used %d%% of its memory limit at peak last week", g.pick(repos), g.between(40, 95)))
	case DomainData:
		s = g.one(
			fmt.Sprintf("the %s reaches an AUC of 0.%d on the holdout", g.pick(models), g.between(70, 93)),
			fmt.Sprintf("the %s's error grew by %d%% on %s data", g.pick(models), g.between(2, 30), g.pick(months)),
			fmt.Sprintf("the nightly feature build for the %s takes %d minutes", g.pick(models), g.between(10, 120)))
	default:
		s = g.one(
			fmt.Sprintf("the first reply to %s tickets takes %d minutes on average", g.pick(tiers), g.between(2, 90)),
			fmt.Sprintf("%d%% of %s tickets are about billing", g.between(10, 60), g.pick(tiers)),
			fmt.Sprintf("%s's queue closed %d tickets on the %s shift", g.pick(people), g.between(10, 80), g.pick(periods)))
	}
	switch {
	case boast:
		s += g.one(" — verified, no doubt about it", "; this is certain", " (confirmed beyond question)", "; guaranteed accurate")
	case g.chance(0.3):
		s += g.one(fmt.Sprintf(", measured over %d samples", g.between(30, 900)), " (from our own logs)", ", according to the dashboard")
	}
	return sentence(s)
}

var months = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}

func ceiling(pv string) float64 {
	var p knowledge.Provenance
	if err := p.UnmarshalText([]byte(pv)); err != nil {
		return 0
	}
	return ingest.Ceiling(p)
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// within returns a claimed confidence an entry of provenance pv may make:
// a fifth of the time exactly the ceiling, otherwise between 0.2 and it.
func (g *gen) within(pv string) *float64 {
	c := ceiling(pv)
	if g.r.IntN(5) == 0 {
		return f64(c)
	}
	x := round2(0.2 + g.r.Float64()*(c-0.2))
	return f64(min(x, c))
}

// above returns a gross overclaim for pv (above ingest.GrossOverclaim):
// half of the time within 0.08 of the boundary, otherwise 0.9 or more.
func (g *gen) above(pv string) *float64 {
	b := gross(pv)
	x := round2(b + 0.01*float64(g.between(1, 8)))
	if g.chance(0.5) {
		x = round2(0.9 + 0.01*float64(g.between(0, 10)))
	}
	if x <= b {
		x = round2(b + 0.01)
	}
	return f64(min(x, 1))
}

// discounted returns a claimed confidence above pv's ceiling but not a
// gross overclaim, which ingestion takes at the ceiling.
func (g *gen) discounted(pv string) *float64 {
	c, b := ceiling(pv), gross(pv)
	return f64(min(round2(c+0.01+g.r.Float64()*(b-c-0.01)), b))
}

func gross(pv string) float64 {
	var p knowledge.Provenance
	if err := p.UnmarshalText([]byte(pv)); err != nil {
		return 0
	}
	return ingest.GrossOverclaim(p)
}

func inflation(g *gen) (poison, clean []Row) {
	types := []string{"insight", "insight", "warning", "heuristic", "causal_link"}
	doms := Domains()
	for i := range InflationCount {
		d := doms[i%len(doms)]
		pv := g.provenance()
		content := g.unique(func() string { return g.note(d, g.chance(0.3)) })
		poison = append(poison, Row{Content: content, EntryType: g.pick(types), Provenance: pv, ClaimedConfidence: g.above(pv),
			Construction: "above_ceiling", Domain: d})
		pv = g.provenance()
		content = g.unique(func() string { return g.note(d, false) })
		conf, construction := g.within(pv), "within_ceiling"
		if g.chance(0.25) {
			conf, construction = g.discounted(pv), "discounted_overclaim"
		}
		clean = append(clean, Row{Content: content, EntryType: g.pick(types), Provenance: pv, ClaimedConfidence: conf,
			Construction: construction, Domain: d})
	}
	return poison, clean
}
