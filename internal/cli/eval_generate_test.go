package cli

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/eval/generate"
	"github.com/wardhq/ward/internal/eval/poisoning"
)

// ward eval generate writes files that ward eval poisoning scores, to the
// same rates as the package's Score (what the regression gate measures).
func TestEvalGenerate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "suite")
	out, errOut, code := run(t, "", "eval", "generate", "--seed", "2", "--out", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "ward eval poisoning --grimoire "+filepath.Join(dir, generate.SeedFile)) {
		t.Errorf("output does not say how to score the files:\n%s", out)
	}
	args := []string{"eval", "poisoning", "--json", "--grimoire", filepath.Join(dir, generate.SeedFile)}
	for _, c := range generate.Classes() {
		args = append(args, "--incoming", filepath.Join(dir, c.String()+".jsonl"))
	}
	out, errOut, code = run(t, "", args...)
	if code != exitOK {
		t.Fatalf("eval poisoning: exit %d: %s", code, errOut)
	}
	var rep poisoning.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want, err := generate.Score(t.Context(), generate.Generate(2))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range generate.Classes() {
		got := rep.Classes[c.String()]
		if got == nil || got.Poison == 0 || math.Abs(got.FNR-want.FNR[c.String()]) > 1e-9 {
			t.Errorf("%s: scored %+v, Score says FNR %v", c, got, want.FNR[c.String()])
		}
	}
	if math.Abs(rep.FPR-want.FPR) > 1e-9 || rep.Clean == 0 {
		t.Errorf("FPR %v over %d clean, Score says %v", rep.FPR, rep.Clean, want.FPR)
	}
}

func TestEvalGenerateUsage(t *testing.T) {
	if _, _, code := run(t, "", "eval", "generate", "--out", t.TempDir(), "extra"); code != exitUsage {
		t.Errorf("a stray argument: exit %d, want %d", code, exitUsage)
	}
	if _, _, code := run(t, "", "eval", "generate", "--seed", "-1"); code != exitUsage {
		t.Errorf("a negative seed: exit %d, want %d", code, exitUsage)
	}
}
