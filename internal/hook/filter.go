package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wardhq/ward/internal/tool"
)

// DefaultMaxResultBytes is the result size cap when FilterConfig.MaxBytes
// is zero; MinResultBytes is the smallest cap a config may set.
const (
	DefaultMaxResultBytes = 64 << 10
	MinResultBytes        = 1 << 10
)

// maxResultDepth is the deepest nesting a filtered result keeps; deeper
// values are replaced by the truncation marker.
const maxResultDepth = 64

// Truncated is the marker a filtered result carries where something was
// cut: an array element, an object member "[truncated]": true, a value,
// or the suffix of a cut string.
const Truncated = "[truncated]"

// Redacted replaces each secret a result contained.
const Redacted = "[redacted]"

// FilterConfig configures a ResultFilter.
type FilterConfig struct {
	// MaxBytes caps the JSON of a result's data (DefaultMaxResultBytes
	// when zero, at least MinResultBytes otherwise).
	MaxBytes int
}

// FilterReport says what Filter changed.
type FilterReport struct {
	Redacted      int      // secrets replaced
	Kinds         []string // their kinds, sorted, each once
	Truncated     bool     // the data was cut to MaxBytes or maxResultDepth
	NotJSON       bool     // the data was not one JSON value and became a JSON string
	OriginalBytes int
	Bytes         int
}

// String summarises the report for an event or a log line ("" when
// Filter changed nothing).
func (r FilterReport) String() string {
	var parts []string
	if r.Redacted > 0 {
		parts = append(parts, fmt.Sprintf("redacted %d secret(s): %s", r.Redacted, strings.Join(r.Kinds, ", ")))
	}
	if r.NotJSON {
		parts = append(parts, "non-JSON data quoted as a string")
	}
	if r.Truncated {
		parts = append(parts, fmt.Sprintf("truncated from %d to %d bytes", r.OriginalBytes, r.Bytes))
	}
	return strings.Join(parts, "; ")
}

// ResultFilter is the last stage for results: before a tool's result
// reaches the agent (or the event stream) it strips secrets and caps the
// size. It sits in the hook chain for order and reporting; its Check
// always passes. It is immutable and safe for concurrent use.
//
// Secrets are found by shape in every string of the result (object keys
// included) and in the outcome strings: private keys (exactly 64 hex
// digits, with or without 0x), mnemonic phrases (a maximal run
// of exactly 12, 15, 18, 21 or 24 lower-case words of 3 to 8 letters
// separated by single spaces), bearer tokens, API keys (sk-…, GitHub,
// Slack, Google, Stripe live keys), JSON Web Tokens, and AWS access key
// ids (AKIA…, ASIA…); and the whole string value of a member whose key
// names a secret (private_key, mnemonic, password, api_key, ...). Each is
// replaced with "[redacted]". Detection is heuristic: it catches leaks,
// not a tool determined to smuggle a secret out in another encoding.
//
// Transaction and block hashes have a private key's shape and are public:
// they are kept where they are known to be hashes, that is the result's
// own TxHashes (what ward sent and read the receipt of) anywhere in the
// result, and any value under a key naming a hash, digest, root, topic or
// transaction id (tx_hash, tx_hashes, blockHash, stateRoot, topics, ...).
type ResultFilter struct {
	max int
}

var _ Hook = (*ResultFilter)(nil)

// NewResultFilter validates cfg and returns a ResultFilter.
func NewResultFilter(cfg FilterConfig) (*ResultFilter, error) {
	switch {
	case cfg.MaxBytes == 0:
		cfg.MaxBytes = DefaultMaxResultBytes
	case cfg.MaxBytes < MinResultBytes:
		return nil, errors.New("result filter: MaxBytes below " + strconv.Itoa(MinResultBytes))
	}
	return &ResultFilter{max: cfg.MaxBytes}, nil
}

// Name returns "result_filter".
func (*ResultFilter) Name() string { return "result_filter" }

// Check implements Hook; it always passes.
func (*ResultFilter) Check(context.Context, *Call) Verdict { return Verdict{} }

// Filter returns a copy of r with secrets redacted and its data capped at
// MaxBytes. The data stays valid JSON: cut containers are closed and
// marked (see Truncated), and data that was not JSON becomes a JSON
// string. r is not modified. A nil r yields nil.
func (f *ResultFilter) Filter(r *tool.Result) (*tool.Result, FilterReport) {
	var rep FilterReport
	if r == nil {
		return nil, rep
	}
	out := *r
	red := &redactor{}
	for _, h := range r.TxHashes {
		if red.public == nil {
			red.public = make(map[string]bool, len(r.TxHashes))
		}
		red.public[strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(h, "0x"), "0X"))] = true
	}
	out.ExpectedOutcome = red.text(r.ExpectedOutcome, "")
	out.ActualOutcome = red.text(r.ActualOutcome, "")
	out.GroundTruthSource = red.text(r.GroundTruthSource, "")
	rep.OriginalBytes = len(r.Data)
	if len(r.Data) > 0 {
		data, truncated, ok := f.rewrite(r.Data, red)
		if !ok {
			rep.NotJSON = true
			data, truncated = f.asString(r.Data, red)
		}
		out.Data = data
		rep.Truncated = truncated
	}
	rep.Bytes = len(out.Data)
	rep.Redacted = red.n
	rep.Kinds = slices.Sorted(slices.Values(red.kindList()))
	return &out, rep
}

// frame is one open container of the JSON being rewritten.
type frame struct {
	object  bool
	n       int    // members or elements written
	keyDone bool   // object: a key was written and its value is due
	key     string // the member key this container or value sits under
	start   int    // bytes written before the container (and its comma)
}

// rewrite streams data through the decoder, redacting strings and cutting
// at the cap. ok is false if data is not exactly one JSON value. Each
// step takes the next token and the containers open in the output and
// returns them after it; a token that does not fit finishes the output.
func (f *ResultFilter) rewrite(data []byte, red *redactor) (out []byte, truncated, ok bool) {
	if !json.Valid(data) {
		return nil, false, false
	}
	tz := tokenizer{s: data}
	w := &jsonWriter{max: f.max}
	var stack []frame
	skipDepth := 0 // > 0: inside a container nested past maxResultDepth, which is skipped
	for !w.full {
		tok, more := tz.next()
		if !more {
			break
		}
		if skipDepth > 0 {
			skipDepth, stack = w.skip(stack, skipDepth, tok)
			continue
		}
		switch t := tok.(type) {
		case json.Delim:
			switch {
			case t == '}' || t == ']':
				stack = w.close(stack, t)
			case len(stack) >= maxResultDepth:
				skipDepth, w.truncated = 1, true
			default:
				if fr, ok := w.open(stack, t); ok {
					stack = append(stack, fr)
				}
			}
		case string:
			stack = w.text(stack, red, t)
		case literal:
			stack = w.literal(stack, t)
		}
	}
	if !w.full && (len(stack) > 0 || w.b.Len() == 0) {
		return nil, false, false
	}
	return w.b.Bytes(), w.truncated, true
}

// skip follows the brackets of a container nested too deep to keep and,
// at its end, writes the Truncated marker in its place.
func (w *jsonWriter) skip(stack []frame, depth int, tok any) (int, []frame) {
	if d, isDelim := tok.(json.Delim); isDelim {
		if d == '{' || d == '[' {
			depth++
		} else {
			depth--
		}
	}
	if depth > 0 {
		return depth, stack
	}
	// The skipped container was a value: mark its place.
	marker := strconv.Quote(Truncated)
	if !w.fits(stack, len(marker)) {
		w.finish(stack)
		return 0, stack
	}
	w.value(stack, marker)
	return 0, afterValue(stack)
}

// open writes the bracket t that starts an object or array, if it fits,
// and returns the frame it opens.
func (w *jsonWriter) open(stack []frame, t json.Delim) (frame, bool) {
	key := ""
	if len(stack) > 0 {
		key = stack[len(stack)-1].key
	}
	if !w.fits(stack, 1) {
		w.finish(stack)
		return frame{}, false
	}
	start := w.b.Len()
	w.value(stack, string(t))
	return frame{object: t == '{', key: key, start: start}, true
}

// close ends the innermost object or array.
func (w *jsonWriter) close(stack []frame, t json.Delim) []frame {
	stack = stack[:len(stack)-1]
	w.raw(string(t))
	return afterValue(stack)
}

// text writes a string, redacted: a member key, or a value redacted by
// the key it sits under and cut to the room left if it does not fit.
func (w *jsonWriter) text(stack []frame, red *redactor, t string) []frame {
	top := len(stack) - 1
	if top >= 0 && stack[top].object && !stack[top].keyDone {
		k := red.text(t, "")
		enc := quote(k) + ":"
		if !w.fits(stack, len(enc)+len(`""`)) {
			w.finish(stack)
			return stack
		}
		if stack[top].n > 0 {
			w.raw(",")
		}
		w.raw(enc)
		stack[top].keyDone, stack[top].key = true, t
		return stack
	}
	key := ""
	if top >= 0 {
		key = stack[top].key
	}
	enc := quote(red.text(t, key))
	if !w.fits(stack, len(enc)) {
		if room := w.room(stack) - len(`"`+Truncated+`"`) - 2; room > 16 {
			w.value(stack, cutString(red.text(t, key), room))
			stack = afterValue(stack)
		}
		w.finish(stack)
		return stack
	}
	w.value(stack, enc)
	return afterValue(stack)
}

// literal writes a number, true, false or null as it was written.
func (w *jsonWriter) literal(stack []frame, t literal) []frame {
	enc := string(t)
	if !w.fits(stack, len(enc)) {
		w.finish(stack)
		return stack
	}
	w.value(stack, enc)
	return afterValue(stack)
}

// literal is a JSON number, true, false or null as written.
type literal string

// tokenizer splits valid JSON text (json.Valid holds) into tokens:
// json.Delim for brackets, decoded strings, and literals. Commas and
// colons are implied by the structure and skipped.
type tokenizer struct {
	s []byte
	i int
}

func (t *tokenizer) next() (any, bool) {
	for t.i < len(t.s) {
		switch c := t.s[t.i]; c {
		case ' ', '\t', '\n', '\r', ',', ':':
			t.i++
		case '{', '}', '[', ']':
			t.i++
			return json.Delim(c), true
		case '"':
			start := t.i
			t.i++
			escaped := false
			for t.s[t.i] != '"' {
				if t.s[t.i] == '\\' {
					escaped = true
					t.i++
				}
				t.i++
			}
			t.i++
			raw := t.s[start:t.i]
			if !escaped {
				return string(raw[1 : len(raw)-1]), true
			}
			var str string
			if err := json.Unmarshal(raw, &str); err != nil {
				return string(raw[1 : len(raw)-1]), true // unreachable for valid JSON
			}
			return str, true
		default:
			start := t.i
			for t.i < len(t.s) && !strings.ContainsRune(" \t\n\r,:]}", rune(t.s[t.i])) {
				t.i++
			}
			return literal(t.s[start:t.i]), true
		}
	}
	return nil, false
}

// afterValue records that the innermost container received a value.
func afterValue(stack []frame) []frame {
	if n := len(stack); n > 0 {
		stack[n-1].n++
		stack[n-1].keyDone = false
		if stack[n-1].object {
			stack[n-1].key = ""
		}
	}
	return stack
}

// jsonWriter builds the rewritten JSON within max bytes, keeping room to
// close every open container with a truncation marker.
type jsonWriter struct {
	b         bytes.Buffer
	max       int
	full      bool
	truncated bool
}

// closing is the most bytes closing the stack can take: the innermost
// container's marker plus one closing byte per container.
func closing(stack []frame) int {
	if len(stack) == 0 {
		return 0
	}
	return len(`,"`+Truncated+`":true`) + len(stack)
}

func (w *jsonWriter) room(stack []frame) int { return w.max - w.b.Len() - closing(stack) }

// fits reports whether n more bytes (plus a separating comma) fit.
func (w *jsonWriter) fits(stack []frame, n int) bool { return n+1 <= w.room(stack) }

func (w *jsonWriter) raw(s string) { w.b.WriteString(s) }

// value writes a value (or an opening delimiter) into the innermost
// container, with a separating comma in arrays.
func (w *jsonWriter) value(stack []frame, enc string) {
	if n := len(stack); n > 0 && !stack[n-1].object && stack[n-1].n > 0 {
		w.b.WriteByte(',')
	}
	w.b.WriteString(enc)
}

// finish marks the cut in the innermost container and closes them all.
// An object cut short inside an array that already holds complete
// elements is dropped, so the array ends with its last whole element and
// the marker.
func (w *jsonWriter) finish(stack []frame) {
	w.full, w.truncated = true, true
	if n := len(stack); n >= 2 && stack[n-1].object && !stack[n-2].object && stack[n-2].n > 0 {
		w.b.Truncate(stack[n-1].start)
		stack = stack[:n-1]
	}
	for i := len(stack) - 1; i >= 0; i-- {
		fr := stack[i]
		if i == len(stack)-1 {
			switch {
			case fr.object && fr.keyDone:
				w.b.WriteString(strconv.Quote(Truncated))
			case fr.object:
				if fr.n > 0 {
					w.b.WriteByte(',')
				}
				w.b.WriteString(strconv.Quote(Truncated) + ":true")
			default:
				if fr.n > 0 {
					w.b.WriteByte(',')
				}
				w.b.WriteString(strconv.Quote(Truncated))
			}
		}
		if fr.object {
			w.b.WriteByte('}')
		} else {
			w.b.WriteByte(']')
		}
	}
	if len(stack) == 0 && w.b.Len() == 0 {
		w.b.WriteString(strconv.Quote(Truncated))
	}
}

// asString encodes data that is not JSON as one JSON string, redacted and
// cut to the cap.
func (f *ResultFilter) asString(data []byte, red *redactor) ([]byte, bool) {
	s := strings.ToValidUTF8(string(data), "\uFFFD")
	s = red.text(s, "")
	enc := quote(s)
	if len(enc) <= f.max {
		return []byte(enc), false
	}
	return []byte(cutString(s, f.max)), true
}

// cutString returns the JSON encoding of a prefix of s followed by the
// truncation marker, at most max bytes long.
func cutString(s string, max int) string {
	budget := max - len(`"…`+Truncated+`"`)
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		enc := quote(string(r))
		enc = enc[1 : len(enc)-1]
		if b.Len()-1+len(enc) > budget {
			break
		}
		b.WriteString(enc)
	}
	b.WriteString("…" + Truncated + `"`)
	return b.String()
}

// quote encodes s as a JSON string: quotes, backslashes and control
// characters escaped, invalid UTF-8 replaced by U+FFFD, nothing else
// touched.
func quote(s string) string {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	const hexDigits = "0123456789abcdef"
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, "\ufffd"...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(append(b, '"'))
}

// redactor replaces secrets in strings and counts them by kind.
type redactor struct {
	n      int
	kinds  map[string]bool
	public map[string]bool // lower-case hex without 0x of hashes known to be public
}

func (r *redactor) hit(kind string) {
	r.n++
	if r.kinds == nil {
		r.kinds = map[string]bool{}
	}
	r.kinds[kind] = true
}

func (r *redactor) kindList() []string {
	var out []string
	for k := range r.kinds {
		out = append(out, k)
	}
	return out
}

var (
	reBearer = regexp.MustCompile(`(?i)\b(bearer)\s+[A-Za-z0-9\-._~+/]{8,}=*`)
	reAPIKey = regexp.MustCompile(`\bsk-[A-Za-z0-9_\-]{20,}|\bgh[pousr]_[A-Za-z0-9]{36,}|\bxox[abprs]-[A-Za-z0-9\-]{10,}|\bAIza[0-9A-Za-z_\-]{35}|\b[rs]k_live_[0-9A-Za-z]{16,}`)
	reJWT    = regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`)
	reAWSKey = regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)
)

// secretKeys are member keys (lower case, without '_' and '-') whose
// string values are secrets whatever they look like.
var secretKeys = map[string]bool{
	"privatekey": true, "privkey": true, "secretkey": true, "secret": true, "clientsecret": true,
	"mnemonic": true, "seedphrase": true, "recoveryphrase": true, "password": true, "passphrase": true,
	"apikey": true, "apisecret": true, "accesstoken": true, "refreshtoken": true, "authorization": true,
}

func normKey(k string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		return r
	}, strings.ToLower(k))
}

// hashKeySuffixes end the (normalised) keys whose values are naturally
// 32 bytes of hex that is not a secret.
var hashKeySuffixes = []string{"hash", "hashes", "digest", "digests", "checksum", "sha256", "root", "roots", "topic", "topics", "txid", "txids"}

// hashKey reports whether a value under key k is naturally 32 bytes of
// hex that is not a secret (transaction and block hashes, digests, roots,
// topics).
func hashKey(k string) bool {
	n := normKey(k)
	for _, suf := range hashKeySuffixes {
		if strings.HasSuffix(n, suf) {
			return true
		}
	}
	return false
}

// text returns s with its secrets replaced. key is the object key the
// string is the value of (or inside of, for arrays), if any.
func (r *redactor) text(s, key string) string {
	if s == "" {
		return s
	}
	if key != "" && secretKeys[normKey(key)] {
		r.hit("secret_field")
		return Redacted
	}
	replace := func(re *regexp.Regexp, kind, repl string) {
		s = re.ReplaceAllStringFunc(s, func(m string) string {
			r.hit(kind)
			if kind == "bearer_token" {
				return m[:len("bearer")] + " " + Redacted
			}
			return repl
		})
	}
	if len(s) >= 64 && !hashKey(key) {
		s = r.privateKeys(s)
	}
	if strings.Contains(s, "earer") || strings.Contains(s, "EARER") {
		replace(reBearer, "bearer_token", Redacted)
	}
	if strings.Contains(s, "eyJ") {
		replace(reJWT, "jwt", Redacted)
	}
	if strings.Contains(s, "sk-") || strings.Contains(s, "gh") || strings.Contains(s, "xox") ||
		strings.Contains(s, "AIza") || strings.Contains(s, "k_live_") {
		replace(reAPIKey, "api_key", Redacted)
	}
	if strings.Contains(s, "AKIA") || strings.Contains(s, "ASIA") {
		replace(reAWSKey, "aws_key", Redacted)
	}
	if strings.Count(s, " ") >= 11 {
		s = r.mnemonics(s)
	}
	return s
}

// privateKeys replaces every run of exactly 64 hex digits, with or
// without a 0x prefix, bounded by non-word characters, unless it is one
// of the result's known public hashes.
func (r *redactor) privateKeys(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i+64 <= len(s); {
		if !isHexDigit(s[i]) || (i > 0 && isWordByte(s[i-1])) {
			i++
			continue
		}
		start, digits := i, i
		if s[i] == '0' && i+1 < len(s) && (s[i+1] == 'x' || s[i+1] == 'X') {
			digits = i + 2
		}
		end := digits
		for end < len(s) && end-digits < 65 && isHexDigit(s[end]) {
			end++
		}
		if end-digits == 64 && (end == len(s) || !isWordByte(s[end])) && !r.public[strings.ToLower(s[digits:end])] {
			b.WriteString(s[last:start])
			b.WriteString(Redacted)
			last = end
			r.hit("private_key")
		}
		// Skip the rest of this word: a key starts at a word boundary.
		for end < len(s) && isWordByte(s[end]) {
			end++
		}
		i = max(end, i+1)
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// isWordByte reports whether c is part of a word: a letter, a digit, '_'
// or a byte of a non-ASCII character.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

// mnemonics replaces every word sequence (words separated by single
// spaces, bounded by anything else) that consists of exactly 12, 15, 18,
// 21 or 24 lower-case words of 3 to 8 letters: the shape of a BIP-39
// phrase. Prose rarely qualifies: its sequences run on, or hold short or
// capitalised words.
func (r *redactor) mnemonics(s string) string {
	isMnemonicWord := func(w string) bool {
		if len(w) < 3 || len(w) > 8 {
			return false
		}
		for i := 0; i < len(w); i++ {
			if w[i] < 'a' || w[i] > 'z' {
				return false
			}
		}
		return true
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !isWordByte(s[i]) {
			i++
			continue
		}
		start, words, shaped := i, 0, true
		for {
			k := i
			for k < len(s) && isWordByte(s[k]) {
				k++
			}
			words++
			shaped = shaped && isMnemonicWord(s[i:k])
			i = k
			if k+1 < len(s) && s[k] == ' ' && isWordByte(s[k+1]) {
				i = k + 1
				continue
			}
			break
		}
		switch words {
		case 12, 15, 18, 21, 24:
			if shaped {
				b.WriteString(s[last:start])
				b.WriteString(Redacted)
				last = i
				r.hit("mnemonic")
			}
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
