package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ward eval poisoning reports per layer what each flagged (--json: layers),
// keeps the existing fields, and --rows carries each row's Stage 2 votes.
func TestEvalPoisoningLayers(t *testing.T) {
	data := filepath.Join("..", "eval", "poisoning", "testdata")
	rows := filepath.Join(t.TempDir(), "rows.jsonl")
	args := []string{"eval", "poisoning", "--grimoire", filepath.Join(data, "seed.jsonl"), "--incoming", filepath.Join(data, "incoming.jsonl")}
	out, errOut, code := run(t, "", append(args, "--json", "--rows", rows)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, k := range []string{"classes", "clean", "flagged", "fpr", "benchmarks", "layers"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("--json has no %q: %s", k, out)
		}
	}
	var layers map[string]struct {
		PoisonFlagged int `json:"poison_flagged"`
		CleanFlagged  int `json:"clean_flagged"`
		Decided       int `json:"decided"`
		Classes       map[string]struct {
			Flagged int `json:"flagged"`
			Decided int `json:"decided"`
		} `json:"classes"`
	}
	if err := json.Unmarshal(rep["layers"], &layers); err != nil {
		t.Fatal(err)
	}
	if l := layers["L2"]; l.PoisonFlagged != 1 || l.Decided != 1 || l.Classes["semantic_contradiction"].Decided != 1 {
		t.Errorf("layers.L2 = %+v in %s", l, rep["layers"])
	}
	if l := layers["content"]; l.PoisonFlagged != 1 || l.Classes["prompt_injection"].Flagged != 1 {
		t.Errorf("layers.content = %+v", l)
	}

	f, err := os.Open(rows)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	voted := 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var r struct {
			Caught string `json:"caught"`
			Votes  []struct {
				Layer string `json:"layer"`
				Pass  bool   `json:"pass"`
			} `json:"votes"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Caught == "stage2/L2" {
			voted++
			l2 := slices.IndexFunc(r.Votes, func(v struct {
				Layer string `json:"layer"`
				Pass  bool   `json:"pass"`
			}) bool {
				return v.Layer == "L2"
			})
			if len(r.Votes) < 3 || l2 < 0 || r.Votes[l2].Pass {
				t.Errorf("row caught by L2 has votes %+v", r.Votes)
			}
		}
	}
	if voted != 1 {
		t.Errorf("%d rows caught by L2 in --rows, want 1", voted)
	}

	out, errOut, code = run(t, "", args...)
	if code != exitOK {
		t.Fatalf("text: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "per layer") || !strings.Contains(out, "\nL2 ") || !strings.Contains(out, "semantic_contradiction 1/1") {
		t.Errorf("text output has no per-layer table:\n%s", out)
	}
}
