package screen

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/pintest"
)

var (
	update    = flag.Bool("update", false, "rewrite testdata/pinned.golden with the outputs now")
	pinFull   = flag.String("pin.full", "", "also write (-update) or compare every output in this file, outside the repository")
	poisoning = flag.String("pin.poisoning", "../../../../shared/eval/poisoning", "the public poisoning set's directory, read when it exists")
)

// TestScreenPinned pins what the screen makes of the dev corpora, the
// public poisoning set, the knowledge corpus and the string literals of
// this package's and package trust's tests: Knowledge's and Instructions'
// signals, Despace and StripHidden, and the readings Knowledge combines
// (the reader addressed or governed, a duty laid on it, a redirection,
// the clauses the advisory patterns read, the quotations set aside).
// A change made for speed must leave every one as it was; a change of the
// rules regenerates the golden file with -update.
func TestScreenPinned(t *testing.T) {
	texts := pintest.Load(t, pintest.Corpus{
		JSONL:    []string{"../../../testdata/dev/*/*.jsonl", "../../../testdata/dev/*/late/*.jsonl", "testdata/knowledge_corpus.jsonl"},
		Fields:   []string{"content", "text"},
		Optional: *poisoning,
		GoTests:  []string{"*_test.go", "../*_test.go"},
		Exclude:  []string{"pinned_test.go"},
	})
	pintest.Check(t, texts, screenOutputs, pintest.Options{Golden: "testdata/pinned.golden", Full: *pinFull, Update: *update})
}

// screenOutputs is everything the pinned functions return for text.
func screenOutputs(text string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "knowledge=%q instructions=%q", Knowledge(text), Instructions(text))
	spaced, ok := Despace(text)
	visible, hidden, tags := StripHidden(text)
	fmt.Fprintf(&b, " despace=%v:%s strip=%s:%d:%q", ok, short(spaced), short(visible), hidden, tags)
	folded := foldLines(text)
	fmt.Fprintf(&b, " addressed=%v governs=%v duty=%v redirect=%v stray=%v harm=%v substitution=%v",
		addressedToReader(folded), governsReader(folded), readerDuty(folded), identifierRedirect(folded),
		strayScript(text), harmfulName(text), substitution(text))
	fmt.Fprintf(&b, " clauses=%s unquoted=%s", short(clauses(folded)), short(unquoteMentions(text)))
	return b.String()
}

// short is s when short, else its length and SHA-256.
func short(s string) string {
	if len(s) <= 64 {
		return fmt.Sprintf("%q", s)
	}
	h := sha256.Sum256([]byte(s))
	return fmt.Sprintf("%d#%s", len(s), hex.EncodeToString(h[:12]))
}

// BenchmarkKnowledgeDev measures Knowledge on one dev-set content, over a
// fixed mix of them (every eighth text of the dev corpora).
func BenchmarkKnowledgeDev(b *testing.B) {
	all := pintest.Load(b, pintest.Corpus{JSONL: []string{"../../../testdata/dev/*/*.jsonl"}, Fields: []string{"content"}})
	var texts []string
	for i := 0; i < len(all); i += 8 {
		texts = append(texts, all[i].Text)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		Knowledge(texts[i%len(texts)])
		i++
	}
}
