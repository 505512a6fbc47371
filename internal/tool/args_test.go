package tool

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

func mustParse(t testing.TB, s string) *Args {
	t.Helper()
	a, err := ParseArgs([]byte(s))
	if err != nil {
		t.Fatalf("ParseArgs(%q): %v", s, err)
	}
	return a
}

func TestHashIgnoresSpelling(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
	}{
		{"key order", `{"a":1,"b":2}`, `{"b":2,"a":1}`},
		{"nested key order", `{"x":{"a":[1,{"q":1,"p":2}],"b":null}}`, `{"x":{"b":null,"a":[1,{"p":2,"q":1}]}}`},
		{"whitespace", `{ "a" : [ 1 , 2 ] }`, "{\"a\":[1,2]}"},
		{"string escapes", `{"s":"\u0041\/\u00e9"}`, `{"s":"A/é"}`},
		{"exponent", `{"n":100}`, `{"n":1e2}`},
		{"fraction zero", `{"n":2500}`, `{"n":2500.0}`},
		{"negative zero", `{"n":0}`, `{"n":-0}`},
		{"float spelling", `{"n":0.5}`, `{"n":5e-1}`},
		{"empty is null", ``, `null`},
		{"empty is object", `{}`, ` { } `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ha, hb := mustParse(t, tc.a).Hash(), mustParse(t, tc.b).Hash()
			if ha != hb {
				t.Errorf("hash(%s) = %x, hash(%s) = %x; want equal", tc.a, ha, tc.b, hb)
			}
		})
	}
}

func TestHashDistinguishesValues(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
	}{
		{"amount", `{"amount_cents":1000}`, `{"amount_cents":1001}`},
		{"big integers beyond float64", `{"n":9007199254740993}`, `{"n":9007199254740992}`},
		{"string vs number", `{"n":"1"}`, `{"n":1}`},
		{"key", `{"to":"a"}`, `{"To":"a"}`},
		{"nesting", `{"a":[1,2]}`, `{"a":[[1,2]]}`},
		{"null vs absent", `{"a":null}`, `{}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if mustParse(t, tc.a).Hash() == mustParse(t, tc.b).Hash() {
				t.Errorf("%s and %s hash the same", tc.a, tc.b)
			}
		})
	}
}

func TestCanonicalForm(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// RFC 8785 3.2.3: keys sorted by UTF-16 code units.
		{`{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}`,
			"{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\",\"\U0001F600\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}"},
		{`{"n":[1E21,1e-7,0.000001,123.456,-1.5e300]}`, `{"n":[1e+21,1e-7,0.000001,123.456,-1.5e+300]}`},
		{`{"s":"a\"b\\c\u0001\n"}`, `{"s":"a\"b\\c\u0001\n"}`},
	} {
		got := string(mustParse(t, tc.in).Canonical())
		if got != tc.want {
			t.Errorf("Canonical(%s)\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

func TestParseArgsRejects(t *testing.T) {
	deep := strings.Repeat(`{"a":`, MaxArgsDepth+1) + "1" + strings.Repeat("}", MaxArgsDepth+1)
	for _, tc := range []struct {
		name, in, want string
	}{
		{"duplicate key", `{"amount_cents":1,"amount_cents":99999}`, "duplicate key"},
		{"duplicate nested key", `{"a":{"x":1,"x":2}}`, "duplicate key"},
		{"invalid utf-8", "{\"a\":\"\xff\"}", "UTF-8"},
		{"invalid utf-8 with escape", "{\"a\":\"\\n\xff\"}", "UTF-8"},
		{"lone high surrogate", `{"a":"\ud83d"}`, "surrogate"},
		{"lone low surrogate", `{"a":"\ude00"}`, "surrogate"},
		{"trailing data", `{"a":1} {"b":2}`, "after"},
		{"array", `[1,2]`, "must be a JSON object"},
		{"string", `"x"`, "must be a JSON object"},
		{"too deep", deep, "nesting deeper"},
		{"leading zero", `{"a":01}`, "expected ','"},
		{"bare fraction", `{"a":.5}`, "unexpected character"},
		{"overflowing float", `{"a":1e400}`, "out of range"},
		{"control character", "{\"a\":\"x\ty\"}", "control character"},
		{"unterminated", `{"a":"x`, "unterminated"},
		{"missing colon", `{"a" 1}`, "expected ':'"},
		{"trailing comma", `{"a":1,}`, "expected a string key"},
		{"bad escape", `{"a":"\x"}`, "invalid escape"},
		{"NaN", `{"a":NaN}`, "unexpected character"},
		{"too large", `{"a":"` + strings.Repeat("x", MaxArgsSize) + `"}`, "exceeds the limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseArgs([]byte(tc.in))
			if err == nil {
				t.Fatalf("ParseArgs accepted %.80q", tc.in)
			}
			if !errors.Is(err, ErrArgs) {
				t.Errorf("error %v does not wrap ErrArgs", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}

func TestValueInt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		err  error
	}{
		{`2500`, 2500, nil},
		{`-3`, -3, nil},
		{`2500.0`, 2500, nil},
		{`2.5e3`, 2500, nil},
		{`25.5`, 0, ErrNotInteger},
		{`9223372036854775807`, 9223372036854775807, nil},
		{`9223372036854775808`, 0, ErrIntOverflow},
		{`1e300`, 0, ErrIntOverflow},
		{`"2500"`, 0, ErrNotNumber},
		{`null`, 0, ErrNotNumber},
	} {
		v, _ := mustParse(t, `{"v":`+tc.in+`}`).Get("v")
		got, err := v.Int()
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("Int(%s) = %d, %v; want %d, %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestLookupAndMap(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 40 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":` + strconv.Itoa(i%10))
	}
	b.WriteString(`,"nested":{"list":[true,null,"s",1.5]}}`)
	a := mustParse(t, b.String())
	if v, ok := a.Get("k39"); !ok || v.Kind() != Number {
		t.Errorf("Get(k39) = %v, %v", v, ok)
	}
	if _, ok := a.Get("missing"); ok {
		t.Error("Get(missing) found something")
	}
	m := a.Map()
	list := m["nested"].(map[string]any)["list"].([]any)
	if list[0] != true || list[1] != nil || list[2] != "s" || list[3] != 1.5 {
		t.Errorf("Map nested list = %v", list)
	}
	if m["k1"] != int64(1) {
		t.Errorf("Map k1 = %#v, want int64(1)", m["k1"])
	}
}

func TestValueEqual(t *testing.T) {
	a := mustParse(t, `{"x":100,"y":1e2,"z":"100","w":{"a":[1]},"v":{"a":[1.0]}}`)
	get := func(k string) Value { v, _ := a.Get(k); return v }
	if !get("x").Equal(get("y")) {
		t.Error("100 and 1e2 differ")
	}
	if get("x").Equal(get("z")) {
		t.Error("100 and \"100\" are equal")
	}
	if !get("w").Equal(get("v")) {
		t.Error(`{"a":[1]} and {"a":[1.0]} differ`)
	}
}

func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"b":[1,2,{"c":null}],"a":"x"}`, `{"n":1e2,"m":-0.0}`,
		`{"\u20ac":1,"\ud83d\ude00":2}`, `{"a":"\u0000"}`, `{"a":{"a":{"a":[]}}}`, `{"a":1,"a":2}`, "{\"a\":\"\xff\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseArgs(data)
		trimmed := bytes.TrimSpace(data)
		if err != nil {
			return
		}
		if len(trimmed) > 0 && !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		// The canonical form is valid JSON, parses to the same hash, and is
		// a fixed point.
		c := a.Canonical()
		if !json.Valid(c) {
			t.Fatalf("canonical form %q of %q is not valid JSON", c, data)
		}
		if a.Len() > 0 && a.Hash() != sha256.Sum256(c) {
			t.Fatalf("hash of %q is not the hash of its canonical form %q", data, c)
		}
		b, err := ParseArgs(c)
		if err != nil {
			t.Fatalf("canonical form %q does not parse: %v", c, err)
		}
		if b.Hash() != a.Hash() {
			t.Fatalf("hash changed through canonical form of %q", data)
		}
		if !bytes.Equal(b.Canonical(), c) {
			t.Fatalf("canonical form not a fixed point: %q → %q", c, b.Canonical())
		}
		// A top-level string reads as encoding/json decodes it (its
		// escape mark is exact).
		for i := range a.Len() {
			f := a.Field(i)
			got, ok := f.Value.Str()
			if !ok {
				continue
			}
			var want string
			if err := json.Unmarshal([]byte(f.Value.Raw()), &want); err != nil || got != want {
				t.Fatalf("member %q of %q: Str() = %q, encoding/json: %q (%v)", f.Key, data, got, want, err)
			}
		}
		// Decoded as a member of an envelope, in the same pass, the
		// arguments are the same.
		if len(trimmed) == 0 || trimmed[0] != '{' {
			return
		}
		env, err := ParseEnvelope(slices.Concat([]byte(`{"b":[{"args":{}}], "args": `), trimmed, []byte(` ,"a":{}}`)), "args")
		if err != nil {
			return // the envelope's nesting and value limits are one level tighter
		}
		e := env.Args()
		if e == nil || e.Hash() != a.Hash() || e.Size() != len(trimmed) || !reflect.DeepEqual(e.Fields(), a.Fields()) {
			t.Fatalf("%q in an envelope: %v", data, e)
		}
	})
}

// TestEnvelopeArgs checks that arguments decoded with their envelope are
// what ParseArgs makes of them alone, and that only an object member of the
// given name is decoded.
func TestEnvelopeArgs(t *testing.T) {
	for _, tc := range []struct {
		name, line, args string // args "" means no arguments decoded
	}{
		{"sorted", `{"args":{"a":1,"b":"x"},"tool":{"name":"t"}}`, `{"a":1,"b":"x"}`},
		{"unsorted and spaced", `{ "tool":{"name":"t"}, "args" : { "b":[ {"d":1,"c":2} ], "a":1.0e1 } }`, `{ "b":[ {"d":1,"c":2} ], "a":1.0e1 }`},
		{"many members", `{"args":{"h":1,"g":2,"f":3,"e":4,"d":5,"c":6,"b":7,"a":8}}`, `{"h":1,"g":2,"f":3,"e":4,"d":5,"c":6,"b":7,"a":8}`},
		{"escaped keys", `{"\u0061rgs":{"\u00e9":"\/","a\"":2}}`, `{"\u00e9":"\/","a\"":2}`},
		{"empty", `{"args":{}}`, `{}`},
		{"nested only", `{"x":{"args":{"a":1}}}`, ""},
		{"null", `{"args":null}`, ""},
		{"array", `{"args":[{"a":1}]}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, err := ParseEnvelope([]byte(tc.line), "args")
			if err != nil {
				t.Fatal(err)
			}
			got := env.Args()
			if tc.args == "" {
				if got != nil {
					t.Fatalf("decoded arguments %s, want none", got.Canonical())
				}
				return
			}
			want := mustParse(t, tc.args)
			if got == nil {
				t.Fatal("no arguments decoded")
			}
			if got.Hash() != want.Hash() || got.Size() != want.Size() || !reflect.DeepEqual(got.Fields(), want.Fields()) ||
				!bytes.Equal(got.Canonical(), want.Canonical()) {
				t.Errorf("got %s %x %v, want %s %x %v", got.Canonical(), got.Hash(), got.Fields(), want.Canonical(), want.Hash(), want.Fields())
			}
		})
	}
}

func BenchmarkParseArgs(b *testing.B) {
	raw := []byte(`{"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","amount_cents":2500,"memo":"invoice 42"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseArgs(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzStrCanon checks that a string value's canonical form, made straight
// from the input, is what canonicalising its decoded value makes, and that
// both refuse the same literals.
func FuzzStrCanon(f *testing.F) {
	for _, s := range []string{``, `a`, `\n`, `\u0000\u001f`, `\ud83d\ude00`, `\ud83d`, `\ude00`, `\/\"\\`, "\xff", "é\\u00e9", `\x`, "\t", `\u00`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		lit := `"` + body + `"`
		fast := parser{s: lit}
		ferr := fast.strCanon()
		ref := parser{s: lit}
		_, _, rerr := ref.str(true)
		if (ferr != nil) != (rerr != nil) {
			t.Fatalf("%q: strCanon error %v, reference error %v", lit, ferr, rerr)
		}
		if ferr == nil && (!bytes.Equal(fast.out, ref.out) || fast.i != ref.i) {
			t.Fatalf("%q: strCanon %q (to %d), reference %q (to %d)", lit, fast.out, fast.i, ref.out, ref.i)
		}
	})
}

// TestStrCanonWordScan puts each kind of byte the word-at-a-time scan
// must stop at (quote, backslash escapes, control characters, bytes of
// multi-byte and invalid UTF-8) at every offset of plain ASCII text of
// every length around the eight-byte words, and wants strCanon to agree
// with the byte-by-byte reference on output, end offset and refusal.
func TestStrCanonWordScan(t *testing.T) {
	specials := []string{`\"`, `\\`, `\n`, `\u0041`, `\ud83d\ude00`, "\x01", "\x1f", "\t", "é", "\U0001F600", "\xff", "\xc3", "\x7f", " ", "~", "!", "#", "[", "]"}
	n := 0
	for size := 0; size <= 26; size++ {
		for at := 0; at <= size; at++ {
			for _, sp := range specials {
				for _, tail := range []string{"", "x", strings.Repeat("y", 9) + `\"`} {
					body := strings.Repeat("a", at) + sp + strings.Repeat("b", size-at) + tail
					lit := `"` + body + `"`
					fast := parser{s: lit + `,`}
					ferr := fast.strCanon()
					ref := parser{s: lit + `,`}
					_, _, rerr := ref.str(true)
					if (ferr != nil) != (rerr != nil) || ferr == nil && (!bytes.Equal(fast.out, ref.out) || fast.i != ref.i) {
						t.Fatalf("%q: strCanon %q (to %d, %v), reference %q (to %d, %v)", lit, fast.out, fast.i, ferr, ref.out, ref.i, rerr)
					}
					// Unterminated: both refuse.
					fast = parser{s: `"` + body}
					ref = parser{s: `"` + body}
					if ferr, rerr := fast.strCanon(), func() error { _, _, err := ref.str(true); return err }(); ferr == nil || rerr == nil {
						t.Fatalf("%q unterminated: strCanon %v, reference %v", body, ferr, rerr)
					}
					n++
				}
			}
		}
	}
	if n < 5000 {
		t.Fatalf("only %d cases", n)
	}
}

// TestMapShared calls Map from several goroutines at once: every caller
// gets the one map that was kept, with every argument.
func TestMapShared(t *testing.T) {
	for range 50 {
		a := mustParse(t, `{"b":[1,{"c":"x"}],"a":2,"d":"\u00e9"}`)
		maps := make([]map[string]any, 8)
		var wg sync.WaitGroup
		for i := range maps {
			wg.Go(func() { maps[i] = a.Map() })
		}
		wg.Wait()
		want := a.Map()
		for i, m := range maps {
			if reflect.ValueOf(m).UnsafePointer() != reflect.ValueOf(want).UnsafePointer() || len(m) != 3 || m["d"] != "é" {
				t.Fatalf("caller %d got %v, not the kept map %v", i, m, want)
			}
		}
	}
}

// TestArgsSizeClass pins Args, which every call allocates, within the
// 192-byte size class: a field more moves every call to the next class
// (224 bytes), a sixth more garbage per decision.
func TestArgsSizeClass(t *testing.T) {
	if got := unsafe.Sizeof(Args{}); got > 192 {
		t.Errorf("Args is %d bytes, want at most 192", got)
	}
}

// TestEscapedKeysWhereverTheyAre decodes objects whose keys have escapes
// in every position, at the top level and as an envelope's member (whose
// spans are relative to the member's text), and wants each key decoded
// and each value found by it.
func TestEscapedKeysWhereverTheyAre(t *testing.T) {
	inputs := []string{
		`{"\u0061":1}`,
		`{"b":2,"\u0061":1}`,
		`{"\u0061":1,"b":2,"c\u0064":3,"e":4,"f":5,"g":6,"h":7,"\u0069":8}`,
		` { "z" : 0 , "\u0079" : "v" , "x\"" : [1] }`,
	}
	for _, in := range inputs {
		a, err := ParseArgs([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		var want map[string]any
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		env, err := ParseEnvelope([]byte(`{"pad":"\u0070","args":`+in+`}`), "args")
		if err != nil {
			t.Fatalf("envelope of %s: %v", in, err)
		}
		for name, got := range map[string]*Args{"args": a, "envelope": env.Args()} {
			if got.Len() != len(want) {
				t.Fatalf("%s (%s): %d members, want %d", in, name, got.Len(), len(want))
			}
			for i := range got.Len() {
				k := got.Key(i)
				if _, ok := want[k]; !ok {
					t.Errorf("%s (%s): member %d has key %q, not in the input", in, name, i, k)
				}
				v, ok := got.Get(k)
				if !ok || v.Raw() != got.Field(i).Value.Raw() {
					t.Errorf("%s (%s): Get(%q) = %q, %v; want %q", in, name, k, v.Raw(), ok, got.Field(i).Value.Raw())
				}
			}
		}
	}
}
