package rules

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// lexicalCorpus returns paths spelled every way lexical must handle:
// clean and unclean relative paths, absolute paths, ~, dot and dot-dot
// elements, repeated and trailing slashes, NUL bytes, unicode, empty and
// over-long paths, and n random splices of those.
func lexicalCorpus(n int) []string {
	paths := []string{
		"", ".", "..", "/", "//", "~", "~/", "~/.ssh/id_rsa", "~root/x", "~~", "a", "a/b", "a//b", "a/./b",
		"a/../b", "a/b/..", "a/b/../..", "../outside.txt", "../../etc/passwd", "./report.txt", "notes/plan.md",
		"notes/new/deep/file.txt", "notes/", "notes/.", "notes/..", "/etc/cron.d/job", "/etc/../etc/./passwd",
		"/a/b/", "wallet.json", ".env", "keys/private_key.pem", "notes/wallet-link", "a\x00b", "\x00",
		"héllo/wörld.md", "ü/../ü", "a b/c d", "...", "a/.../b", ".hidden/..", "a\\b", "C:\\x",
		strings.Repeat("a/", 300), strings.Repeat("x", 4096), strings.Repeat("x", 4097), "/" + strings.Repeat("y", 600),
	}
	frags := paths[:len(paths)-4]
	joins := []string{"/", "//", "/./", "/../", "", "~", "."}
	rng := rand.New(rand.NewPCG(23, 0x1e71ca1))
	for range n {
		var b strings.Builder
		for k := 1 + rng.IntN(3); k > 0; k-- {
			b.WriteString(frags[rng.IntN(len(frags))])
			b.WriteString(joins[rng.IntN(len(joins))])
		}
		paths = append(paths, b.String())
	}
	return paths
}

func lexicalPathSet(t *testing.T) *pathSet {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Paths.Home = "/home/agent"
	b := newBuilder(cfg)
	ps := b.compilePaths()
	if len(b.errs) > 0 {
		t.Fatal(b.errs)
	}
	return ps
}

// TestLexicalCacheMatchesLexical checks that the cache returns what
// lexical returns, on a miss and on a hit, for every path of the corpus
// under several bases, alternating bases so that a slot filled under one
// base is looked up under another.
func TestLexicalCacheMatchesLexical(t *testing.T) {
	ps := lexicalPathSet(t)
	bases := []string{"/srv/agent", "/", "/srv/agent/notes", "/tmp/x y"}
	paths := lexicalCorpus(3000)
	c := newLexicalCache()
	for round := range 2 { // cold, then warm
		for _, p := range paths {
			for _, base := range bases {
				wantAbs, wantErr := ps.lexical(p, base)
				abs, err := c.lexical(ps, p, base)
				if abs != wantAbs || err != wantErr {
					t.Fatalf("round %d: lexical(%q, %q) = %q, %v; want %q, %v", round, p, base, abs, err, wantAbs, wantErr)
				}
			}
		}
	}
	if c.Len() == 0 {
		t.Fatal("nothing was cached")
	}
}

// TestLexicalCacheConcurrent looks paths up from several goroutines in a
// cache small enough in use that they share slots (run it with -race).
func TestLexicalCacheConcurrent(t *testing.T) {
	ps := lexicalPathSet(t)
	c := newLexicalCache()
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 4000 {
				p := fmt.Sprintf("d%d/f%d.txt", i%3000, g%2)
				base := []string{"/a", "/b"}[(i+g)%2]
				want, _ := ps.lexical(p, base)
				if got, err := c.lexical(ps, p, base); got != want || err != nil {
					errs <- fmt.Sprintf("lexical(%q, %q) = %q, %v; want %q", p, base, got, err, want)
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
