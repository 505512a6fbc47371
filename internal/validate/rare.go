package validate

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The rare-token signal of Layer 1 (seed: AgentPoison's triggers are
// optimised token sequences). A character n-gram language model, trained
// on a general English corpus shipped with ward (english.ngram.gz, made by
// internal/validate/ngramgen from WordNet's glosses and ward's own address
// book and mental models) plus the Grimoire's entries, scores every
// word-ish token of an entry by its surprisal in bits per character; the
// entry's RareScore is the highest. A made-up trigger ("zx-omega-17",
// "qwv_trigger") is improbable character by character, while English
// words, protocol names and tickers are not. Hex, numbers and quantities
// with a unit are not scored: they are legitimately rare.

// NGramOrder is the model's order: a character is predicted from the three
// before it.
const NGramOrder = 4

// minToken is the fewest characters a scored token has: shorter ones
// (lower-case abbreviations such as icu, rpc, knn) are too few to judge.
const minToken = 4

//go:embed english.ngram.gz
var shippedNGram []byte

// NGram is a character n-gram model with Witten-Bell interpolation. Its
// alphabet is a-z, '0' for a run of digits, '-' for a joiner inside a
// token (- _) and '$' for the end of a token; a token is padded with '^' at
// its start. A model made by Train or the shipped one is immutable and
// safe for concurrent use; With returns one extended by more text.
type NGram struct {
	counts map[uint32]uint32  // n-gram (1 to NGramOrder characters) → count
	ctx    map[uint32]ctxStat // context (0 to NGramOrder-1 characters) → what follows it
	base   *NGram             // counts of the model this one extends, or nil
	// Boundary is the RareScore above which an entry is anomalous: chosen
	// when the model was made from held-out text (see ngramgen).
	Boundary float64
}

type ctxStat struct {
	total uint32 // n-grams counted after this context
	types uint32 // distinct characters after it
}

// gramKey packs up to NGramOrder alphabet codes (1-29) into a key with the
// length in the top bits.
func gramKey(codes []byte) uint32 {
	k := uint32(len(codes)) << 28
	for i, c := range codes {
		k |= uint32(c) << (5 * i)
	}
	return k
}

const (
	codePad  = 28
	codeEnd  = 29
	codeNum  = 27
	codeJoin = 30
)

// code maps a lower-case token character to the alphabet.
func code(c byte) byte {
	switch {
	case c >= 'a' && c <= 'z':
		return c - 'a' + 1
	case c >= '0' && c <= '9':
		return codeNum
	default:
		return codeJoin
	}
}

// NewNGram returns an empty model with the given boundary.
func NewNGram(boundary float64) *NGram {
	return &NGram{counts: map[uint32]uint32{}, ctx: map[uint32]ctxStat{}, Boundary: boundary}
}

// ShippedNGram returns the model shipped with ward, parsed once.
var ShippedNGram = sync.OnceValues(func() (*NGram, error) { return ReadNGram(bytes.NewReader(shippedNGram)) })

// TrainNGram returns a model of the tokens of texts with the given
// boundary.
func TrainNGram(texts []string, boundary float64) *NGram {
	m := NewNGram(boundary)
	for _, t := range texts {
		Tokens(t, m.add)
	}
	return m
}

// With returns a model that adds to m the tokens of texts (the Grimoire's
// entries): m is not changed, and the new model shares its counts.
func (m *NGram) With(texts []string) *NGram {
	o := NewNGram(m.Boundary)
	o.base = m
	for _, t := range texts {
		Tokens(t, func(tok string) { o.add(tok) })
	}
	return o
}

// add counts the token tok (lower case, as Tokens gives it).
func (m *NGram) add(tok string) {
	codes := make([]byte, 0, len(tok)+NGramOrder)
	for range NGramOrder - 1 {
		codes = append(codes, codePad)
	}
	for i := 0; i < len(tok); i++ {
		codes = append(codes, code(tok[i]))
	}
	codes = append(codes, codeEnd)
	for i := NGramOrder - 1; i < len(codes); i++ {
		for n := 1; n <= NGramOrder; n++ {
			g := codes[i-n+1 : i+1]
			k := gramKey(g)
			if m.count(k) == 0 {
				h := gramKey(g[:n-1])
				st := m.ctx[h]
				st.types++
				m.ctx[h] = st
			}
			m.counts[k]++
			h := gramKey(g[:n-1])
			st := m.ctx[h]
			st.total++
			m.ctx[h] = st
		}
	}
}

func (m *NGram) count(k uint32) uint32 {
	c := m.counts[k]
	if m.base != nil {
		c += m.base.counts[k]
	}
	return c
}

func (m *NGram) context(k uint32) ctxStat {
	st := m.ctx[k]
	if m.base != nil {
		b := m.base.ctx[k]
		st.total += b.total
		st.types += b.types
	}
	return st
}

// alphabet is the number of characters a model predicts: a-z, digit,
// joiner, end.
const alphabet = 29

// prob is P(g[len-1] | g[:len-1]) with Witten-Bell interpolation down to
// a uniform distribution over the alphabet.
func (m *NGram) prob(g []byte) float64 {
	p := 1.0 / alphabet
	for n := 1; n <= len(g); n++ {
		s := g[len(g)-n:]
		st := m.context(gramKey(s[:n-1]))
		if st.total == 0 {
			continue
		}
		c := float64(m.count(gramKey(s)))
		t := float64(st.types)
		p = (c + t*p) / (float64(st.total) + t)
	}
	return p
}

// Surprisal returns the mean surprisal, in bits per character, of token
// tok (lower case, as Tokens gives it) and its end.
func (m *NGram) Surprisal(tok string) float64 {
	codes := make([]byte, 0, len(tok)+NGramOrder)
	for range NGramOrder - 1 {
		codes = append(codes, codePad)
	}
	for i := 0; i < len(tok); i++ {
		codes = append(codes, code(tok[i]))
	}
	codes = append(codes, codeEnd)
	var bits float64
	for i := NGramOrder - 1; i < len(codes); i++ {
		bits -= math.Log2(m.prob(codes[i-NGramOrder+1 : i+1]))
	}
	return bits / float64(len(codes)-NGramOrder+1)
}

// RareScore returns the highest Surprisal of the tokens of text and that
// token; 0 and "" when text has none.
func (m *NGram) RareScore(text string) (score float64, token string) {
	Tokens(text, func(tok string) {
		if s := m.Surprisal(tok); s > score {
			score, token = s, tok
		}
	})
	return score, token
}

var (
	// reHexToken: hex of 16 digits or more, or hex with a digit and a
	// letter (a fragment of an elided address: 0x12ab…9f3c).
	reHexToken = regexp.MustCompile(`^(?:[0-9a-f]{16,}|[0-9a-f]*[0-9][0-9a-f]*)$`)
	reNumUnit  = regexp.MustCompile(`^[0-9]+(?:[.,][0-9]+)*(?:[a-z]{1,5})?$|^[a-z]{0,3}[0-9]+(?:[.,][0-9]+)*[a-z]{0,5}$`)
)

// units are the units of measure of DeFi text, legitimately rare words.
var units = map[string]bool{"gwei": true, "kwei": true, "mwei": true, "szabo": true, "finney": true, "bips": true,
	"sats": true}

// Tokens calls fn with every scored token of text, lower case with each
// run of digits as one '0': runs of ASCII letters and digits, joined by
// single - or _ between them (a '.', '/' or apostrophe splits file names,
// domains, paths and possessives into their parts), of at least minToken characters, skipping
// hex (addresses, hashes, selectors, fragments of them), tokens that
// begin with a digit (numbers, quantities with a unit such as 10bps or 30d,
// versions such as 1.2-rc3, 0x-identifiers), units (gwei), short names
// with a number (v3, erc20), acronyms (see acronym) and names (see name). A run next to
// a letter of another script is not English and is skipped.
func Tokens(text string, fn func(string)) {
	var buf [64]byte
	for i := 0; i < len(text); {
		if !tokenByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && (tokenByte(text[j]) || joiner(text[j]) && j+1 < len(text) && tokenByte(text[j+1]) && j > i) {
			j++
		}
		foreign := i > 0 && text[i-1] >= 0x80 || j < len(text) && text[j] >= 0x80
		tok := text[i:j]
		i = j
		if foreign || len(tok) < minToken || len(tok) > len(buf) || acronym(tok) || name(tok) {
			continue
		}
		b := buf[:0]
		for k := 0; k < len(tok); k++ {
			c := tok[k]
			switch {
			case c >= 'A' && c <= 'Z':
				c += 'a' - 'A'
			case c >= '0' && c <= '9':
				if len(b) > 0 && b[len(b)-1] == '0' {
					continue
				}
				c = '0'
			}
			b = append(b, c)
		}
		if len(b) < minToken || tok[0] >= '0' && tok[0] <= '9' || legitRare(tok) {
			continue
		}
		fn(string(b))
	}
}

// acronym reports a token of at most five capital letters (RPC, MEV,
// TVL, USDC): an acronym or a ticker, whose letters are an abbreviation's,
// not a word's.
func acronym(tok string) bool {
	if len(tok) > 5 {
		return false
	}
	for i := 0; i < len(tok); i++ {
		if tok[i] < 'A' || tok[i] > 'Z' {
			return false
		}
	}
	return true
}

// name reports capitalised words of letters only, alone or hyphenated
// (Kevin, Chernivtsi, BigQuery, Ijegun-Egba): a proper name, legitimately
// rare in a general corpus. A capitalised made-up word is not scored
// either; a trigger with a digit, an underscore or a lower-case part still
// is.
func name(tok string) bool {
	for _, part := range strings.Split(tok, "-") {
		if part == "" || part[0] < 'A' || part[0] > 'Z' {
			return false
		}
		for i := 1; i < len(part); i++ {
			if c := part[i] | 0x20; c < 'a' || c > 'z' {
				return false
			}
		}
	}
	return true
}

// legitRare reports hex, a quantity or short name with a number, or a
// unit (see Tokens). The expressions run only on tokens with a digit.
func legitRare(tok string) bool {
	lower := strings.ToLower(tok)
	if units[lower] {
		return true
	}
	digit, hex := false, true
	for i := 0; i < len(lower); i++ {
		c := lower[i]
		digit = digit || c >= '0' && c <= '9'
		hex = hex && (c >= '0' && c <= '9' || c >= 'a' && c <= 'f')
	}
	if hex && len(lower) >= 16 {
		return true
	}
	return digit && (reHexToken.MatchString(lower) || reNumUnit.MatchString(lower))
}

func tokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func joiner(c byte) bool { return c == '-' || c == '_' }

// The model's file: a gzip of text lines, a header line
// "ngram <order> <boundary>" then one "<n-gram> <count>" per line for
// every n-gram of NGramOrder characters, written with the alphabet's
// characters ('^' for the padding). The lower orders follow from them.

// WriteNGram writes m (without what it extends) in the model's format.
func WriteNGram(w io.Writer, m *NGram) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	fmt.Fprintf(bw, "ngram %d %.4f\n", NGramOrder, m.Boundary)
	var lines []string
	for k, c := range m.counts {
		if k>>28 == NGramOrder {
			lines = append(lines, decodeKey(k)+" "+strconv.FormatUint(uint64(c), 10))
		}
	}
	slices.Sort(lines)
	for _, l := range lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

const letters = "_abcdefghijklmnopqrstuvwxyz0^$-"

func decodeKey(k uint32) string {
	n := int(k >> 28)
	b := make([]byte, n)
	for i := range n {
		b[i] = letters[(k>>(5*i))&31]
	}
	return string(b)
}

// ReadNGram reads a model written by WriteNGram.
func ReadNGram(r io.Reader) (*NGram, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("ngram: %w", err)
	}
	sc := bufio.NewScanner(zr)
	if !sc.Scan() {
		return nil, fmt.Errorf("ngram: no header")
	}
	var order int
	var boundary float64
	if _, err := fmt.Sscanf(sc.Text(), "ngram %d %g", &order, &boundary); err != nil || order != NGramOrder {
		return nil, fmt.Errorf("ngram: bad header %q", sc.Text())
	}
	m := NewNGram(boundary)
	for sc.Scan() {
		g, n, ok := strings.Cut(sc.Text(), " ")
		c, err := strconv.ParseUint(n, 10, 32)
		if !ok || err != nil || len(g) != NGramOrder {
			return nil, fmt.Errorf("ngram: bad line %q", sc.Text())
		}
		codes := make([]byte, NGramOrder)
		for i := 0; i < len(g); i++ {
			j := strings.IndexByte(letters, g[i])
			if j <= 0 {
				return nil, fmt.Errorf("ngram: bad line %q", sc.Text())
			}
			codes[i] = byte(j)
		}
		m.addGram(codes, uint32(c))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("ngram: %w", err)
	}
	return m, nil
}

// addGram counts a full-order n-gram c times, with its lower orders.
func (m *NGram) addGram(codes []byte, c uint32) {
	for n := 1; n <= NGramOrder; n++ {
		g := codes[NGramOrder-n:]
		k := gramKey(g)
		h := gramKey(g[:n-1])
		st := m.ctx[h]
		if m.counts[k] == 0 {
			st.types++
		}
		st.total += c
		m.ctx[h] = st
		m.counts[k] += c
	}
}
