package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
)

// FuzzCheckLine feeds arbitrary lines through request decoding and
// evaluation with the default policy. A line is either refused with an
// error or decided; a decision is well formed and deterministic; nothing
// panics.
func FuzzCheckLine(f *testing.F) {
	files, _ := filepath.Glob("testdata/policy/*.jsonl")
	for _, file := range files {
		fh, err := os.Open(file)
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			var c corpusCase
			if json.Unmarshal(sc.Bytes(), &c) == nil {
				f.Add(strings.ReplaceAll(string(c.Request), "$WORKDIR", "/srv/agent"))
			}
		}
		fh.Close()
	}
	f.Add(`{"tool":{"name":"exec"},"args":{"command":"$(printf '\x72m') -rf /"}}`)
	f.Add(`{"tool":{"name":"x","risk":"dangerous"},"args":{"a":[1,{"b":null}]},"turn":{"input_source":"peer"}}`)
	workdir, home := fixture(f)
	cfg := corpusPolicy(f, workdir, home)
	f.Fuzz(func(t *testing.T, line string) {
		tr := policy.NewTracker()
		d, err := evaluateLine(cfg.Snapshot, tr, nil, []byte(line))
		if err != nil {
			return
		}
		if d.Action() > policy.Allow || !d.Code().Valid() {
			t.Fatalf("malformed decision: action %d code %q", d.Action(), d.Code())
		}
		if d.Action() == policy.Allow && (d.Rule() != "" || d.Code() != reason.Allowed) {
			t.Fatalf("allow with rule %q code %s", d.Rule(), d.Code())
		}
		if d.Action() != policy.Allow && d.Rule() == "" {
			t.Fatalf("%s without a deciding rule (%s)", d.Action(), d.Code())
		}
		if d.Code() == reason.RuleErr {
			t.Fatalf("a built-in rule failed on %q: %s", line, d.Diagnostic())
		}
		again, err := evaluateLine(cfg.Snapshot, policy.NewTracker(), nil, []byte(line))
		if err != nil || again.Action() != d.Action() || again.Code() != d.Code() || again.ArgsHash() != d.ArgsHash() {
			t.Fatalf("not deterministic: %s %s then %s %s (%v)", d.Action(), d.Code(), again.Action(), again.Code(), err)
		}
		var out map[string]any
		if err := json.Unmarshal(d.AppendJSON(nil), &out); err != nil {
			t.Fatalf("decision JSON does not parse: %v", err)
		}
	})
}
