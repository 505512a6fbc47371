package policy

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/wardhq/ward/internal/tool"
)

// FuzzQuickCheckRequest checks the reflection-free decoder of what-if
// lines against encoding/json with unknown fields refused: whatever it
// accepts, encoding/json accepts too and decodes to the same request, and
// the arguments it decodes in the same pass are what tool.ParseArgs makes
// of the raw arguments on their own.
func FuzzQuickCheckRequest(f *testing.F) {
	for _, s := range []string{
		`{"tool":{"name":"exec"},"args":{"command":"ls"},"turn":{"id":"t1","session_id":"s1","input_source":"agent"}}`,
		`{"tool":{"name":"transfer_credits","risk":"dangerous","tier":"write","category":"payments"},"args":{"amount_cents":5},"workdir":"/w","now":"2026-01-01T00:00:00Z"}`,
		`{"tool":{"name":"a"},"args":null}`, `{"tool":{"name":"a"}}`, `{"Tool":{"name":"a"}}`, `{"tool":{"Name":"a"}}`,
		`{"tool":{"name":"a"},"tool":{"name":"b"}}`, `{"tool":{"name":"a","nope":1}}`, `{"tool":null}`, `{"tool":{"name":null}}`,
		`{"tool":{"name":"\u00e9\n"},"args":{"x":"\ud83d\ude00"}}`, "{\"tool\":{\"name\":\"\xff\"}}", `{"tool":{"name":"a"}} x`,
		`{"tool":{"name":"a"},"state":{"balance_cents":1}}`, `{"tool":{"name":"a"},"args":[1,2]}`, `{"tool":{"name":"a"},"args":"x"}`,
		`{}`, `null`, ``, `[]`, `{"tool":{"name":"a"},"workdir":5}`, `{"turn":{"id":1}}`,
		`{"args":{"b":1,"a":[{"z":1,"y":2}],"\u00e9":"x\/y","c":1.50e1,"d":{},"e":{"k":{"args":{}}},"f":"g","h":null}, "tool":{"name":"a"}}`,
		`{"args":{}}`, `{"args" : { "x" : -0.0 } }`, `{"args":{"a":1,"a":2}}`, `{"\u0061rgs":{"b":1,"a":2}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		quick, ok := QuickCheckRequest(line)
		if !ok {
			return
		}
		var slow CheckRequest
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&slow); err != nil {
			t.Fatalf("%q: quick decoder accepts, encoding/json refuses: %v", line, err)
		}
		if dec.More() {
			t.Fatalf("%q: quick decoder accepts a line with more than one value", line)
		}
		parsed := quick.args
		quick.args = nil
		if !reflect.DeepEqual(quick, slow) {
			t.Fatalf("%q: quick %+v, encoding/json %+v", line, quick, slow)
		}
		want, err := tool.ParseArgs(slow.Args)
		switch {
		case parsed == nil && err == nil && want.Len() > 0:
			t.Fatalf("%q: arguments %s not decoded with the line", line, slow.Args)
		case parsed == nil:
			return
		case err != nil:
			t.Fatalf("%q: arguments decoded with the line, refused alone: %v", line, err)
		}
		if parsed.Hash() != want.Hash() || parsed.Size() != want.Size() || !reflect.DeepEqual(parsed.Fields(), want.Fields()) {
			t.Fatalf("%q: arguments decoded with the line: hash %x, %d bytes, %v; alone: hash %x, %d bytes, %v",
				line, parsed.Hash(), parsed.Size(), parsed.Fields(), want.Hash(), want.Size(), want.Fields())
		}
		if !bytes.Equal(parsed.Canonical(), want.Canonical()) {
			t.Fatalf("%q: canonical form %s with the line, %s alone", line, parsed.Canonical(), want.Canonical())
		}
	})
}

// BenchmarkQuickCheckRequest measures decoding one usual what-if line, its
// arguments included.
func BenchmarkQuickCheckRequest(b *testing.B) {
	line := []byte(`{"args":{"amount_cents":1500,"memo":"invoice 1234","to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"},"tool":{"name":"transfer_credits"},"turn":{"id":"t17","input_source":"agent","session_id":"bench"}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := QuickCheckRequest(line); !ok {
			b.Fatal("not decoded")
		}
	}
}
