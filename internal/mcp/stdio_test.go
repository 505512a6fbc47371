package mcp

import (
	"bytes"
	"testing"
)

// FuzzDrainLines checks the stdio drain's count of calls: however the input
// is cut into reads, it counts the complete lines that are calls.
func FuzzDrainLines(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize"}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n",
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"x"}}` + "\n" + `{"id":null,"method":"m"}` + "\n",
		`{"jsonrpc":"2.0","id":7,"result":{}}` + "\n" + "{{{\n" + "\n\n",
		`{"id":1,"method":"m"}`, // no newline: not complete
	} {
		f.Add(seed, 10)
	}
	f.Fuzz(func(t *testing.T, in string, cut int) {
		if cut < 0 || cut > len(in) {
			cut = len(in) / 2
		}
		d := &drain{}
		var buf []byte
		buf = d.lines(buf, []byte(in[:cut]), +1)
		d.lines(buf, []byte(in[cut:]), +1)
		want := 0
		lines := bytes.Split([]byte(in), []byte("\n"))
		for _, l := range lines[:len(lines)-1] { // the last piece has no newline
			want += counts(l, +1)
		}
		if d.pending != want && !d.overlong {
			t.Errorf("counted %d calls, want %d", d.pending, want)
		}
	})
}
