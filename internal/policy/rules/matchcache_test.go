package rules

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/wardhq/ward/internal/tool"
)

// testMatchers returns the default policy's matchers and one of patterns
// of every kind (exact and globbed names, extensions, any-element names,
// absolute and home-relative globs).
func testMatchers(t *testing.T) map[string]*matcher {
	t.Helper()
	ps := lexicalPathSet(t)
	var pats []pathPattern
	for _, src := range []string{"*.pem", "id_*", "wallet.json", "*.key.*", "**/.ssh/**", "**/secrets/**", "/etc/**", "~/.aws/*", "/srv/*/state/*.db", "[ab]*.txt", "*"} {
		p, err := compilePattern(src, "/home/agent")
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		pats = append(pats, p)
	}
	return map[string]*matcher{"protected": ps.protected, "sensitive": ps.sensitive, "every kind": newMatcher(pats)}
}

// matchCorpus returns clean absolute paths (what match is given): the
// lexical forms of lexicalCorpus under two bases, and case variants.
func matchCorpus(t *testing.T) []string {
	ps := lexicalPathSet(t)
	var out []string
	for _, p := range lexicalCorpus(2000) {
		for _, base := range []string{"/srv/agent", "/home/agent"} {
			if abs, err := ps.lexical(p, base); err == nil {
				out = append(out, abs, strings.ToUpper(abs))
			}
		}
	}
	return out
}

// TestMatchCacheMatchesMatchPath checks that a matcher's cached match
// reports what matchPath reports, on a miss and on a hit, for every
// matcher and path of the corpora.
func TestMatchCacheMatchesMatchPath(t *testing.T) {
	paths := matchCorpus(t)
	for name, m := range testMatchers(t) {
		hits := 0
		for round := range 2 {
			for _, p := range paths {
				wantPat, want := m.matchPath(p)
				pat, hit := m.match(p)
				if pat != wantPat || hit != want {
					t.Fatalf("%s, round %d: match(%q) = %q, %v; matchPath = %q, %v", name, round, p, pat, hit, wantPat, want)
				}
				if hit {
					hits++
				}
			}
		}
		if hits == 0 {
			t.Errorf("%s: no path of the corpus matched", name)
		}
	}
}

// TestMatchCacheConcurrent matches from several goroutines on shared
// slots (run it with -race).
func TestMatchCacheConcurrent(t *testing.T) {
	m := testMatchers(t)["every kind"]
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 4000 {
				p := fmt.Sprintf("/home/agent/d%d/f%d.%s", i%3000, g, []string{"pem", "txt", "key.x"}[i%3])
				wantPat, want := m.matchPath(p)
				if pat, hit := m.match(p); pat != wantPat || hit != want {
					errs <- fmt.Sprintf("match(%q) = %q, %v; want %q, %v", p, pat, hit, wantPat, want)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestCachesKeepNoArguments checks that the lexical, match and command
// caches keep copies of what they are given, not slices of a call's
// arguments, which would keep the arguments alive with them.
func TestCachesKeepNoArguments(t *testing.T) {
	args, err := tool.ParseArgs([]byte(`{"path":"/srv/agent/notes/plan.md","command":"ls -la"}`))
	if err != nil {
		t.Fatal(err)
	}
	str := func(key string) string {
		v, _ := args.Get(key)
		s, _ := v.Str()
		return s
	}
	path, cmd := str("path"), str("command")
	shares := func(kept, given string) bool { return unsafe.StringData(kept) == unsafe.StringData(given) }

	ps := lexicalPathSet(t)
	lc := newLexicalCache()
	if _, err := lc.lexical(ps, path, "/srv/agent"); err != nil {
		t.Fatal(err)
	}
	kept, ok := lc.Kept(slotKey{"/srv/agent", path})
	abs, _ := lc.Get(slotKey{"/srv/agent", path})
	if !ok || shares(kept.s, path) || shares(abs, path) {
		t.Errorf("lexical cache entry %q → %q (kept: %v) shares the argument's bytes", kept, abs, ok)
	}

	m := testMatchers(t)["every kind"]
	m.match(path)
	if kept, ok := m.seen.Kept(slotKey{s: path}); !ok {
		t.Error("match cache holds no entry for the path")
	} else if shares(kept.s, path) {
		t.Error("match cache entry shares the argument's bytes")
	}

	cc := newCommandCache()
	cc.analyze("/srv/agent", cmd, cacheEnv("/srv/agent"))
	if kept, ok := cc.Kept(slotKey{"/srv/agent", cmd}); !ok || shares(kept.s, cmd) {
		t.Errorf("command cache entry %q (kept: %v) shares the argument's bytes", kept, ok)
	}
}
