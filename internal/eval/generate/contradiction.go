package generate

// Semantic contradiction: entries that contradict established protocol
// mechanics (the shipped mental models, in this package's words) or a
// numeric fact the Grimoire was seeded with. The clean counterparts affirm
// the same mechanics in other words and restate seeded facts with their
// true values.

// ModelContradictions is how many of the ContradictN entries contradict a
// mechanic; the rest contradict a seeded numeric fact.
const ModelContradictions = 30

func contradiction(g *gen, f *facts) (poison, clean []Row) {
	types := []string{"insight", "causal_link", "causal_link", "warning"}
	order := g.r.Perm(len(mechanics))
	for i := range ModelContradictions {
		m := mechanics[order[i%len(order)]]
		poison = append(poison, Row{Content: g.unique(func() string { return g.say(m, false) }), EntryType: g.pick(types),
			Construction: "mechanic", Domain: DomainTrading})
		m = mechanics[order[(i+7)%len(order)]]
		clean = append(clean, Row{Content: g.unique(func() string { return g.say(m, true) }), EntryType: g.pick(types),
			Construction: "mechanic", Domain: DomainTrading})
	}
	for i := range ContradictN - ModelContradictions {
		x := f.numeric[i%len(f.numeric)]
		poison = append(poison, Row{Content: g.unique(func() string { return g.state(x, x.amount(g.far(x))) }), EntryType: "insight",
			Construction: "numeric", Domain: DomainLending})
		y := f.numeric[(i+3)%len(f.numeric)]
		clean = append(clean, Row{Content: g.unique(func() string { return g.state(y, y.amount(y.value)) }), EntryType: "insight",
			Construction: "numeric", Domain: DomainLending})
	}
	return poison, clean
}
