package trust

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"
)

// compactKey is how many bytes of a value compared with its spaces
// removed key the postings: wantsCompact asks for at least 8 runes.
const compactKey = 8

// postings index a ledger's observations by what a lookup can match, so
// that a lookup compares a value with the few observations that may hold
// it rather than with all of them. It is a filter, never an answer: every
// observation that index.matches would accept for a query is among the
// candidates (each key below is a necessary condition of a match), and
// the candidates are then compared exactly, oldest first, as a scan of
// every observation would.
//
// The keys of an observation's body:
//   - "n" + a canonical number it holds (a query's number matches so);
//   - "s" + a short token (a query of fewer than three runes matches only
//     so);
//   - "w" + a word of its text: a string that containsToken finds has
//     token boundaries at both ends, so each of its words is a whole word
//     of the text;
//   - "c" + the first compactKey bytes, spaces skipped after the first,
//     from each position with a token boundary before it: a compact match
//     starts at such a position with the query's first bytes;
//   - "p" + a field name and number pair (for lookupField).
//
// The postings are built the first time a lookup needs them, from the
// observations not yet indexed, so a session that never looks a value up
// pays nothing for them. Dropped observations leave their sequence
// numbers in the lists until the lists are rebuilt: once as many have
// been dropped as remain, which keeps the postings within a small
// multiple of the live observations' keys.
type postings struct {
	keys map[string][]uint64 // ascending sequence numbers
	base uint64              // first sequence number when built
	next uint64              // next sequence number to index
}

// candidates yields the live observations from sequence number from on
// that have every key of one of the groups, oldest first, each once. l.mu
// is held for reading and l.idxMu locked while it runs.
func (l *Ledger) candidates(groups [][]string, from uint64) func(func(*observation) bool) {
	return func(yield func(*observation) bool) {
		l.catchUp()
		if len(l.obs) == 0 {
			return
		}
		first := max(l.obs[0].seq, from)
		var cs []*cursor
		for _, g := range groups {
			if c := l.cursor(g, first); c != nil {
				cs = append(cs, c)
			}
		}
		for {
			var least *cursor
			for _, c := range cs {
				if c.ok() && (least == nil || c.head() < least.head()) {
					least = c
				}
			}
			if least == nil {
				return
			}
			s := least.head()
			for _, c := range cs {
				if c.ok() && c.head() == s {
					c.advance()
				}
			}
			if o := l.bySeq(s); o != nil && !yield(o) {
				return
			}
		}
	}
}

// cursor walks the sequence numbers in all of its lists, in order: the
// shortest list, each number looked up in the others.
type cursor struct {
	lead   []uint64
	others [][]uint64
}

// cursor returns a cursor over the observations from first that have all
// of keys, or nil if none can.
func (l *Ledger) cursor(keys []string, first uint64) *cursor {
	var lists [][]uint64
	for _, k := range keys {
		list := l.post.keys[k]
		i, _ := slices.BinarySearch(list, first)
		if i == len(list) {
			return nil
		}
		lists = append(lists, list[i:])
	}
	if len(lists) == 0 {
		return nil
	}
	slices.SortFunc(lists, func(a, b []uint64) int { return cmp.Compare(len(a), len(b)) })
	c := &cursor{lead: lists[0], others: lists[1:]}
	c.skip()
	return c
}

func (c *cursor) ok() bool     { return len(c.lead) > 0 }
func (c *cursor) head() uint64 { return c.lead[0] }
func (c *cursor) advance()     { c.lead = c.lead[1:]; c.skip() }

// skip drops the lead's numbers missing from another list.
func (c *cursor) skip() {
	for len(c.lead) > 0 {
		all := true
		for _, o := range c.others {
			if _, found := slices.BinarySearch(o, c.lead[0]); !found {
				all = false
				break
			}
		}
		if all {
			return
		}
		c.lead = c.lead[1:]
	}
}

// bySeq returns the live observation numbered s, or nil if it was
// dropped. l.mu is held.
func (l *Ledger) bySeq(s uint64) *observation {
	i, ok := slices.BinarySearchFunc(l.obs, s, seqOrder)
	if !ok {
		return nil
	}
	return l.obs[i]
}

// seqOrder orders an observation against a sequence number.
func seqOrder(o *observation, s uint64) int { return cmp.Compare(o.seq, s) }

// catchUp indexes the observations added since the last lookup, and
// rebuilds the postings when dropped observations are as many as live
// ones. l.mu is held for reading and l.idxMu locked.
func (l *Ledger) catchUp() {
	if len(l.obs) == 0 {
		return
	}
	first := l.obs[0].seq
	if l.post.keys == nil || first-l.post.base >= uint64(len(l.obs)) {
		l.post = postings{keys: map[string][]uint64{}, base: first, next: first}
	}
	i, _ := slices.BinarySearchFunc(l.obs, l.post.next, seqOrder)
	for _, o := range l.obs[i:] {
		o.prepare()
		for k := range o.body.keys() {
			l.post.keys[k] = append(l.post.keys[k], o.seq)
		}
		l.post.next = o.seq + 1
	}
}

// keys yields the posting keys of x, each once.
func (x *index) keys() func(func(string) bool) {
	return func(yield func(string) bool) {
		seen := map[string]struct{}{}
		emit := func(k string) bool {
			if _, ok := seen[k]; ok {
				return true
			}
			seen[k] = struct{}{}
			return yield(k)
		}
		for n := range x.nums {
			if !emit("n" + n) {
				return
			}
		}
		for s := range x.short {
			if !emit("s" + s) {
				return
			}
		}
		for p := range x.pairs {
			if !emit("p" + p) {
				return
			}
		}
		for _, w := range strings.FieldsFunc(x.text, func(r rune) bool { return !wordRune(r) }) {
			if !emit("w" + w) {
				return
			}
		}
		text := x.text
		for i := 0; i < len(text); {
			if text[i] != ' ' && boundaryBefore(text, i) {
				if k, ok := compactPrefix(text, i); ok && !emit("c"+k) {
					return
				}
			}
			_, n := utf8.DecodeRuneInString(text[i:])
			i += n
		}
	}
}

// compactPrefix returns the first compactKey bytes of text from start,
// spaces after the first byte skipped, as matchSpaced reads them; ok is
// false when fewer remain.
func compactPrefix(text string, start int) (string, bool) {
	var b [compactKey]byte
	k := 0
	for t := start; t < len(text) && k < compactKey; t++ {
		if text[t] == ' ' && k > 0 {
			continue
		}
		b[k] = text[t]
		k++
	}
	if k < compactKey {
		return "", false
	}
	return string(b[:]), true
}

// queryKeys returns groups of keys such that every observation that
// matches q has all the keys of at least one group; ok is false when q has
// none (a string of three or more runes without a word, compared with
// every observation).
func queryKeys(q query) (groups [][]string, ok bool) {
	if q.num != "" {
		groups = append(groups, []string{"n" + q.num})
	}
	if q.kind != qString {
		return groups, true
	}
	if utf8.RuneCountInString(q.text) < 3 {
		return append(groups, []string{"s" + q.text}), true
	}
	ws := strings.FieldsFunc(q.text, func(r rune) bool { return !wordRune(r) })
	if len(ws) == 0 {
		return nil, false
	}
	words := make([]string, 0, len(ws))
	for _, w := range ws {
		if k := "w" + w; !slices.Contains(words, k) {
			words = append(words, k)
		}
	}
	groups = append(groups, words)
	if q.compact != "" {
		if len(q.compact) < compactKey {
			return nil, false
		}
		groups = append(groups, []string{"c" + q.compact[:compactKey]})
	}
	return groups, true
}
