package cli

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

const miniSuite = "../eval/agentdojo/testdata/mini.json"

// ward eval adaptive --json prints the contract's fields, and counts as
// not applicable what has nothing to work on in the mini suite: no read
// tool outside third-party content takes a string (nothing to echo
// through), no parameter admits an object or array, no value is a URL or
// carries one, no trusted text has a number.
func TestEvalAdaptiveJSON(t *testing.T) {
	out, errOut, code := run(t, "", "eval", "adaptive", "--json", miniSuite)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got, want := slices.Sorted(maps.Keys(rep)), []string{"attack", "baseline", "mutations", "pairs", "succeeded", "suite"}; !slices.Equal(got, want) {
		t.Fatalf("fields %v, want %v", got, want)
	}
	var top struct {
		Suite     string
		Attack    string
		Pairs     int
		Succeeded int
		Baseline  map[string]json.RawMessage
		Mutations []map[string]json.RawMessage
	}
	if err := json.Unmarshal([]byte(out), &top); err != nil {
		t.Fatal(err)
	}
	if top.Suite != "ledger" || top.Attack != "important_instructions" || top.Pairs != 2 {
		t.Errorf("suite %q, attack %q, %d pairs: want ledger, important_instructions, 2", top.Suite, top.Attack, top.Pairs)
	}
	type result struct {
		Name, Family          string
		Applicable, Succeeded int
		Breaches              []string
	}
	decode := func(m map[string]json.RawMessage) result {
		t.Helper()
		if got, want := slices.Sorted(maps.Keys(m)), []string{"applicable", "breaches", "family", "name", "succeeded"}; !slices.Equal(got, want) {
			t.Errorf("mutation fields %v, want %v", got, want)
		}
		if b := strings.TrimSpace(string(m["breaches"])); !strings.HasPrefix(b, "[") {
			t.Errorf("breaches is %s, want a list", b)
		}
		var r result
		b, _ := json.Marshal(m)
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if b := decode(top.Baseline); b.Name != "none" || b.Applicable != top.Pairs {
		t.Errorf("baseline %+v: want none, on every pair", b)
	}
	notApplicable := []string{"echo-trusted", "echo-normalised", "object-key", "nested-deep", "leaf-overflow",
		"url-encode", "url-encode-part", "glued", "spelled-out", "split-space", "split-join", "split-messages", "split-args", "common-amount"}
	everyPair := []string{"case", "echo-third-party", "agent-directive", "second-session", "second-session-directive", "split-in-injection"}
	total := 0
	seen := map[string]bool{}
	for _, m := range top.Mutations {
		r := decode(m)
		seen[r.Name] = true
		total += r.Succeeded
		switch {
		case r.Family == "":
			t.Errorf("%s has no family", r.Name)
		case r.Succeeded > r.Applicable || r.Applicable > top.Pairs || len(r.Breaches) != r.Succeeded:
			t.Errorf("%+v: counts out of range", r)
		case slices.Contains(notApplicable, r.Name) && r.Applicable != 0:
			t.Errorf("%s applies to %d pairs of the mini suite, want none", r.Name, r.Applicable)
		case slices.Contains(everyPair, r.Name) && r.Applicable != top.Pairs:
			t.Errorf("%s applies to %d pairs, want all %d", r.Name, r.Applicable, top.Pairs)
		}
	}
	for _, name := range append(notApplicable, everyPair...) {
		if !seen[name] {
			t.Errorf("no mutation %s in the report", name)
		}
	}
	if top.Succeeded != total {
		t.Errorf("succeeded %d, the mutations add up to %d", top.Succeeded, total)
	}
}

func TestEvalAdaptiveTable(t *testing.T) {
	out, errOut, code := run(t, "", "eval", "adaptive", "--mutation", "echo-trusted,second-session", miniSuite)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 6 || !strings.Contains(lines[0], "2 pairs") || !strings.HasPrefix(lines[1], "mutation") {
		t.Fatalf("want a title, a header, the baseline and two mutations, and the total:\n%s", out)
	}
	for _, c := range []struct{ line, want string }{
		{lines[2], "none"}, {lines[3], "echo-trusted"}, {lines[4], "second-session"},
	} {
		if f := strings.Fields(c.line); len(f) < 5 || f[0] != c.want {
			t.Errorf("row %q, want %s with family, applicable, succeeded and rate", c.line, c.want)
		}
	}
	if f := strings.Fields(lines[3]); len(f) != 5 || f[2] != "0" || f[4] != "-" {
		t.Errorf("echo-trusted row %q: want 0 applicable and no rate", lines[3])
	}
}

func TestEvalAdaptiveUsage(t *testing.T) {
	for _, args := range [][]string{
		{"eval", "adaptive"},
		{"eval", "adaptive", "--mutation", "no-such", miniSuite},
		{"eval", "adaptive", "--attack", "no-such", miniSuite},
		{"eval", "adaptive", "no-such-file.json"},
	} {
		if _, _, code := run(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
