package trust

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/wardhq/ward/internal/trust/screen"
)

// SystemValues returns the values at paths in a JSON output (see
// tool.Def.SystemFields): every string and number under a node a path
// selects, object keys included, except those with instruction-like text
// (a field the service fills from what a third party chose, such as a
// channel name, can still carry an injection: such a value is not the
// service's word). "*" in a path matches any array index or object key;
// "~1" and "~0" are "/" and "~". An output that is not JSON has none.
func SystemValues(raw []byte, paths []string) []string {
	if len(paths) == 0 {
		return nil
	}
	v, ok := decodeValue(raw)
	if !ok {
		return nil
	}
	var out []string
	for _, p := range paths {
		var segs []string
		if p != "/" {
			for _, s := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
				segs = append(segs, strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~"))
			}
		}
		selectPath(v, segs, func(node any) {
			walkText(node, func(s string, _ bool) bool {
				if len(screen.Instructions(s)) == 0 && !slices.Contains(out, s) {
					out = append(out, s)
				}
				return len(out) < maxLeaves
			})
		})
	}
	return out
}

// selectPath calls fn with every node of v that segs select.
func selectPath(v any, segs []string, fn func(any)) {
	if len(segs) == 0 {
		fn(v)
		return
	}
	seg, rest := segs[0], segs[1:]
	switch x := v.(type) {
	case map[string]any:
		if seg == "*" {
			for _, k := range slices.Sorted(maps.Keys(x)) {
				selectPath(x[k], rest, fn)
			}
			return
		}
		if c, ok := x[seg]; ok {
			selectPath(c, rest, fn)
		}
	case []any:
		if seg == "*" {
			for _, e := range x {
				selectPath(e, rest, fn)
			}
			return
		}
		for i, e := range x {
			if seg == strconv.Itoa(i) {
				selectPath(e, rest, fn)
			}
		}
	}
}
