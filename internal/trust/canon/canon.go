// Package canon turns a knowledge entry's text into the canonical text that
// every ingestion layer judges: what a model reading the entry would read,
// with the obfuscation taken off. Text returns the entry's visible text,
// NFKC-normalised, without invisible characters (zero-width, bidi
// controls, variation selectors, Unicode tags, fillers) and with look-alike
// letters of other scripts folded to Latin inside Latin text; after it,
// one per line, come the parts a reader could be steered by but a lexical
// screen would miss: the text that tag characters spell, text hidden in
// HTML comments and hidden elements, markdown link titles and footnotes,
// front matter, JSON string values, and text decoded from base64, base32,
// hex, %-, \u-, \x- and HTML escapes and from rot13 where the result is
// more English-like than the original (see rot13). Decoded parts are
// canonicalised in turn, up to MaxDepth.
//
// The canonical text is for judging only: the entry keeps its content.
// Clean text loses nothing but invisible characters and NFKC's
// compatibility forms: prose in another script is not folded, because a
// letter is folded only in a word that mixes it with Latin letters, or in a
// word of look-alikes alone inside text that is mostly Latin.
//
// The work is bounded: Text reads at most MaxInput bytes, decodes at most
// MaxDepth levels deep and appends at most MaxOutput bytes in all, so
// nested encodings cost at most a small multiple of the input. Text is
// safe for concurrent use.
package canon

import (
	"encoding/base32"
	"encoding/json"
	"html"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/wardhq/ward/internal/trust/screen"
)

// Bounds on Text's work.
const (
	MaxInput   = 64 << 10 // bytes of input read; the rest is dropped
	MaxDepth   = 3        // levels of decoding inside decoded text
	MaxOutput  = 64 << 10 // bytes appended after the visible text, in all
	minLetters = 16       // letters a segment needs before rot13 is tried
)

// Text returns the canonical form of s described in the package comment.
// It returns s itself (NFKC-normalised) when there is nothing to take off.
func Text(s string) string {
	if len(s) > MaxInput {
		s = s[:MaxInput]
		for len(s) > 0 && !utf8.RuneStart(s[len(s)-1]) {
			s = s[:len(s)-1]
		}
		if r, n := utf8.DecodeLastRuneInString(s); r == utf8.RuneError && n <= 1 && len(s) > 0 {
			s = s[:len(s)-1]
		}
	}
	c := canon{budget: MaxOutput, seen: map[string]bool{}}
	visible := c.text(s, 0)
	if len(c.parts) == 0 {
		return visible
	}
	var b strings.Builder
	b.WriteString(visible)
	for _, p := range c.parts {
		b.WriteByte('\n')
		b.WriteString(p)
	}
	return b.String()
}

type canon struct {
	budget int             // bytes left to append
	parts  []string        // appended parts, in order found
	seen   map[string]bool // parts appended, and visible texts read
}

// text returns the visible canonical form of s and appends its hidden and
// decoded parts to c.parts.
func (c *canon) text(s string, depth int) string {
	s = norm.NFKC.String(s)
	visible, _, tags := screen.StripHidden(s)
	visible = dropInvisible(visible)
	visible = Fold(visible)
	c.seen[visible] = true
	if depth >= MaxDepth {
		return visible
	}
	if tags != "" {
		c.add(tags, depth)
	}
	hiddenParts(visible, func(p string) { c.add(p, depth) })
	decodings(visible, func(p string) bool {
		c.add(p, depth)
		return c.budget > 0
	})
	return visible
}

// add canonicalises part, found at depth, and appends it unless it adds
// nothing or the budget is spent.
func (c *canon) add(part string, depth int) {
	part = strings.TrimSpace(part)
	if part == "" || c.budget <= 0 || c.seen[part] {
		return
	}
	if len(part) > c.budget {
		part = part[:c.budget]
	}
	c.budget -= len(part)
	c.seen[part] = true
	v := c.text(part, depth+1)
	if v = strings.TrimSpace(v); v != "" {
		c.parts = append(c.parts, v)
	}
}

// dropInvisible removes the invisible characters StripHidden keeps (it
// removes format characters only): variation selectors, the Hangul
// fillers and the combining grapheme joiner.
func dropInvisible(s string) string {
	if !strings.ContainsFunc(s, invisible) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if invisible(r) {
			return -1
		}
		return r
	}, s)
}

func invisible(r rune) bool {
	switch {
	case r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF: // variation selectors
		return true
	case r == 0x034F, r == 0x115F, r == 0x1160, r == 0x3164, r == 0xFFA0, r == 0x180E:
		return true
	}
	return false
}

var (
	reComment    = regexp.MustCompile(`(?s)<!--(.*?)-->`)
	reHiddenElem = regexp.MustCompile(`(?is)<([a-z][a-z0-9]*)\b[^>]*?(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|opacity\s*:\s*0(?:\.0*)?\s*[;"']|\shidden\b|aria-hidden\s*=\s*["']?true)[^>]*>(.*?)</([a-z][a-z0-9]*)\s*>`)
	reAttr       = regexp.MustCompile(`(?i)\s(?:title|alt|data-[a-z0-9-]+|aria-label|content)\s*=\s*(?:"([^"]{3,})"|'([^']{3,})')`)
	reTag        = regexp.MustCompile(`<[^<>]{1,512}>`)
	reLinkTitle  = regexp.MustCompile(`\]\(\s*\S*\s+(?:"([^"]+)"|'([^']+)'|\(([^)]+)\))\s*\)`)
	reRefDef     = regexp.MustCompile(`(?m)^[ \t]{0,3}\[([^\]]+)\]:[ \t]*(.+)$`)
	reFront      = regexp.MustCompile(`(?s)\A\s*(?:---|\+\+\+)[ \t]*\r?\n(.*?)\r?\n(?:---|\+\+\+|\.\.\.)[ \t]*(?:\r?\n|\z)`)
	reBase32     = regexp.MustCompile(`[A-Z2-7]{24,}={0,6}`)
	reQuery      = regexp.MustCompile(`[?&][\w.-]{1,64}=([^\s&#]{8,})`)
	reHexEscape  = regexp.MustCompile(`\\x[0-9a-fA-F]{2}`)
	reUnicode    = regexp.MustCompile(`\\u[0-9a-fA-F]{4}|\\u\{[0-9a-fA-F]{1,6}\}`)
)

// hiddenParts calls fn with the text hidden in s's markup: HTML comments,
// hidden elements, titles and alternative texts, the text between tags,
// markdown link titles and reference definitions (footnotes among them),
// front matter and the string values of a JSON document.
func hiddenParts(s string, fn func(string)) {
	if strings.Contains(s, "<") {
		for _, m := range reComment.FindAllStringSubmatch(s, 64) {
			fn(m[1])
		}
		for _, m := range reHiddenElem.FindAllStringSubmatch(s, 64) {
			fn(m[2])
		}
		for _, m := range reAttr.FindAllStringSubmatch(s, 64) {
			fn(m[1] + m[2])
		}
		if reTag.MatchString(s) {
			// Tags can split a phrase (ign<b></b>ore): read the text without them.
			fn(reTag.ReplaceAllString(reComment.ReplaceAllString(s, " "), ""))
		}
	}
	if strings.Contains(s, "](") {
		for _, m := range reLinkTitle.FindAllStringSubmatch(s, 64) {
			fn(m[1] + m[2] + m[3])
		}
	}
	if strings.Contains(s, "]:") {
		for _, m := range reRefDef.FindAllStringSubmatch(s, 64) {
			fn(m[2])
		}
	}
	if m := reFront.FindStringSubmatch(s); m != nil {
		fn(m[1])
	}
	if strings.Contains(s, "|") {
		tableColumns(s, fn)
	}
	if t := strings.TrimSpace(s); len(t) > 1 && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
		fn(strings.Join(jsonStrings(t), "\n"))
	}
}

// tableColumns calls fn with each markdown table of s read column by
// column, each column's cells top to bottom on one line: a phrase split
// across the rows of a column ("| 1 | Ignore the |", "| 2 | policy engine
// |") reads whole the way a model reading down the column reads it.
func tableColumns(s string, fn func(string)) {
	var rows [][]string
	flush := func() {
		if len(rows) >= 2 {
			var b strings.Builder
			for col := 0; ; col++ {
				var cells []string
				for _, r := range rows {
					if col < len(r) && r[col] != "" {
						cells = append(cells, r[col])
					}
				}
				if len(cells) == 0 && col > 0 {
					break
				}
				b.WriteString(strings.Join(cells, " "))
				b.WriteByte('\n')
			}
			fn(b.String())
		}
		rows = rows[:0]
	}
	for line := range strings.Lines(s) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			flush()
			continue
		}
		if strings.Trim(line, "|-: \t") == "" {
			continue // the header separator
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	flush()
}

// jsonStrings returns the keys and string values of the JSON document t,
// valid, in the order they appear, each key and value once per occurrence
// (a duplicated key's every value too), down to MaxDepth*4 levels of
// nesting. The order is the document's, not a decoded map's, whose
// iteration order changes from run to run: the canonical text, and
// everything judged from it (embedding, oracle, votes), must be a function
// of the content alone.
func jsonStrings(t string) []string {
	dec := json.NewDecoder(strings.NewReader(t))
	var out []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		switch tok := tok.(type) {
		case json.Delim:
			if tok == '{' || tok == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth <= MaxDepth*4 {
				out = append(out, tok)
			}
		}
	}
}

// decodings calls fn with every text decoded from s until fn returns
// false: base64 and hex blobs, base32 blobs, runs of %-, \u- and
// \x-escapes, URL query values, HTML entities and rot13 segments.
func decodings(s string, fn func(string) bool) {
	ok := true
	screen.Blobs(s, func(m string) bool {
		if b, dec := screen.DecodeBlob(m); dec {
			ok = fn(string(b))
		}
		return ok
	})
	if !ok {
		return
	}
	for _, m := range reBase32.FindAllString(s, 64) {
		if b, dec := decodeBase32(m); dec && !fn(b) {
			return
		}
	}
	if screen.HasPercentEscape(s) && strings.Count(s, "%") >= 3 {
		if d := screen.PercentDecode(s); d != s && textual(d) && !fn(d) {
			return
		}
	}
	if strings.Contains(s, "=") {
		for _, m := range reQuery.FindAllStringSubmatch(s, 64) {
			if d := screen.PercentDecode(m[1]); d != m[1] && textual(d) && !fn(d) {
				return
			}
		}
	}
	if len(reUnicode.FindAllStringIndex(s, 3)) == 3 {
		if d := unicodeDecode(s); !fn(d) {
			return
		}
	}
	if len(reHexEscape.FindAllStringIndex(s, 3)) == 3 {
		if d := hexEscapeDecode(s); textual(d) && !fn(d) {
			return
		}
	}
	if strings.Contains(s, "&") {
		if d := html.UnescapeString(s); d != s && !fn(d) {
			return
		}
	}
	for _, seg := range segments(s) {
		if d, dec := rot13(seg); dec && !fn(d) {
			return
		}
	}
}

func decodeBase32(m string) (string, bool) {
	for _, enc := range []*base32.Encoding{base32.StdEncoding, base32.StdEncoding.WithPadding(base32.NoPadding)} {
		in := m
		if enc != base32.StdEncoding {
			in = strings.TrimRight(m, "=")
		}
		if b, err := enc.DecodeString(in); err == nil && textual(string(b)) {
			return string(b), true
		}
	}
	return "", false
}

func unicodeDecode(s string) string {
	return reUnicode.ReplaceAllStringFunc(s, func(m string) string {
		h := strings.Trim(m[2:], "{}")
		v, err := strconv.ParseUint(h, 16, 32)
		if err != nil || !utf8.ValidRune(rune(v)) {
			return m
		}
		return string(rune(v))
	})
}

func hexEscapeDecode(s string) string {
	return reHexEscape.ReplaceAllStringFunc(s, func(m string) string {
		v, _ := strconv.ParseUint(m[2:], 16, 8)
		return string([]byte{byte(v)})
	})
}

// textual reports whether s reads as text: valid UTF-8 of at least eight
// bytes, almost all graphic characters or spaces, and at least 40 % letters.
func textual(s string) bool {
	if len(s) < 8 || !utf8.ValidString(s) {
		return false
	}
	var n, graphic, letters int
	for _, r := range s {
		n++
		if unicode.IsGraphic(r) || unicode.IsSpace(r) {
			graphic++
		}
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return graphic*100 >= n*95 && letters*100 >= n*40
}

// segments splits s into lines and sentences, where a rot13 stretch would
// begin and end.
func segments(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return r == '\n' || r == '.' || r == '!' || r == '?' || r == ';' || r == ':' || r == '"' || r == '(' || r == ')'
	})
}
