// Package pintest pins what a text function returns over a large corpus,
// so that a change made for speed can be shown to change no output: the
// dev corpora's contents, the public poisoning set when the machine has it,
// and the string literals of a package's tests. A golden file holds one
// SHA-256 per source of texts (a corpus file or a test file) over every
// text and its output, and a sample of full outputs to read; a full record
// of every output can be written to and checked against a file outside the
// repository, which names the texts whose output changed.
package pintest

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"hash"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Text is one text of the corpus and the source it was read from.
type Text struct {
	Source string `json:"source"`
	Text   string `json:"text"`
}

// Corpus names where the texts come from. Paths are relative to the
// package directory of the test.
type Corpus struct {
	// JSONL are globs of JSON Lines files whose first field of Fields
	// present in a record is a text (the dev corpora: "content").
	JSONL  []string
	Fields []string
	// Optional is a directory of JSON Lines files read like JSONL, left
	// out with a log line when it does not exist (the public poisoning
	// set lives outside the repository).
	Optional string
	// GoTests are globs of Go test files whose string literals are texts,
	// but for the files named in Exclude (the pinning test's own).
	GoTests []string
	Exclude []string
}

// optional starts the source of a file of Corpus.Optional, which is named
// by its base name wherever the directory is.
const optional = "optional:"

// Load returns the texts of c, in the order of its files and of each
// file's records or literals. A file's source is its path as given.
func Load(t testing.TB, c Corpus) []Text {
	t.Helper()
	var out []Text
	for _, files := range globs(t, c.JSONL) {
		out = append(out, jsonl(t, files, c.Fields)...)
	}
	if c.Optional != "" {
		if _, err := os.Stat(c.Optional); err != nil {
			t.Logf("pintest: %s left out: %v", c.Optional, err)
		} else {
			for _, file := range globs(t, []string{filepath.Join(c.Optional, "*.jsonl")}) {
				texts := jsonl(t, file, c.Fields)
				for i := range texts {
					texts[i].Source = optional + filepath.Base(file)
				}
				out = append(out, texts...)
			}
		}
	}
	for _, file := range globs(t, c.GoTests) {
		if slices.Contains(c.Exclude, filepath.Base(file)) {
			continue
		}
		out = append(out, literals(t, file)...)
	}
	return out
}

func globs(t testing.TB, patterns []string) []string {
	t.Helper()
	var out []string
	for _, p := range patterns {
		m, err := filepath.Glob(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func jsonl(t testing.TB, path string, fields []string) []Text {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Text
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var rec map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, field := range fields {
			var s string
			if raw, ok := rec[field]; ok && json.Unmarshal(raw, &s) == nil {
				out = append(out, Text{Source: filepath.ToSlash(path), Text: s})
				break
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}

// literals returns the string literals of a Go file, without duplicates.
func literals(t testing.TB, path string) []Text {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []Text
	seen := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil || s == "" || seen[s] {
			return true
		}
		seen[s] = true
		out = append(out, Text{Source: filepath.ToSlash(path), Text: s})
		return true
	})
	return out
}

// Record is a text's output.
type Record struct {
	Text
	Out string `json:"out"`
}

// Options configure Check.
type Options struct {
	// Golden is the committed file of digests and samples.
	Golden string
	// Full, if set, is a file outside the repository holding every
	// output, which Check compares text by text.
	Full string
	// Update rewrites Golden (and Full, if set) with the outputs now.
	Update bool
	// Samples is the number of full outputs the golden file shows.
	Samples int
}

// Check computes fn for every text and compares the digests with the
// golden file, or rewrites it under Update. A text's output must be a
// deterministic string holding everything the pinned functions return.
func Check(t *testing.T, texts []Text, fn func(string) string, o Options) {
	t.Helper()
	recs := make([]Record, len(texts))
	for i, tx := range texts {
		recs[i] = Record{Text: tx, Out: fn(tx.Text)}
	}
	got := digests(recs)
	if o.Update {
		if err := os.WriteFile(o.Golden, golden(got, samples(recs, cmp.Or(o.Samples, 50))), 0o644); err != nil {
			t.Fatal(err)
		}
		if o.Full != "" {
			writeFull(t, o.Full, recs)
		}
		t.Logf("pintest: wrote %s (%d texts)", o.Golden, len(recs))
		return
	}
	want := readGolden(t, o.Golden)
	checked := 0
	for src, d := range got {
		w, ok := want[src]
		if !ok {
			t.Errorf("%s: %d texts, not in %s (run with -update)", src, d.n, o.Golden)
			continue
		}
		if w != d {
			t.Errorf("%s: %d texts digest %s, want %d texts digest %s", src, d.n, d.sum, w.n, w.sum)
		}
		checked += d.n
	}
	for src := range want {
		if _, ok := got[src]; !ok && !strings.HasPrefix(src, optional) {
			t.Errorf("%s: in %s, not read now", src, o.Golden)
		}
	}
	if o.Full != "" {
		compareFull(t, o.Full, recs)
	}
	t.Logf("pintest: %d texts checked against %s", checked, o.Golden)
}

type digest struct {
	n   int
	sum string
}

func digests(recs []Record) map[string]digest {
	hs := map[string]hash.Hash{}
	ns := map[string]int{}
	for _, r := range recs {
		h, ok := hs[r.Source]
		if !ok {
			h = sha256.New()
			hs[r.Source] = h
		}
		fmt.Fprintf(h, "%d:%s%d:%s", len(r.Text.Text), r.Text.Text, len(r.Out), r.Out)
		ns[r.Source]++
	}
	out := map[string]digest{}
	for src, h := range hs {
		out[src] = digest{n: ns[src], sum: hex.EncodeToString(h.Sum(nil))}
	}
	return out
}

// samples picks n records to show in full, half of them with the most
// common output and half with others, by the hash of their text, from
// the repository's own sources (not from Corpus.Optional).
func samples(recs []Record, n int) []Record {
	counts := map[string]int{}
	for _, r := range recs {
		counts[r.Out]++
	}
	common := ""
	for out, c := range counts {
		if c > counts[common] || c == counts[common] && out < common {
			common = out
		}
	}
	key := func(r Record) string { return textKey(r.Text) }
	var usual, other []Record
	for _, r := range recs {
		if strings.HasPrefix(r.Source, optional) {
			continue
		}
		if r.Out == common {
			usual = append(usual, r)
		} else {
			other = append(other, r)
		}
	}
	byKey := func(a, b Record) int { return strings.Compare(key(a), key(b)) }
	slices.SortFunc(usual, byKey)
	slices.SortFunc(other, byKey)
	k := min(len(other), n-min(len(usual), n/2))
	return append(other[:k:k], usual[:min(len(usual), n-k)]...)
}

func golden(ds map[string]digest, sample []Record) []byte {
	var b strings.Builder
	b.WriteString("# Written by go test -run Pinned -update: per source, the number of texts and the SHA-256 of\n" +
		"# every text and its output; then a sample of full outputs. Do not edit.\n")
	srcs := make([]string, 0, len(ds))
	for s := range ds {
		srcs = append(srcs, s)
	}
	slices.Sort(srcs)
	for _, s := range srcs {
		fmt.Fprintf(&b, "digest %s %d %s\n", ds[s].sum, ds[s].n, s)
	}
	for _, r := range sample {
		line, _ := json.Marshal(r)
		fmt.Fprintf(&b, "sample %s\n", line)
	}
	return []byte(b.String())
}

func readGolden(t *testing.T, path string) map[string]digest {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	out := map[string]digest{}
	for line := range strings.Lines(string(data)) {
		f := strings.SplitN(strings.TrimSuffix(line, "\n"), " ", 4)
		if len(f) != 4 || f[0] != "digest" {
			continue
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			t.Fatalf("%s: %q: %v", path, line, err)
		}
		out[f[3]] = digest{n: n, sum: f[1]}
	}
	return out
}

// fullRecord is a line of the full record: a text keyed by its exact
// bytes, which JSON does not keep when they are not UTF-8.
type fullRecord struct {
	Key string `json:"key"`
	Record
}

func textKey(tx Text) string {
	h := sha256.Sum256([]byte(tx.Source + "\x00" + tx.Text))
	return hex.EncodeToString(h[:])
}

func writeFull(t *testing.T, path string, recs []Record) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, r := range recs {
		if err := enc.Encode(fullRecord{Key: textKey(r.Text), Record: r}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// compareFull reports the texts whose output differs from the full record,
// and the texts it lacks.
func compareFull(t *testing.T, path string, recs []Record) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r fullRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		want[r.Key] = r.Out
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	diff, missing := 0, 0
	for _, r := range recs {
		w, ok := want[textKey(r.Text)]
		switch {
		case !ok:
			missing++
		case w != r.Out:
			if diff++; diff <= 20 {
				t.Errorf("%s: %q\n got %s\nwant %s", r.Source, r.Text.Text, r.Out, w)
			}
		}
	}
	if diff > 0 || missing > 0 {
		t.Errorf("pintest: %d of %d texts differ from %s, %d not in it", diff, len(recs), path, missing)
	} else {
		t.Logf("pintest: all %d texts as in %s", len(recs), path)
	}
}
