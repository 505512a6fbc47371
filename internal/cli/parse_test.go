package cli

import (
	"flag"
	"io"
	"slices"
	"testing"
)

func TestParseInterleaved(t *testing.T) {
	for _, c := range []struct {
		args    []string
		json    bool
		level   string
		pos     []string
		wantErr bool
	}{
		{[]string{"a.jsonl"}, false, "standard", []string{"a.jsonl"}, false},
		{[]string{"--json", "a.jsonl"}, true, "standard", []string{"a.jsonl"}, false},
		{[]string{"a.jsonl", "--json"}, true, "standard", []string{"a.jsonl"}, false},
		{[]string{"a.jsonl", "--strictness", "strict", "b.jsonl", "--json"}, true, "strict", []string{"a.jsonl", "b.jsonl"}, false},
		{[]string{"--json", "--", "--not-a-flag", "x"}, true, "standard", []string{"--not-a-flag", "x"}, false},
		{[]string{"a.jsonl", "--", "--json"}, false, "standard", []string{"a.jsonl", "--json"}, false},
		{[]string{"a.jsonl", "--bogus"}, false, "", nil, true},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		asJSON := fs.Bool("json", false, "")
		level := fs.String("strictness", "standard", "")
		_, ok := parseInterleaved(fs, c.args)
		if ok == c.wantErr {
			t.Errorf("%q: ok = %v", c.args, ok)
			continue
		}
		if c.wantErr {
			continue
		}
		if *asJSON != c.json || *level != c.level || !slices.Equal(fs.Args(), c.pos) {
			t.Errorf("%q: json %v, strictness %q, args %q; want %v, %q, %q", c.args, *asJSON, *level, fs.Args(), c.json, c.level, c.pos)
		}
	}
}
