package trust

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"github.com/wardhq/ward/internal/trust/screen"
	"html"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// DefaultLimit is a ledger's memory limit when NewLedger is given none:
// what its observations, their indexes and postings and its lookups'
// folds hold (Size). A small tool output (a balance read's JSON) takes
// about 1.5 KB prepared and indexed, so about 10,000 of them fit.
const DefaultLimit = 16 << 20

// maxLeaves bounds the leaves of one argument that Lookup compares; an
// argument with more is at best Unknown.
const maxLeaves = 4096

// sep joins the leaves of a JSON output in its recorded text: it is not a
// letter or digit, so a value cannot match across two leaves at a boundary.
const sep = "\x00"

// Ledger records the text of every directive and tool output a session saw
// and answers, for a value, where it came from. It is safe for concurrent
// use. Its memory is bounded: see NewLedger.
type Ledger struct {
	limit int

	mu   sync.RWMutex
	obs  []*observation // oldest first, by seq
	seen map[[32]byte]*observation
	// size is what the live observations hold (see observation.size); it
	// changes under mu, and under mu read-locked when a lookup prepares
	// or indexes an observation, hence atomic. stale is what dropped
	// observations still hold in the postings until they are rebuilt
	// (changed under mu, or read-locked with idxMu).
	size       atomic.Int64
	stale      atomic.Int64
	seq        uint64 // the next observation's
	incomplete bool   // untrusted text was dropped

	// idxMu guards post and folds, which lookups build and read with mu
	// held for reading.
	idxMu sync.Mutex
	post  postings
	folds map[query]*fold
	// foldSize is what the folds hold, about; it is kept under an eighth
	// of the limit by forgetting them all. (Changed under idxMu; atomic
	// for Size.)
	foldSize atomic.Int64
}

// observation is a Source with its text, prepared for lookups the first
// time one needs it: a session that never looks a value up (a clean one,
// under a policy without provenance rules) pays only for keeping the text.
type observation struct {
	src Source
	seq uint64 // order of recording, for the postings
	key [32]byte
	// size is what the observation holds on the heap, about: an estimate
	// from its raw text until it is prepared, then its index measured,
	// plus its share of the postings once indexed (posted).
	size   atomic.Int64
	total  *atomic.Int64 // the ledger's size
	posted int64         // changed under the ledger's idxMu, or its mu
	raw    *raw          // until prepared

	once sync.Once
	body index
	echo *index // the call's arguments; nil for none
}

// raw is an observation as recorded, until it is prepared.
type raw struct {
	texts []string // the leaves as observed
	nums  []string
	json  []byte // or a JSON result still to decode
	// args are the arguments of the call that produced the output (JSON),
	// if any: what the output echoes of them it does not vouch for.
	args []byte
}

// index is a text prepared for comparisons.
type index struct {
	text  string // normalised, leaves joined by sep
	words string // text's words, one space apart (for Traces)
	nums  set    // canonical numbers
	short set    // tokens of fewer than three runes
	// pairs are the numbers the text gives under a field name ("id: 7",
	// {"id": 7}), as name + sep + canonical number: a small number is
	// matched only so (see LookupArg).
	pairs set
}

// set is a set of strings, sorted: an index keeps many small ones, for
// which a map's table would be most of the index's memory.
type set []string

func newSet(m map[string]struct{}) set {
	if len(m) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(m))
}

func (s set) has(k string) bool {
	_, ok := slices.BinarySearch(s, k)
	return ok
}

// NewLedger returns an empty ledger that keeps at most about limitBytes of
// observations (DefaultLimit if limitBytes <= 0). When over the limit it
// drops the oldest observations, and truncates a single observation larger
// than the limit; both can only turn an answer into Unknown (or Trusted into
// Untrusted), never into Trusted.
func NewLedger(limitBytes int) *Ledger {
	if limitBytes <= 0 {
		limitBytes = DefaultLimit
	}
	return &Ledger{limit: limitBytes}
}

// Observe records text as src and returns src with Instructions filled in by
// Detect (merged with any src already had). Detect sees all of text, even
// when the ledger keeps only part of it.
func (l *Ledger) Observe(src Source, text string) Source {
	out, _ := l.record(src, []byte(text), false, nil, true)
	return out
}

// ObserveJSON records a JSON tool result: every object key (a result may key
// data by an address or id), string value and number in it, so that a value
// inside the JSON matches whatever escapes the JSON text used; numbers are
// compared by value. Detect sees the keys and values one per line. A raw that
// is not valid JSON is recorded as text, like Observe.
func (l *Ledger) ObserveJSON(src Source, raw []byte) Source {
	out, _ := l.record(src, raw, true, nil, true)
	return out
}

// Record is Observe (isJSON false) or ObserveJSON (true) reporting whether
// the ledger kept a new observation: false when it had the same text from
// the same kind of source already. What Record keeps is what a caller
// persists, to rebuild the ledger with Replay.
func (l *Ledger) Record(src Source, body []byte, isJSON bool) (Source, bool) {
	return l.record(src, body, isJSON, nil, true)
}

// RecordCall is Record for the output of a tool call made with args (the
// call's JSON arguments): a value of the output that one of the arguments
// contains is an echo, and a trusted output does not vouch for it — it has
// the provenance the argument had, from the sources before (a lookup tool
// that repeats the name it was asked about does not make the name
// trusted).
func (l *Ledger) RecordCall(src Source, body []byte, isJSON bool, args []byte) (Source, bool) {
	return l.record(src, body, isJSON, args, true)
}

// Replay records an observation an earlier Record or RecordCall kept, in
// the same order: src's Instructions are those Record found, not detected
// again.
func (l *Ledger) Replay(src Source, body []byte, isJSON bool, args []byte) {
	l.record(src, body, isJSON, args, false)
}

// Size is about how many bytes of memory the ledger holds: its
// observations, their indexes and postings, and its lookups' folds. It
// is kept near the limit: an observation recorded past it drops the
// oldest, and lookups between two records can add the indexes of the
// observations recorded since the last lookup.
func (l *Ledger) Size() int64 {
	return l.size.Load() + l.stale.Load() + l.foldSize.Load()
}

// MarkIncomplete records that untrusted text was dropped before the ledger
// saw it (a ledger rebuilt from a store that pruned it): from then on an
// Unknown answer says it may hide an Untrusted one.
func (l *Ledger) MarkIncomplete() {
	l.mu.Lock()
	l.incomplete = true
	l.mu.Unlock()
}

func (l *Ledger) record(src Source, body []byte, isJSON bool, args []byte, scan bool) (Source, bool) {
	switch {
	case !src.Kind.Trusted():
		args = nil // only a trusted output vouches, so only its echoes matter
	case len(args) > l.limit:
		// Arguments too large to keep: what the output echoes cannot be
		// told apart, so it vouches for nothing and is not kept.
		return cloneSource(src), false
	default:
		args = slices.Clone(args)
	}
	if !isJSON {
		var signals []string
		if scan && !src.Kind.Trusted() {
			signals = screen.Instructions(string(body))
		}
		return l.add(src, signals, []string{truncate(string(body), l.limit)}, nil, len(body) > l.limit, nil, args)
	}
	if src.Kind.Trusted() && len(body) <= l.limit {
		// Nothing to scan: keep the bytes and decode them the first time
		// a lookup needs them.
		return l.add(src, nil, nil, nil, false, slices.Clone(body), args)
	}
	texts, nums, all, ok := leaves(body, l.limit)
	if !ok {
		return l.record(src, body, false, args, scan)
	}
	var signals []string
	if scan && !src.Kind.Trusted() {
		signals = screen.Instructions(strings.Join(all, "\n"))
	}
	return l.add(src, signals, texts, nums, len(texts) < len(all), nil, args)
}

// leaves decodes a JSON result into its string leaves and keys (texts, at
// most limit bytes of them), its numbers, and all of the leaves; ok is
// false for a raw that is not one JSON value. The decoded leaves may be
// longer than raw: the decoder reads each byte of invalid UTF-8 as
// U+FFFD, three bytes.
func leaves(raw []byte, limit int) (texts, nums, all []string, ok bool) {
	v, ok := decodeValue(raw)
	if !ok {
		return nil, nil, nil, false
	}
	n := 0
	walkText(v, func(s string, number bool) bool {
		all = append(all, s)
		if n+len(s) > limit {
			return true
		}
		n += len(s) + len(sep)
		texts = append(texts, s)
		if number {
			nums = append(nums, s)
		}
		return true
	})
	return texts, nums, all, true
}

// decodeValue decodes raw, numbers as json.Number; ok is false for a raw
// that is not exactly one JSON value.
func decodeValue(raw []byte) (v any, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, false
	}
	return v, true
}

// add records an observation of texts (the leaves of one source),
// dropping the oldest observations while over the limit. cut reports that
// texts are not all of the source. The same text seen again from the same
// kind of source is recorded once (a tool polled in a loop does not grow
// the ledger). Only untrusted sources are scanned for instruction-like
// text: what a trusted source says steers nothing.
func (l *Ledger) add(src Source, signals, texts, rawNums []string, cut bool, rawJSON, args []byte) (Source, bool) {
	src.Instructions = mergeSignals(src.Instructions, signals)
	h := sha256.New()
	h.Write([]byte{byte(src.Kind)})
	o := &observation{src: src, raw: &raw{texts: texts, nums: rawNums, json: rawJSON, args: args}, total: &l.size}
	size := obsOverhead + src.footprint() + 3*len(rawJSON) + 3*len(args)
	// The same output of a call with other arguments is another
	// observation: what it echoes differs.
	h.Write([]byte{byte(len(args) >> 24), byte(len(args) >> 16), byte(len(args) >> 8), byte(len(args))})
	h.Write(args)
	h.Write(rawJSON)
	for _, t := range texts {
		h.Write([]byte(t))
		h.Write([]byte(sep))
		// until prepared: the text and its string header
		size += len(t) + strHeader
	}
	for _, r := range rawNums {
		h.Write([]byte(r))
		h.Write([]byte{1})
		size += len(r) + strHeader
	}
	o.size.Store(int64(size))
	h.Sum(o.key[:0])

	l.mu.Lock()
	defer l.mu.Unlock()
	if cut && !src.Kind.Trusted() {
		l.incomplete = true
	}
	if l.seen == nil {
		l.seen = map[[32]byte]*observation{}
	}
	if old, ok := l.seen[o.key]; ok {
		return cloneSource(old.src), false
	}
	o.seq = l.seq
	l.seq++
	l.obs = append(l.obs, o)
	l.seen[o.key] = o
	l.size.Add(o.size.Load())
	drop := 0
	for l.Size() > int64(l.limit) && drop < len(l.obs)-1 {
		d := l.obs[drop]
		l.size.Add(-d.size.Load())
		l.stale.Add(d.posted)
		delete(l.seen, d.key)
		if !d.src.Kind.Trusted() {
			l.incomplete = true
		}
		drop++
	}
	if drop > 0 {
		l.obs = slices.Delete(l.obs, 0, drop)
		if l.stale.Load() > l.size.Load()/2 {
			l.dropPostings()
		}
	}
	return cloneSource(src), true
}

// dropPostings forgets the postings (the next lookup indexes the live
// observations again), to free what dropped observations hold in them.
// l.mu is held, or read-locked with idxMu.
func (l *Ledger) dropPostings() {
	l.post = postings{}
	l.stale.Store(0)
	for _, o := range l.obs {
		o.size.Add(-o.posted)
		l.size.Add(-o.posted)
		o.posted = 0
	}
}

// Sizes of what a ledger holds, as Go lays it out (about): a string's
// header; a slice's header; a sequence number in a posting list (with
// append's slack); a new posting list (its map entry, key and first
// backing array); an observation's struct.
const (
	strHeader    = 16
	sliceHeader  = 24
	postEntry    = 8
	postList     = 60
	obsOverhead  = 420
	srcSize      = 48
	foldOverhead = 200
)

// footprint is what src holds beyond its struct.
func (s Source) footprint() int {
	n := len(s.Ref)
	for _, i := range s.Instructions {
		n += strHeader + len(i)
	}
	return n
}

// footprint is what x holds on the heap, about.
func (x *index) footprint() int {
	n := len(x.text)
	if x.words != x.text {
		n += len(x.words)
	}
	for _, s := range []set{x.nums, x.short, x.pairs} {
		n += sliceHeader + cap(s)*strHeader
		for _, k := range s {
			n += len(k)
		}
	}
	return n
}

// prepare normalises the observation's text, and its call's arguments,
// once. Their JSON was admitted whole under the ledger's limit when it
// was recorded, so it is decoded whole here: every leaf is compared.
func (o *observation) prepare() {
	o.once.Do(func() {
		r := o.raw
		o.raw = nil
		var text string
		if r.json != nil {
			text = string(r.json)
			texts, nums, _, ok := leaves(r.json, math.MaxInt)
			if !ok {
				texts = []string{string(r.json)}
			}
			r.texts, r.nums = texts, nums
		} else {
			text = strings.Join(r.texts, "\n")
		}
		o.body = newIndex(r.texts, r.nums, false)
		o.body.pairs = newSet(fieldNumbers(text))
		if r.args != nil {
			texts, nums, _, ok := leaves(r.args, math.MaxInt)
			if !ok {
				texts = []string{string(r.args)}
			}
			x := newIndex(texts, nums, true)
			x.pairs = newSet(fieldNumbers(string(r.args)))
			o.echo = &x
		}
		// The raw estimate gives way to what the index holds.
		size := int64(obsOverhead + o.src.footprint() + o.body.footprint())
		if o.echo != nil {
			size += int64(o.echo.footprint())
		}
		o.total.Add(size - o.size.Swap(size))
	})
}

// reFieldNumber matches a number given under a field name: "id: 7",
// "id = 7", "\"id\": 7", "'id': '7'".
var reFieldNumber = regexp.MustCompile(`(?i)(?:^|[\s{,"'])([a-z_][a-z0-9_]{0,63})["']?\s*[:=]\s*["']?(-?[0-9][0-9,]*(?:\.[0-9]+)?)\b`)

// fieldNumbers returns the numbers text gives under field names, as
// fieldKey(name) + sep + canonical number.
func fieldNumbers(text string) map[string]struct{} {
	out := map[string]struct{}{}
	for _, m := range reFieldNumber.FindAllStringSubmatch(text, -1) {
		if c, ok := canonNumber(m[2]); ok {
			out[fieldKey(m[1])+sep+c] = struct{}{}
		}
	}
	return out
}

// fieldKey is a field name as pairs are keyed: lower case, its words
// joined by '_' ("scheduledId", "scheduled-id" and "scheduled_id" agree).
func fieldKey(name string) string { return strings.Join(words(name), "_") }

// newIndex prepares texts (and the numbers among them) for comparisons.
// With decoded, each text's %-encoded, \u-escaped, base64 and hex forms
// are added: a tool may decode what it was given before echoing it.
func newIndex(texts, rawNums []string, decoded bool) index {
	var x index
	nums, short := map[string]struct{}{}, map[string]struct{}{}
	var b, w strings.Builder
	first := true
	addText := func(t string) {
		for _, v := range variants(t) {
			if !first {
				b.WriteString(sep)
			}
			first = false
			b.WriteString(v)
			numbers(nums, v)
			shortTokens(short, v)
			appendWords(&w, v)
		}
	}
	for _, t := range texts {
		addText(t)
		if !decoded {
			continue
		}
		if screen.HasPercentEscape(t) {
			addText(screen.PercentDecode(t))
		}
		if screen.HasUnicodeEscape(t) {
			addText(screen.UnicodeDecode(t))
		}
		screen.Blobs(t, func(m string) bool {
			if d, ok := decodeAny(m); ok {
				addText(string(d))
			}
			return true
		})
	}
	for _, r := range rawNums {
		if c, ok := canonNumber(r); ok {
			nums[c] = struct{}{}
		}
	}
	x.text, x.words = b.String(), w.String()
	if x.words == x.text {
		x.words = x.text // one copy
	}
	x.nums, x.short = newSet(nums), newSet(short)
	return x
}

// decodeAny decodes a base64 or hex blob to any text: unlike decodeBlob it
// does not ask for a share of letters, since what an echo may decode is
// any value (an account number is mostly digits).
func decodeAny(s string) ([]byte, bool) {
	if b, ok := screen.DecodeBlob(s); ok {
		return b, true
	}
	raw := strings.TrimRight(s, "=")
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(raw); err == nil && utf8.Valid(b) && !strings.ContainsFunc(string(b), func(r rune) bool {
			return !unicode.IsGraphic(r) && !unicode.IsSpace(r)
		}) {
			return b, true
		}
	}
	return nil, false
}

// appendWords appends the words of v (normalised) to w, one space apart,
// with sep between texts so that no phrase spans two leaves.
func appendWords(w *strings.Builder, v string) {
	if w.Len() > 0 {
		w.WriteString(sep)
	}
	start := true
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return !wordRune(r) }) {
		if !start {
			w.WriteByte(' ')
		}
		start = false
		w.WriteString(f)
	}
}

// variants returns the normalised forms of an observed text that values are
// compared with: the text itself; with HTML entities decoded, if it has
// any; and with format characters read as spaces, if it has any, since a
// zero-width space can separate words for a model as well as hide nothing.
func variants(t string) []string {
	out := []string{normalize(t)}
	if strings.Contains(t, "&") {
		if u := normalize(html.UnescapeString(t)); u != out[0] {
			out = append(out, u)
		}
	}
	if strings.ContainsFunc(t, isFormat) {
		if u := normalize(strings.Map(func(r rune) rune {
			if isFormat(r) {
				return ' '
			}
			return r
		}, t)); !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

func mergeSignals(a, b []string) []string {
	if len(a) == 0 && len(b) == 0 {
		return nil
	}
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

func cloneSource(s Source) Source {
	s.Instructions = slices.Clone(s.Instructions)
	return s
}

// Sources returns the observed sources still in the ledger, oldest first.
func (l *Ledger) Sources() []Source {
	l.mu.RLock()
	defer l.mu.RUnlock()
	out := make([]Source, len(l.obs))
	for i, o := range l.obs {
		out[i] = cloneSource(o.src)
	}
	return out
}

// Fields says which object keys of an argument are the schema's field
// names (compared with nothing: no source need contain them); every other
// key is data, looked up like a value. nil: every key is data.
type Fields func(key string) bool

// Args returns the evidence for each top-level argument: see LookupArg. A
// top-level name that fields does not know is data too: its evidence is the
// worst of the name's and the value's.
func (l *Ledger) Args(args map[string]any, fields Fields) map[string]Evidence {
	out := make(map[string]Evidence, len(args))
	for k, v := range args {
		if fields == nil || !fields(k) {
			out[k] = l.LookupArg(map[string]any{k: v}, nil)
			continue
		}
		out[k] = l.LookupArg(v, fields)
		if out[k].Origin == Unknown {
			if e, ok := l.lookupField(k, v); ok {
				out[k] = e
			}
		}
	}
	return out
}

// lookupField answers for a number too common to match alone (an id of 7,
// an amount of 100) that is argument name's value: a trusted output that
// gives that number under the same field name (or the name's last word:
// "id" for "transaction_id") vouches for it, unless the call that produced
// it was given the pair; else an untrusted text that gives it so makes it
// Untrusted. ok is false when v is not such a number or no text pairs it.
func (l *Ledger) lookupField(name string, v any) (Evidence, bool) {
	q := newQuery(v)
	if q.num == "" {
		return Evidence{}, false
	}
	keys := fieldKeys(name)
	l.mu.RLock()
	defer l.mu.RUnlock()
	pairs := make([][]pkey, len(keys))
	for i, k := range keys {
		pairs[i] = []pkey{{'p', k + sep + q.num}}
	}
	l.idxMu.Lock()
	defer l.idxMu.Unlock()
	var ev fieldEvidence
	for o := range l.candidates(pairs, 0) {
		ev.add(o, keys, q.num)
	}
	return ev.answer(l.incomplete)
}

// fieldKeys are the keys a number is looked up under as argument name's
// value: the field name and, for a name of several words, its last word.
func fieldKeys(name string) []string {
	keys := []string{fieldKey(name)}
	if ws := words(name); len(ws) > 1 {
		keys = append(keys, ws[len(ws)-1])
	}
	return keys
}

// fieldEvidence gathers the sources of the observations that give a
// number under a field name (lookupField), at most maxEvidence trusted and
// untrusted ones each.
type fieldEvidence struct {
	trusted, untrusted []Source
}

// add takes o's source when o gives num under one of keys as its own
// word: a trusted output whose call was given that pair does not.
func (ev *fieldEvidence) add(o *observation, keys []string, num string) {
	o.prepare()
	for _, k := range keys {
		pair := k + sep + num
		if !o.body.pairs.has(pair) {
			continue
		}
		switch {
		case !o.src.Kind.Trusted():
			if len(ev.untrusted) < maxEvidence {
				ev.untrusted = append(ev.untrusted, cloneSource(o.src))
			}
		case o.echo != nil && o.echo.pairs.has(pair):
			continue
		case len(ev.trusted) < maxEvidence:
			ev.trusted = append(ev.trusted, cloneSource(o.src))
		}
		return
	}
}

// answer is lookupField's: trusted sources before untrusted ones; ok is
// false when there are none.
func (ev *fieldEvidence) answer(incomplete bool) (Evidence, bool) {
	switch {
	case len(ev.trusted) > 0:
		return Evidence{Origin: Trusted, Sources: ev.trusted, Incomplete: incomplete}, true
	case len(ev.untrusted) > 0:
		return Evidence{Origin: Untrusted, Sources: ev.untrusted, Incomplete: incomplete}, true
	}
	return Evidence{}, false
}

// Lookup returns where v came from: LookupArg with every object key a
// field name.
func (l *Ledger) Lookup(v any) Evidence {
	return l.LookupArg(v, func(string) bool { return true })
}

// LookupArg returns where v came from. v is a decoded JSON value: a
// string, float64, json.Number, integer, bool or nil, or a []any or
// map[string]any, whose origin is the worst of its leaves and of its
// object keys that fields does not name, at every depth, and whose sources
// are theirs. Empty strings, bools and nil carry nothing and are Trusted; a
// value of another type, a non-finite number or an argument of more than
// 4096 leaves is at best Unknown. A number matches only when it is
// distinctive: at least five significant digits, and in fewer than three
// observations ("18" or "100" is in many texts and says nothing of where a
// value came from).
func (l *Ledger) LookupArg(v any, fields Fields) Evidence {
	qs, over := queries(v, fields)
	l.mu.RLock()
	defer l.mu.RUnlock()
	ev := Evidence{Origin: Trusted}
	for _, q := range qs {
		e := l.lookup(q)
		switch {
		case e.Origin < ev.Origin:
			ev.Origin = e.Origin
			ev.Sources = e.Sources
		case e.Origin == ev.Origin:
			ev.Sources = appendSources(ev.Sources, e.Sources)
		}
	}
	if over {
		ev.Origin = min(ev.Origin, Unknown)
	}
	if ev.Origin == Unknown {
		ev.Sources = nil
	}
	ev.Incomplete = l.incomplete
	return ev
}

// queries prepares v's leaves, and its keys that fields does not name,
// for comparison; over reports more than maxLeaves of them.
func queries(v any, fields Fields) (qs []query, over bool) {
	var visit func(v any) bool
	visit = func(v any) bool {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				if !visit(e) {
					return false
				}
			}
			return true
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if fields == nil || !fields(k) {
					if !visit(k) {
						return false
					}
				}
				if !visit(x[k]) {
					return false
				}
			}
			return true
		}
		if len(qs) == maxLeaves {
			over = true
			return false
		}
		qs = append(qs, newQuery(v))
		return true
	}
	visit(v)
	return qs, over
}

func appendSources(dst, src []Source) []Source {
	for _, s := range src {
		if len(dst) == maxEvidence {
			break
		}
		if !slices.ContainsFunc(dst, func(d Source) bool { return d.Ref == s.Ref && d.Kind == s.Kind }) {
			dst = append(dst, cloneSource(s))
		}
	}
	return dst
}

// query is one leaf prepared for comparison with the observations.
type query struct {
	kind    queryKind
	text    string // normalised string
	compact string // text without spaces, if compared so
	num     string // canonical number, if the leaf is or parses as one
}

type queryKind uint8

const (
	qCarries queryKind = iota // always trusted: carries nothing
	qString
	qNumber
	qOpaque // cannot be compared: at best Unknown
)

func newQuery(v any) query {
	num := func(s string) query {
		if c, ok := canonNumber(s); ok {
			return query{kind: qNumber, num: c}
		}
		return query{kind: qOpaque}
	}
	switch x := v.(type) {
	case nil, bool:
		return query{kind: qCarries}
	case string:
		n := normalize(x)
		if n == "" {
			return query{kind: qCarries}
		}
		q := query{kind: qString, text: n}
		if wantsCompact(n) {
			q.compact = strings.ReplaceAll(n, " ", "")
		}
		if c, ok := canonNumber(n); ok {
			q.num = c
		}
		return q
	case json.Number:
		return num(x.String())
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return query{kind: qOpaque}
		}
		return num(strconv.FormatFloat(x, 'f', -1, 64))
	case float32:
		return newQuery(float64(x))
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return num(fmt.Sprint(x))
	}
	return query{kind: qOpaque}
}

// Distinctive numbers: see LookupArg.
const (
	minSignificant = 5
	commonNumber   = 3
)

// significant returns the number of significant digits of a canonical
// number: without sign, point, leading zeros and an integer's trailing
// zeros.
func significant(c string) int {
	c = strings.TrimPrefix(c, "-")
	if !strings.Contains(c, ".") {
		c = strings.TrimRight(c, "0")
	}
	c = strings.TrimLeft(strings.ReplaceAll(c, ".", ""), "0")
	return len(c)
}

// lookup answers for one leaf: as a comparison with every observation,
// oldest first, but made only with the candidates the postings give, and
// only with those recorded since the same value was last looked up. l.mu
// is held for reading.
func (l *Ledger) lookup(q query) Evidence {
	switch q.kind {
	case qCarries:
		return Evidence{Origin: Trusted}
	case qOpaque:
		return Evidence{Origin: Unknown}
	}
	if q.num != "" && significant(q.num) < minSignificant {
		return Evidence{Origin: Unknown} // a common number: no provenance
	}
	if len(l.obs) == 0 {
		return Evidence{Origin: Unknown}
	}
	l.idxMu.Lock()
	defer l.idxMu.Unlock()
	// The answer is a fold over the observations in order: resume the
	// fold this value's last lookup left, over what was recorded since.
	first := l.obs[0].seq
	f := l.folds[q]
	if f == nil || f.first != first {
		f = &fold{first: first, next: first} // observations were dropped: again
	}
	if !f.settled && f.next < l.seq {
		var cands func(func(*observation) bool)
		if keys, ok := queryKeys(q); ok {
			cands = l.candidates(keys, f.next)
		} else {
			i, _ := slices.BinarySearchFunc(l.obs, f.next, seqOrder)
			cands = slices.Values(l.obs[i:])
		}
		for o := range cands {
			if f.add(q, o) {
				f.settled = true
				break
			}
		}
		f.next = l.seq
	}
	cost := f.footprint(q)
	if old := l.folds[q]; old != nil {
		l.foldSize.Add(-old.cost)
	}
	if len(l.folds) >= maxFolds || l.foldSize.Load()+cost > int64(l.limit/8) {
		clear(l.folds)
		l.foldSize.Store(0)
	}
	if l.folds == nil {
		l.folds = map[query]*fold{}
	}
	f.cost = cost
	l.folds[q] = f
	l.foldSize.Add(cost)
	return f.answer(q)
}

// footprint is what f, kept for q, holds, about: its entry in the map,
// the query's strings and the sources it found.
func (f *fold) footprint(q query) int64 {
	n := foldOverhead + len(q.text) + len(q.compact) + len(q.num)
	for _, s := range f.trusted {
		n += srcSize + s.footprint()
	}
	for _, s := range f.untrusted {
		n += srcSize + s.footprint()
	}
	return int64(n)
}

// maxFolds bounds the folds a ledger keeps for lookups to resume.
const maxFolds = 4096

// fold is a lookup's comparison of one value with the observations from
// first up to next, as it stands: resumable while no observation is
// dropped.
type fold struct {
	first, next uint64
	settled     bool // the answer can no longer change
	found       int
	cost        int64 // its footprint when last kept
	trusted     []Source
	untrusted   []Source
}

// add folds o in, and reports whether the answer is settled.
func (f *fold) add(q query, o *observation) bool {
	if !o.matches(q) {
		return false
	}
	f.found++
	if q.num != "" && f.found == commonNumber || len(f.trusted) == maxEvidence {
		return true
	}
	if o.src.Kind.Trusted() {
		if o.echoes(q) {
			return false // the call was given the value: not the tool's word
		}
		if len(f.trusted) < maxEvidence {
			f.trusted = append(f.trusted, cloneSource(o.src))
		}
	} else if len(f.untrusted) < maxEvidence {
		f.untrusted = append(f.untrusted, cloneSource(o.src))
	}
	return false
}

func (f *fold) answer(q query) Evidence {
	clone := func(srcs []Source) []Source {
		out := make([]Source, len(srcs))
		for i, s := range srcs {
			out[i] = cloneSource(s)
		}
		return out
	}
	switch {
	case q.num != "" && f.found >= commonNumber:
		return Evidence{Origin: Unknown} // in many outputs: says nothing
	case len(f.trusted) > 0:
		return Evidence{Origin: Trusted, Sources: clone(f.trusted)}
	case len(f.untrusted) > 0:
		return Evidence{Origin: Untrusted, Sources: clone(f.untrusted)}
	}
	return Evidence{Origin: Unknown}
}

func (o *observation) matches(q query) bool {
	o.prepare()
	return o.body.matches(q)
}

// echoes reports whether the observation's call was given q in its
// arguments.
func (o *observation) echoes(q query) bool {
	o.prepare()
	return o.echo != nil && o.echo.matches(q)
}

func (x *index) matches(q query) bool {
	if q.num != "" {
		if x.nums.has(q.num) {
			return true
		}
	}
	if q.kind != qString {
		return false
	}
	if utf8.RuneCountInString(q.text) < 3 {
		return x.short.has(q.text)
	}
	if containsToken(x.text, q.text) {
		return true
	}
	return q.compact != "" && containsCompact(x.text, q.compact)
}

// Traces says which sources parts of v come from, for values a model
// composes rather than copies (a message body, a title): a part is a
// string leaf as a whole, or a run of four consecutive words of one. It
// returns the trusted sources some part comes from and the untrusted
// sources with instruction-like text some part comes from (at most
// maxEvidence of each). A trusted output's echoes of its own call's
// arguments do not count as its words. Bools, nil, empty strings and
// numbers are no parts.
func (l *Ledger) Traces(v any) (trusted, instructed []Source) {
	var parts []string
	walk(v, true, func(leaf any) bool {
		if s, ok := leaf.(string); ok {
			parts = append(parts, phrases(normalize(s))...)
		}
		return len(parts) < maxLeaves
	})
	if len(parts) == 0 {
		return nil, nil
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	for _, o := range l.obs {
		isTrusted := o.src.Kind.Trusted()
		if isTrusted && len(trusted) == maxEvidence || !isTrusted && (len(o.src.Instructions) == 0 || len(instructed) == maxEvidence) {
			continue
		}
		o.prepare()
		for _, p := range parts {
			if !containsToken(o.body.words, p) || isTrusted && o.echo != nil && containsToken(o.echo.words, p) {
				continue
			}
			if isTrusted {
				trusted = append(trusted, cloneSource(o.src))
			} else {
				instructed = append(instructed, cloneSource(o.src))
			}
			break
		}
	}
	return trusted, instructed
}

// phrases returns the words of s (normalised) as one part if it has at
// most four, else its runs of four consecutive words (at most 256).
func phrases(s string) []string {
	ws := strings.FieldsFunc(s, func(r rune) bool { return !wordRune(r) })
	if len(ws) == 0 {
		return nil
	}
	if len(ws) <= 4 {
		if p := strings.Join(ws, " "); utf8.RuneCountInString(p) >= 3 {
			return []string{p}
		}
		return nil
	}
	var out []string
	for i := 0; i+4 <= len(ws) && len(out) < 256; i++ {
		out = append(out, strings.Join(ws[i:i+4], " "))
	}
	return out
}

// walkText calls fn with the text of every string and number leaf of v
// (a value decodeValue decoded) and of every object key, number set for a
// number, until fn returns false. Other leaves are skipped.
func walkText(v any, fn func(s string, number bool) bool) {
	walk(v, true, func(leaf any) bool {
		switch x := leaf.(type) {
		case string:
			return fn(x, false)
		case json.Number:
			return fn(x.String(), true)
		}
		return true
	})
}

// walk calls fn for every leaf of v, and with keys for every object key as
// a string, until fn returns false. Objects are walked in key order.
func walk(v any, keys bool, fn func(any) bool) bool {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if !walk(e, keys, fn) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if keys && !fn(k) {
				return false
			}
			if !walk(x[k], keys, fn) {
				return false
			}
		}
		return true
	}
	return fn(v)
}
