package trust

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// DefaultLimit is a ledger's memory limit when NewLedger is given none.
const DefaultLimit = 4 << 20

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

	mu         sync.RWMutex
	obs        []*observation // oldest first
	seen       map[[32]byte]*observation
	size       int
	incomplete bool // untrusted text was dropped
}

// observation is a Source with its text, prepared for lookups the first
// time one needs it: a session that never looks a value up (a clean one,
// under a policy without provenance rules) pays only for keeping the text.
type observation struct {
	src     Source
	key     [32]byte
	size    int
	texts   []string // the leaves as observed, until prepared
	rawNums []string
	rawJSON []byte // or a JSON result still to decode

	once  sync.Once
	text  string              // normalised, leaves joined by sep
	nums  map[string]struct{} // canonical numbers
	short map[string]struct{} // tokens of fewer than three runes
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
	out, _ := l.record(src, []byte(text), false, true)
	return out
}

// ObserveJSON records a JSON tool result: every object key (a result may key
// data by an address or id), string value and number in it, so that a value
// inside the JSON matches whatever escapes the JSON text used; numbers are
// compared by value. Detect sees the keys and values one per line. A raw that
// is not valid JSON is recorded as text, like Observe.
func (l *Ledger) ObserveJSON(src Source, raw []byte) Source {
	out, _ := l.record(src, raw, true, true)
	return out
}

// Record is Observe (isJSON false) or ObserveJSON (true) reporting whether
// the ledger kept a new observation: false when it had the same text from
// the same kind of source already. What Record keeps is what a caller
// persists, to rebuild the ledger with Replay.
func (l *Ledger) Record(src Source, body []byte, isJSON bool) (Source, bool) {
	return l.record(src, body, isJSON, true)
}

// Replay records an observation an earlier Record kept, in the same order:
// src's Instructions are those Record found, not detected again.
func (l *Ledger) Replay(src Source, body []byte, isJSON bool) {
	l.record(src, body, isJSON, false)
}

// MarkIncomplete records that untrusted text was dropped before the ledger
// saw it (a ledger rebuilt from a store that pruned it): from then on an
// Unknown answer says it may hide an Untrusted one.
func (l *Ledger) MarkIncomplete() {
	l.mu.Lock()
	l.incomplete = true
	l.mu.Unlock()
}

func (l *Ledger) record(src Source, body []byte, isJSON, detect bool) (Source, bool) {
	if !isJSON {
		var signals []string
		if detect && !src.Kind.Trusted() {
			signals = Detect(string(body))
		}
		return l.add(src, signals, []string{truncate(string(body), l.limit)}, nil, len(body) > l.limit, nil)
	}
	if src.Kind.Trusted() && len(body) <= l.limit {
		// Nothing to scan: keep the bytes and decode them the first time
		// a lookup needs them.
		return l.add(src, nil, nil, nil, false, slices.Clone(body))
	}
	texts, nums, all, ok := l.leaves(body)
	if !ok {
		return l.record(src, body, false, detect)
	}
	var signals []string
	if detect && !src.Kind.Trusted() {
		signals = Detect(strings.Join(all, "\n"))
	}
	return l.add(src, signals, texts, nums, len(texts) < len(all), nil)
}

// leaves decodes a JSON result into its string leaves and keys (texts, at
// most the ledger's limit of them), its numbers, and all of the leaves;
// ok is false for a raw that is not one JSON value.
func (l *Ledger) leaves(raw []byte) (texts, nums, all []string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, nil, nil, false
	}
	n := 0
	walk(v, true, func(leaf any) bool {
		var s string
		switch x := leaf.(type) {
		case string:
			s = x
		case json.Number:
			s = x.String()
		default:
			return true
		}
		all = append(all, s)
		if n+len(s) > l.limit {
			return true
		}
		n += len(s) + len(sep)
		texts = append(texts, s)
		if _, ok := leaf.(json.Number); ok {
			nums = append(nums, s)
		}
		return true
	})
	return texts, nums, all, true
}

// add records an observation of texts (the leaves of one source),
// dropping the oldest observations while over the limit. cut reports that
// texts are not all of the source. The same text seen again from the same
// kind of source is recorded once (a tool polled in a loop does not grow
// the ledger). Only untrusted sources are scanned for instruction-like
// text: what a trusted source says steers nothing.
func (l *Ledger) add(src Source, signals, texts, rawNums []string, cut bool, rawJSON []byte) (Source, bool) {
	src.Instructions = mergeSignals(src.Instructions, signals)
	h := sha256.New()
	h.Write([]byte{byte(src.Kind)})
	o := &observation{src: src, texts: texts, rawNums: rawNums, rawJSON: rawJSON, size: 96 + 3*len(rawJSON)}
	h.Write(rawJSON)
	for _, t := range texts {
		h.Write([]byte(t))
		h.Write([]byte(sep))
		// normalised variants and the number and token sets take about
		// twice the raw text
		o.size += 2*len(t) + 16
	}
	for _, r := range rawNums {
		h.Write([]byte(r))
		h.Write([]byte{1})
		o.size += len(r) + 32
	}
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
	l.obs = append(l.obs, o)
	l.seen[o.key] = o
	l.size += o.size
	drop := 0
	for l.size > l.limit && drop < len(l.obs)-1 {
		d := l.obs[drop]
		l.size -= d.size
		delete(l.seen, d.key)
		if !d.src.Kind.Trusted() {
			l.incomplete = true
		}
		drop++
	}
	if drop > 0 {
		l.obs = slices.Delete(l.obs, 0, drop)
	}
	return cloneSource(src), true
}

// prepare normalises the observation's text once.
func (o *observation) prepare() {
	o.once.Do(func() {
		if o.rawJSON != nil {
			texts, nums, _, ok := (&Ledger{limit: len(o.rawJSON) + 1}).leaves(o.rawJSON)
			if !ok {
				texts = []string{string(o.rawJSON)}
			}
			o.texts, o.rawNums, o.rawJSON = texts, nums, nil
		}
		o.nums, o.short = map[string]struct{}{}, map[string]struct{}{}
		var b strings.Builder
		for i, t := range o.texts {
			for j, v := range variants(t) {
				if i > 0 || j > 0 {
					b.WriteString(sep)
				}
				b.WriteString(v)
				numbers(o.nums, v)
				shortTokens(o.short, v)
			}
		}
		for _, r := range o.rawNums {
			if c, ok := canonNumber(r); ok {
				o.nums[c] = struct{}{}
			}
		}
		o.text = b.String()
		o.texts, o.rawNums = nil, nil
	})
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

// Args returns the evidence for each top-level argument: see Lookup.
func (l *Ledger) Args(args map[string]any) map[string]Evidence {
	out := make(map[string]Evidence, len(args))
	for k, v := range args {
		out[k] = l.Lookup(v)
	}
	return out
}

// Lookup returns where v came from. v is a decoded JSON value: a string,
// float64, json.Number, integer, bool or nil, or a []any or map[string]any,
// whose origin is the worst of its leaves and whose sources are theirs.
// Object keys are not compared: they are the tool schema's field names, which
// no source need contain. Empty strings, bools and nil carry nothing and are
// Trusted; a value of another type, a non-finite number or an argument of
// more than 4096 leaves is at best Unknown.
func (l *Ledger) Lookup(v any) Evidence {
	var qs []query
	over := false
	walk(v, false, func(leaf any) bool {
		if len(qs) == maxLeaves {
			over = true
			return false
		}
		qs = append(qs, newQuery(leaf))
		return true
	})

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

// lookup answers for one leaf. l.mu is held for reading.
func (l *Ledger) lookup(q query) Evidence {
	switch q.kind {
	case qCarries:
		return Evidence{Origin: Trusted}
	case qOpaque:
		return Evidence{Origin: Unknown}
	}
	var trusted, untrusted []Source
	for _, o := range l.obs {
		isTrusted := o.src.Kind.Trusted()
		if isTrusted && len(trusted) == maxEvidence || !isTrusted && (len(untrusted) == maxEvidence || len(trusted) > 0) {
			continue
		}
		if !o.matches(q) {
			continue
		}
		if isTrusted {
			trusted = append(trusted, cloneSource(o.src))
		} else {
			untrusted = append(untrusted, cloneSource(o.src))
		}
	}
	switch {
	case len(trusted) > 0:
		return Evidence{Origin: Trusted, Sources: trusted}
	case len(untrusted) > 0:
		return Evidence{Origin: Untrusted, Sources: untrusted}
	}
	return Evidence{Origin: Unknown}
}

func (o *observation) matches(q query) bool {
	o.prepare()
	if q.num != "" {
		if _, ok := o.nums[q.num]; ok {
			return true
		}
	}
	if q.kind != qString {
		return false
	}
	if utf8.RuneCountInString(q.text) < 3 {
		_, ok := o.short[q.text]
		return ok
	}
	if containsToken(o.text, q.text) {
		return true
	}
	return q.compact != "" && containsCompact(o.text, q.compact)
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
