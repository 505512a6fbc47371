package registry

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/wardhq/ward/internal/tool"
)

// profile is one of seed 002's tool profiles: the categories it loads and
// whether it loads their write tools.
type profile struct {
	categories []tool.Category
	writes     bool
	// layer2Only restricts writes to bounded ones (conservative: no
	// leverage, no flash loans, no complex strategies).
	layer2Only bool
	// privileged loads the privileged tools of its categories too (the
	// owner's settings, committed only with the owner's signature).
	privileged bool
}

var allButTestnet = []tool.Category{tool.CatData, tool.CatTrading, tool.CatLending, tool.CatStaking,
	tool.CatRestaking, tool.CatDerivatives, tool.CatYield, tool.CatLP, tool.CatVault, tool.CatSafety,
	tool.CatIntelligence, tool.CatMemory, tool.CatIdentity, tool.CatWallet, tool.CatStreaming, tool.CatBootstrap}

// profiles follows seed 002's profile-to-category table. Where the table is
// ambiguous the choice is written here: conservative loads data, trading,
// LP and safety with Layer2 writes only; trader, lp and vault add safety to
// their own category; learning loads memory and intelligence; identity
// loads identity and wallet. data is implicit in every profile. Seed 002
// counts privileged tools apart from reads and writes ("almost never
// called autonomously"), and its specialised profiles list only reads and
// writes: only the profiles that load everything (active, golem, full,
// dev) list privileged tools; a per-tool enable adds one to any other.
var profiles = map[string]profile{
	"active":       {categories: allButTestnet, writes: true, privileged: true},
	"golem":        {categories: allButTestnet, writes: true, privileged: true},
	"full":         {categories: allButTestnet, writes: true, privileged: true},
	"dev":          {categories: append(slices.Clone(allButTestnet), tool.CatTestnet), writes: true, privileged: true},
	"observatory":  {categories: []tool.Category{tool.CatData, tool.CatIntelligence}},
	"conservative": {categories: []tool.Category{tool.CatData, tool.CatTrading, tool.CatLP, tool.CatSafety}, writes: true, layer2Only: true},
	"data":         {categories: []tool.Category{tool.CatData}},
	"trader":       {categories: []tool.Category{tool.CatData, tool.CatTrading, tool.CatSafety}, writes: true},
	"lp":           {categories: []tool.Category{tool.CatData, tool.CatLP, tool.CatSafety}, writes: true},
	"vault":        {categories: []tool.Category{tool.CatData, tool.CatVault, tool.CatSafety}, writes: true},
	"intelligence": {categories: []tool.Category{tool.CatData, tool.CatIntelligence}},
	"learning":     {categories: []tool.Category{tool.CatData, tool.CatMemory, tool.CatIntelligence}, writes: true},
	"identity":     {categories: []tool.Category{tool.CatData, tool.CatIdentity, tool.CatWallet}, writes: true},
}

// Profiles returns the profile names, sorted.
func Profiles() []string {
	out := make([]string, 0, len(profiles))
	for n := range profiles {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Selection says which tools a session gets.
type Selection struct {
	// Profiles are composed (union): "trader,vault".
	Profiles []string
	// Enable and Disable override the profiles per tool; Disable wins.
	Enable  []string
	Disable []string
	// Have lists the capabilities present (wallet, uniswap_api, memory);
	// a tool needing one that is absent is left out.
	Have []tool.Requirement
}

// ParseProfiles splits "trader,vault" and checks every name.
func ParseProfiles(s string) ([]string, error) {
	var out []string
	for p := range strings.SplitSeq(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if _, ok := profiles[p]; !ok {
			return nil, fmt.Errorf("unknown profile %q (known: %s)", p, strings.Join(Profiles(), ", "))
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no profile in %q", s)
	}
	return out, nil
}

// View is the set of tools one selection yields: what a session can see
// and call. A View follows its registry: after Apply changed the tools,
// the next read of the view sees its selection resolved against the new
// tools (an added tool the selection takes appears, a removed one is
// gone). It is safe for concurrent use.
type View struct {
	reg *Registry
	sel Selection
	st  atomic.Pointer[viewState]
}

// viewState is a view's selection resolved against one table.
type viewState struct {
	tab    *table
	names  map[string]bool
	sorted []string
	// adapters maps facade action keys to tool names.
	adapters map[adapterKey]string
	canWrite bool // some adapter resolves to a write or privileged tool
}

type adapterKey struct{ action, venue string }

// Select resolves a selection against the registry.
func (r *Registry) Select(s Selection) (*View, error) {
	if len(s.Profiles) == 0 {
		return nil, fmt.Errorf("registry: no profile selected")
	}
	for _, pn := range s.Profiles {
		if _, ok := profiles[pn]; !ok {
			return nil, fmt.Errorf("registry: unknown profile %q", pn)
		}
	}
	tab := r.tab.Load()
	// A refused tool may be named: it is reported by Refused, and left
	// out here like any tool whose requirements are not met.
	for _, name := range s.Enable {
		if _, ok := tab.tools[name]; !ok && !r.isRefused(name) {
			return nil, fmt.Errorf("registry: enable: unknown tool %q", name)
		}
	}
	for _, name := range s.Disable {
		if _, ok := tab.tools[name]; !ok && !r.isRefused(name) {
			return nil, fmt.Errorf("registry: disable: unknown tool %q", name)
		}
	}
	sel := Selection{Profiles: slices.Clone(s.Profiles), Enable: slices.Clone(s.Enable),
		Disable: slices.Clone(s.Disable), Have: slices.Clone(s.Have)}
	st, err := resolveView(tab, sel)
	if err != nil {
		return nil, err
	}
	v := &View{reg: r, sel: sel}
	v.st.Store(st)
	return v, nil
}

// resolveView resolves sel against tab. It fails only when two selected
// tools adapt the same action at the same venue; Apply refuses a tool
// that would, so a view Select made resolves again after every Apply.
func resolveView(tab *table, s Selection) (*viewState, error) {
	v := &viewState{tab: tab, names: map[string]bool{}, adapters: map[adapterKey]string{}}
	for _, sl := range tab.tools {
		d := sl.load().Def
		in := slices.Contains(s.Enable, d.Name)
		for _, pn := range s.Profiles {
			if inProfile(profiles[pn], d) {
				in = true
			}
		}
		if !in || slices.Contains(s.Disable, d.Name) {
			continue
		}
		if !satisfied(d.Requires, s.Have) {
			continue
		}
		v.names[d.Name] = true
	}
	for n := range v.names {
		v.sorted = append(v.sorted, n)
		e := tab.tools[n].load()
		if e.Action == "" {
			continue
		}
		k := adapterKey{e.Action, e.Venue}
		if prev, dup := v.adapters[k]; dup {
			return nil, fmt.Errorf("registry: tools %s and %s both adapt action %q at venue %q", prev, n, e.Action, e.Venue)
		}
		v.adapters[k] = n
		if e.Def.Tier != tool.Read {
			v.canWrite = true
		}
	}
	sort.Strings(v.sorted)
	return v, nil
}

// state returns the view resolved against the registry's current tools.
func (v *View) state() *viewState {
	tab := v.reg.tab.Load()
	s := v.st.Load()
	if s.tab == tab {
		return s
	}
	ns, err := resolveView(tab, v.sel)
	if err != nil {
		// Unreachable (see resolveView); should it happen, the view
		// keeps what it had that is still registered and gains nothing.
		ns = &viewState{tab: tab, names: map[string]bool{}, adapters: map[adapterKey]string{}}
		for _, n := range s.sorted {
			if _, ok := tab.tools[n]; ok {
				ns.names[n] = true
				ns.sorted = append(ns.sorted, n)
			}
		}
		for k, n := range s.adapters {
			if ns.names[n] {
				ns.adapters[k] = n
				ns.canWrite = ns.canWrite || tab.tools[n].load().Def.Tier != tool.Read
			}
		}
	}
	v.st.CompareAndSwap(s, ns)
	return ns
}

func inProfile(p profile, d *tool.Def) bool {
	if d.Category != tool.CatData && !slices.Contains(p.categories, d.Category) {
		return false
	}
	if d.Tier == tool.Read {
		return true
	}
	if !p.writes || (d.Tier == tool.Privileged && !p.privileged) {
		return false
	}
	return !p.layer2Only || d.RiskTier == tool.Layer2
}

func satisfied(need, have []tool.Requirement) bool {
	for _, n := range need {
		if !slices.Contains(have, n) {
			return false
		}
	}
	return true
}

// Has reports whether the view includes the tool called name.
func (v *View) Has(name string) bool { return v.state().names[name] }

// Get returns the tool called name if the view includes it.
func (v *View) Get(name string) (*Entry, bool) {
	s := v.state()
	if !s.names[name] {
		return nil, false
	}
	return s.tab.get(name)
}

// Names returns the view's tool names, sorted.
func (v *View) Names() []string { return slices.Clone(v.state().sorted) }

// Entries returns the view's tools, sorted by name.
func (v *View) Entries() []*Entry {
	s := v.state()
	out := make([]*Entry, len(s.sorted))
	for i, n := range s.sorted {
		out[i], _ = s.tab.get(n)
	}
	return out
}

// Adapter returns the tool an action resolves to at venue; an empty venue
// matches the only tool for that action when there is exactly one.
func (v *View) Adapter(action, venue string) (*Entry, bool) {
	s := v.state()
	if n, ok := s.adapters[adapterKey{action, venue}]; ok {
		return s.tab.get(n)
	}
	if venue != "" {
		return nil, false
	}
	var found string
	for k, n := range s.adapters {
		if k.action == action {
			if found != "" {
				return nil, false
			}
			found = n
		}
	}
	if found == "" {
		return nil, false
	}
	return s.tab.get(found)
}

// Adapters lists the view's (action, venue) → tool entries of the given
// tier class: writes (true) or reads (false), sorted.
func (v *View) Adapters(writes bool) [][3]string {
	var out [][3]string
	s := v.state()
	for k, n := range s.adapters {
		e, _ := s.tab.get(n)
		if (e.Def.Tier != tool.Read) == writes {
			out = append(out, [3]string{k.action, k.venue, n})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][1] < out[j][1]
	})
	return out
}

// CanWrite reports whether the view has any write adapter at all (a data
// profile has none: preview_action and commit_action have nothing to
// resolve to).
func (v *View) CanWrite() bool { return v.state().canWrite }
