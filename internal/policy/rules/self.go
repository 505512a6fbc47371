package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// selfPaths computes what command safety protects as ward's own and the
// agent's own (Config.Self, Commands.Protect: ps.own, and ward's data
// directory in ps.secret), and returns the patterns the path rules add for
// them: each protected path and everything under it is write-protected,
// everything under the data directory is read-sensitive too.
func (b *builder) selfPaths(ps *pathSet) (protected, sensitive []pathPattern) {
	// pattern adds the pattern p+suffix, unless p itself holds a pattern's
	// metacharacters: it cannot be spelled, and only commands see it (in
	// ps.own).
	pattern := func(dst *[]pathPattern, p, suffix string) {
		if strings.ContainsAny(p, "*?[") {
			return
		}
		if pp, err := compilePattern(p+suffix, ""); err == nil {
			*dst = append(*dst, pp)
		}
	}
	add := func(list *[]string, p string) {
		if !slices.Contains(*list, p) {
			*list = append(*list, p)
		}
	}
	self := b.cfg.Self
	if d := self.DataDir; d != "" {
		if !filepath.IsAbs(d) || filepath.Clean(d) == "/" {
			b.errorf("self.data_dir", "must be an absolute path other than /")
		} else {
			for _, v := range variants(d) {
				add(&ps.own, v)
				add(&ps.secret, v)
				pattern(&protected, v, "/**")
				pattern(&sensitive, v, "/*/**")
			}
		}
	}
	for i, f := range self.Files {
		if !filepath.IsAbs(f) || filepath.Clean(f) == "/" {
			b.errorf(fmt.Sprintf("self.files.%d", i), "must be an absolute path other than /")
			continue
		}
		for _, v := range variants(f) {
			add(&ps.own, v)
			pattern(&protected, v, "")
		}
	}
	for i, p := range b.cfg.Commands.Protect {
		key := fmt.Sprintf("commands.protect.%d", i)
		abs, err := ps.lexical(p, ps.root)
		switch {
		case err != nil:
			b.errorf(key, "%v", err)
			continue
		case abs == "/":
			b.errorf(key, "must not be /")
			continue
		}
		for _, v := range variants(abs) {
			add(&ps.own, v)
			pattern(&protected, v, "")
			pattern(&protected, v, "/**")
		}
	}
	return protected, sensitive
}

// variants returns the clean path p and, if it differs, the path its
// symlinks resolve to: a command may name either.
func variants(p string) []string {
	p = filepath.Clean(p)
	out := []string{p}
	if r, err := filepath.EvalSymlinks(p); err == nil && r != p {
		out = append(out, r)
	}
	return out
}
