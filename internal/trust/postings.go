package trust

import (
	"cmp"
	"hash/maphash"
	"math"
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
// A key is kept as its hash (with a seed of the ledger's own): two keys
// with one hash only add candidates, which the exact comparison then
// rejects. A list holds sequence numbers less base, in 32 bits: the
// postings are most of what a ledger of many small outputs holds.
//
// The postings are built the first time a lookup needs them, from the
// observations not yet indexed, so a session that never looks a value up
// pays nothing for them. Dropped observations leave their sequence
// numbers in the lists until the lists are rebuilt: once as many have
// been dropped as remain, or what they hold is half of what the live
// observations hold (see Ledger.add), which keeps the postings within a
// small multiple of the live observations' keys.
type postings struct {
	seed maphash.Seed
	keys map[uint64][]uint32 // ascending sequence numbers less base
	base uint64              // first sequence number when built
	next uint64              // next sequence number to index
}

// pkey is a posting key: its kind ('n', 's', 'w', 'c' or 'p', see above)
// and text.
type pkey struct {
	kind byte
	text string
}

// hash returns k's hash under the postings' seed.
func (p *postings) hash(k pkey) uint64 {
	var h maphash.Hash
	h.SetSeed(p.seed)
	h.WriteByte(k.kind)
	h.WriteString(k.text)
	return h.Sum64()
}

// candidates yields the live observations from sequence number from on
// that have every key of one of the groups, oldest first, each once. l.mu
// is held for reading and l.idxMu locked while it runs.
func (l *Ledger) candidates(groups [][]pkey, from uint64) func(func(*observation) bool) {
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
	base   uint64
	lead   []uint32
	others [][]uint32
}

// cursor returns a cursor over the observations from first that have all
// of keys, or nil if none can.
func (l *Ledger) cursor(keys []pkey, first uint64) *cursor {
	var lists [][]uint32
	for _, k := range keys {
		list := l.post.keys[l.post.hash(k)]
		i, _ := slices.BinarySearch(list, uint32(first-l.post.base))
		if i == len(list) {
			return nil
		}
		lists = append(lists, list[i:])
	}
	if len(lists) == 0 {
		return nil
	}
	slices.SortFunc(lists, func(a, b []uint32) int { return cmp.Compare(len(a), len(b)) })
	c := &cursor{base: l.post.base, lead: lists[0], others: lists[1:]}
	c.skip()
	return c
}

func (c *cursor) ok() bool     { return len(c.lead) > 0 }
func (c *cursor) head() uint64 { return c.base + uint64(c.lead[0]) }
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
	if l.post.keys != nil && (first-l.post.base >= uint64(len(l.obs)) || l.seq-l.post.base > math.MaxUint32) {
		l.dropPostings()
	}
	if l.post.keys == nil {
		l.post = postings{seed: maphash.MakeSeed(), keys: map[uint64][]uint32{}, base: first, next: first}
	}
	i, _ := slices.BinarySearchFunc(l.obs, l.post.next, seqOrder)
	for _, o := range l.obs[i:] {
		o.prepare()
		// The observation's share of the postings: an entry in each of
		// its lists, and the lists it starts.
		var posted int64
		for k := range o.body.keys(&l.post) {
			list, ok := l.post.keys[k]
			if !ok {
				posted += postList
			}
			l.post.keys[k] = append(list, uint32(o.seq-l.post.base))
			posted += postEntry
		}
		o.posted = posted
		o.size.Add(posted)
		l.size.Add(posted)
		l.post.next = o.seq + 1
	}
}

// keys yields the hashes of x's posting keys under p's seed, each once.
func (x *index) keys(p *postings) func(func(uint64) bool) {
	return func(yield func(uint64) bool) {
		seen := map[uint64]struct{}{}
		emit := func(kind byte, text string) bool {
			k := p.hash(pkey{kind, text})
			if _, ok := seen[k]; ok {
				return true
			}
			seen[k] = struct{}{}
			return yield(k)
		}
		for _, n := range x.nums {
			if !emit('n', n) {
				return
			}
		}
		for _, s := range x.short {
			if !emit('s', s) {
				return
			}
		}
		for _, pair := range x.pairs {
			if !emit('p', pair) {
				return
			}
		}
		for _, w := range strings.FieldsFunc(x.text, func(r rune) bool { return !wordRune(r) }) {
			if !emit('w', w) {
				return
			}
		}
		text := x.text
		for i := 0; i < len(text); {
			if text[i] != ' ' && boundaryBefore(text, i) {
				if k, ok := compactPrefix(text, i); ok && !emit('c', k) {
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
func queryKeys(q query) (groups [][]pkey, ok bool) {
	if q.num != "" {
		groups = append(groups, []pkey{{'n', q.num}})
	}
	if q.kind != qString {
		return groups, true
	}
	if utf8.RuneCountInString(q.text) < 3 {
		return append(groups, []pkey{{'s', q.text}}), true
	}
	ws := strings.FieldsFunc(q.text, func(r rune) bool { return !wordRune(r) })
	if len(ws) == 0 {
		return nil, false
	}
	words := make([]pkey, 0, len(ws))
	for _, w := range ws {
		if k := (pkey{'w', w}); !slices.Contains(words, k) {
			words = append(words, k)
		}
	}
	groups = append(groups, words)
	if q.compact != "" {
		if len(q.compact) < compactKey {
			return nil, false
		}
		groups = append(groups, []pkey{{'c', q.compact[:compactKey]}})
	}
	return groups, true
}
