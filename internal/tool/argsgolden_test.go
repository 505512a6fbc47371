package tool

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/args.golden with what ParseArgs returns now")

// TestArgsGolden decodes a generated corpus of arguments (random key order
// and whitespace, duplicate keys, deep nesting, \u escapes in keys and
// values, surrogate pairs, big and oddly spelled numbers, invalid UTF-8,
// many members, truncations) and wants, for each, the hash, the hash of Canonical (a separate code path),
// member keys and accept/refuse outcome recorded in testdata/args.golden.
// The file was written by the parser before the allocation changes of
// issue 23's fifth round: the audit log and permits depend on these bytes,
// so any change to them is a failure here, not a refactoring.
func TestArgsGolden(t *testing.T) {
	inputs := goldenInputs()
	var got bytes.Buffer
	for i, in := range inputs {
		a, err := ParseArgs(in)
		switch {
		case err != nil:
			fmt.Fprintf(&got, "%d refused\n", i)
		default:
			keys := make([]string, a.Len())
			for j := range a.Len() {
				f := a.Field(j)
				keys[j] = fmt.Sprintf("%q:%s", f.Key, f.Value.Kind())
			}
			fmt.Fprintf(&got, "%d %x %x %s\n", i, a.Hash(), sha256.Sum256(a.Canonical()), strings.Join(keys, ","))
		}
	}
	path := filepath.Join("testdata", "args.golden")
	if *updateGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gs, ws := bufio.NewScanner(&got), bufio.NewScanner(bytes.NewReader(want))
	gs.Buffer(nil, 1<<22)
	ws.Buffer(nil, 1<<22)
	refused := 0
	for n := 0; ; n++ {
		g, w := gs.Scan(), ws.Scan()
		if !g || !w {
			if g != w {
				t.Fatalf("got %d lines or more, golden file differs in length", n)
			}
			break
		}
		if gs.Text() != ws.Text() {
			t.Errorf("input %d %q:\n got %.200s\nwant %.200s", n, inputs[n], gs.Text(), ws.Text())
		}
		if strings.HasSuffix(ws.Text(), " refused") {
			refused++
		}
	}
	if refused == 0 || refused == len(inputs) {
		t.Fatalf("%d of %d inputs refused: the corpus must exercise both outcomes", refused, len(inputs))
	}
}

// goldenInputs returns the corpus: fixed adversarial cases, then random
// objects from a fixed seed.
func goldenInputs() [][]byte {
	out := [][]byte{
		[]byte(``), []byte(`null`), []byte(`{}`), []byte(` { } `), []byte(`[]`), []byte(`"x"`),
		[]byte(`{"a":1,"a":2}`), []byte(`{"a":1,"\u0061":2}`), []byte(`{"b":1,"a":2,"b":3}`),
		[]byte(`{"\ud83d\ude00":1,"\uffff":2,"z":3}`), []byte(`{"\ud83d":1}`), []byte(`{"a":"\ude00"}`),
		[]byte("{\"a\":\"\xff\"}"), []byte("{\"\xc3\":1}"), []byte("{\"a\":\"\xed\xa0\x80\"}"),
		[]byte(`{"n":123456789012345678901234567890,"m":-0,"f":1.0,"e":1e400}`),
		[]byte(`{"n":123456789012345678901234567890,"m":-0,"f":1.0,"e":1E+2,"g":0.000001,"h":1e-7,"i":1e21,"j":-1.5e300}`),
		[]byte(`{"a":01}`), []byte(`{"a":1.}`), []byte(`{"a":.5}`), []byte(`{"a":-}`),
		[]byte(`{"a":"\u0000\u001f\b\f\n\r\t\"\\\/"}`), []byte("{\"a\":\"\x01\"}"),
		[]byte(`{"a":1} x`), []byte(`{"a":1`), []byte(`{"a"}`), []byte(`{a:1}`),
		[]byte(`{"h":1,"g":2,"f":3,"e":4,"d":5,"c":6,"b":7,"a":8}`),
		[]byte(`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9}`),
		[]byte(`{"\u00e9":1,"e":2,"\u0065\u0301":3,"E":4}`),
	}
	nest := func(depth int) []byte {
		return []byte(`{"a":` + strings.Repeat(`[`, depth) + `1` + strings.Repeat(`]`, depth) + `}`)
	}
	out = append(out, nest(30), nest(31), nest(32), nest(40))
	big := strings.Repeat(`line \u00e9 \"quoted\"\n`, 400) // over 4 KiB: hashed as a stream when unsorted
	out = append(out, []byte(`{"z":"`+big+`","a":1}`), []byte(`{"a":1,"z":"`+big+`"}`),
		[]byte(`{"z":["`+big+`"],"\u0061":{"y":"`+big+`","b":2}}`))
	r := rand.New(rand.NewPCG(23, 5))
	for range 3000 {
		out = append(out, randomObject(r))
	}
	for range 300 {
		b := randomObject(r)
		if len(b) > 1 {
			out = append(out, b[:r.IntN(len(b))])
		}
	}
	return out
}

var goldenKeys = []string{"path", "command", "to_address", "amount_cents", "memo", "content", "a", "b", "B", "é",
	"\U0001F600", "\uFFFD", "ab", "a\"b", "", "url", "cwd", "x1", "x10", "x2"}

var goldenStrings = []string{"", "x", "/etc/passwd", "../../.ssh/id_rsa", "rm -rf /", "café", "\U0001F600",
	"a\nb", "tab\there", `quote"d`, `back\slash`, "\x00", "\x7f", "\u2028", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	strings.Repeat("long ", 60)}

var goldenNumbers = []string{"0", "-0", "1", "-1", "2500", "1.0", "1.50", "1e2", "1E2", "1e+2", "1e-2", "-0.0",
	"9007199254740993", "123456789012345678901234567890", "1.7976931348623157e308", "5e-324", "0.1", "1e21", "1e20",
	"100e-2", "2.5e3"}

func randomObject(r *rand.Rand) []byte {
	var b bytes.Buffer
	writeObject(r, &b, 0, 1+r.IntN(10))
	if r.IntN(20) == 0 {
		b.WriteString(" \n")
	}
	return b.Bytes()
}

func space(r *rand.Rand, b *bytes.Buffer) {
	if r.IntN(4) == 0 {
		b.WriteString([]string{" ", "\n", "\t", "\r\n  "}[r.IntN(4)])
	}
}

func writeObject(r *rand.Rand, b *bytes.Buffer, depth, n int) {
	b.WriteByte('{')
	perm := r.Perm(len(goldenKeys))
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		space(r, b)
		k := goldenKeys[perm[i%len(perm)]]
		if r.IntN(50) == 0 && i > 0 {
			k = goldenKeys[perm[0]] // a duplicate key
		}
		writeString(r, b, k)
		space(r, b)
		b.WriteByte(':')
		space(r, b)
		writeValue(r, b, depth+1)
		space(r, b)
	}
	b.WriteByte('}')
}

func writeValue(r *rand.Rand, b *bytes.Buffer, depth int) {
	limit := 6
	if depth > 3 {
		limit = 4
	}
	switch r.IntN(limit) {
	case 0, 1:
		writeString(r, b, goldenStrings[r.IntN(len(goldenStrings))])
	case 2:
		b.WriteString(goldenNumbers[r.IntN(len(goldenNumbers))])
	case 3:
		b.WriteString([]string{"true", "false", "null"}[r.IntN(3)])
	case 4:
		b.WriteByte('[')
		for i := range r.IntN(4) {
			if i > 0 {
				b.WriteByte(',')
			}
			space(r, b)
			writeValue(r, b, depth+1)
		}
		b.WriteByte(']')
	case 5:
		writeObject(r, b, depth, r.IntN(5))
	}
}

// writeString writes s as a JSON string, spelling characters at random
// as themselves or as \u escapes (surrogate pairs above U+FFFF), and now
// and then corrupting it with a raw invalid byte.
func writeString(r *rand.Rand, b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case r.IntN(6) == 0 || c < 0x20 || c == '"' || c == '\\':
			if c > 0xFFFF {
				c -= 0x10000
				fmt.Fprintf(b, `\u%04x\u%04X`, 0xD800+(c>>10), 0xDC00+(c&0x3FF))
			} else if c == '"' || c == '\\' || c == '/' {
				if r.IntN(2) == 0 {
					b.WriteByte('\\')
					b.WriteRune(c)
				} else {
					fmt.Fprintf(b, `\u%04x`, c)
				}
			} else {
				fmt.Fprintf(b, `\u%04x`, c)
			}
		default:
			b.WriteRune(c)
		}
	}
	if r.IntN(200) == 0 {
		b.WriteByte(0xff)
	}
	b.WriteByte('"')
}

// TestArgsStrMatchesJSON reads every top-level string of the golden corpus
// and of a few hand-made inputs with Str and wants what encoding/json
// decodes from the same text: a value marked as without escapes is
// returned as it is spelled, so the mark must be exact (values with
// escapes among values without, escapes at either end, an escaped quote
// before a plain one).
func TestArgsStrMatchesJSON(t *testing.T) {
	inputs := append(goldenInputs(),
		[]byte(`{"a":"x\"","b":"plain","c":"\\","d":"","e":"\u0041"}`),
		[]byte(`{"e":"\n","d":"no","c":"\t","b":"a\/b","a":"é\u00e9"}`),
		[]byte(`{"k":["\n"],"l":"plain","m":{"n":"\""},"o":"x"}`))
	strs := 0
	for i, in := range inputs {
		a, err := ParseArgs(in)
		if err != nil {
			continue
		}
		for j := range a.Len() {
			f := a.Field(j)
			got, ok := f.Value.Str()
			if !ok {
				continue
			}
			strs++
			var want string
			if err := json.Unmarshal([]byte(f.Value.Raw()), &want); err != nil {
				t.Fatalf("input %d: member %q: encoding/json refuses %q: %v", i, f.Key, f.Value.Raw(), err)
			}
			if got != want {
				t.Errorf("input %d: member %q: Str() = %q, want %q", i, f.Key, got, want)
			}
		}
	}
	if strs < 1000 {
		t.Fatalf("only %d strings read: the corpus must exercise many", strs)
	}
}
