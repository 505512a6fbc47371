package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/upstream"
)

// unknownTools warns of every tool a user rule or rate limit selects by
// name that ward does not know: not in its catalogue, not declared in
// [[policy.tools]], not a tool of a configured [[upstream]] server
// (mcp_<server>_...). Such a selector never applies to the tool meant,
// usually a typo; it is a warning, since a tool may come from elsewhere.
func unknownTools(cfg rules.Config, servers []upstream.Server, idx *positions, m *merger) []Diagnostic {
	known := map[string]bool{}
	var names []string
	for _, t := range catalog.All() {
		known[t.Def.Name] = true
		names = append(names, t.Def.Name)
	}
	for _, t := range cfg.Tools {
		known[t.Name] = true
		names = append(names, t.Name)
	}
	isKnown := func(name string) bool {
		return known[name] || slices.ContainsFunc(servers, func(s upstream.Server) bool {
			return strings.HasPrefix(name, "mcp_"+s.Name+"_")
		})
	}
	var out []Diagnostic
	check := func(path string, sel policy.Selector) {
		if sel.By != policy.SelectName {
			return
		}
		for j, name := range sel.Names {
			if isKnown(name) {
				continue
			}
			msg := fmt.Sprintf("no tool %q is known (ward's catalogue, [[policy.tools]], the tools of an [[upstream]] server): the selector never matches it", name)
			if s := closest(name, names); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			d := idx.at(fmt.Sprintf("%s.names.%d", path, j), msg)
			d.Warning = true
			out = append(out, d)
		}
	}
	for i, r := range cfg.Rules {
		check(fmt.Sprintf("policy.rules.%d.applies_to", i), r.AppliesTo)
	}
	for i, l := range cfg.Limits {
		if fi, ok := m.fileIndex("rate_limits", i); ok {
			check(fmt.Sprintf("policy.rate_limits.%d.applies_to", fi), l.AppliesTo)
		}
	}
	return out
}
