package registry

import (
	"fmt"
	"slices"
	"sort"
	"strings"

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
}

var allButTestnet = []tool.Category{tool.CatData, tool.CatTrading, tool.CatLending, tool.CatStaking,
	tool.CatRestaking, tool.CatDerivatives, tool.CatYield, tool.CatLP, tool.CatVault, tool.CatSafety,
	tool.CatIntelligence, tool.CatMemory, tool.CatIdentity, tool.CatWallet, tool.CatStreaming, tool.CatBootstrap}

// profiles follows seed 002's profile-to-category table. Where the table is
// ambiguous the choice is written here: conservative loads data, trading,
// LP and safety with Layer2 writes only; trader, lp and vault add safety to
// their own category; learning loads memory and intelligence; identity
// loads identity and wallet. data is implicit in every profile.
var profiles = map[string]profile{
	"active":       {categories: allButTestnet, writes: true},
	"golem":        {categories: allButTestnet, writes: true},
	"full":         {categories: allButTestnet, writes: true},
	"dev":          {categories: append(slices.Clone(allButTestnet), tool.CatTestnet), writes: true},
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
// and call. A View is immutable.
type View struct {
	reg    *Registry
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
	v := &View{reg: r, names: map[string]bool{}, adapters: map[adapterKey]string{}}
	// A refused tool may be named: it is reported by Refused, and left
	// out here like any tool whose requirements are not met.
	for _, name := range s.Enable {
		if _, ok := r.tools[name]; !ok && !r.isRefused(name) {
			return nil, fmt.Errorf("registry: enable: unknown tool %q", name)
		}
	}
	for _, name := range s.Disable {
		if _, ok := r.tools[name]; !ok && !r.isRefused(name) {
			return nil, fmt.Errorf("registry: disable: unknown tool %q", name)
		}
	}
	for _, sl := range r.tools {
		d := sl.load().Def
		in := slices.Contains(s.Enable, d.Name)
		for _, pn := range s.Profiles {
			p, ok := profiles[pn]
			if !ok {
				return nil, fmt.Errorf("registry: unknown profile %q", pn)
			}
			if inProfile(p, d) {
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
		e := r.tools[n].load()
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

func inProfile(p profile, d *tool.Def) bool {
	if d.Category != tool.CatData && !slices.Contains(p.categories, d.Category) {
		return false
	}
	if d.Tier == tool.Read {
		return true
	}
	if !p.writes {
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
func (v *View) Has(name string) bool { return v.names[name] }

// Get returns the tool called name if the view includes it.
func (v *View) Get(name string) (*Entry, bool) {
	if !v.names[name] {
		return nil, false
	}
	return v.reg.Get(name)
}

// Names returns the view's tool names, sorted.
func (v *View) Names() []string { return slices.Clone(v.sorted) }

// Entries returns the view's tools, sorted by name.
func (v *View) Entries() []*Entry {
	out := make([]*Entry, len(v.sorted))
	for i, n := range v.sorted {
		out[i], _ = v.reg.Get(n)
	}
	return out
}

// Adapter returns the tool an action resolves to at venue; an empty venue
// matches the only tool for that action when there is exactly one.
func (v *View) Adapter(action, venue string) (*Entry, bool) {
	if n, ok := v.adapters[adapterKey{action, venue}]; ok {
		return v.reg.Get(n)
	}
	if venue != "" {
		return nil, false
	}
	var found string
	for k, n := range v.adapters {
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
	return v.reg.Get(found)
}

// Adapters lists the view's (action, venue) → tool entries of the given
// tier class: writes (true) or reads (false), sorted.
func (v *View) Adapters(writes bool) [][3]string {
	var out [][3]string
	for k, n := range v.adapters {
		e, _ := v.reg.Get(n)
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
func (v *View) CanWrite() bool { return v.canWrite }
