package cli

import (
	"encoding/json"
	"flag"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/eval/poisoning"
	"github.com/wardhq/ward/internal/llm/llmtest"
)

// Re-recording testdata/reasoning/exchanges.json from a live server, as
// internal/validate/reasoning/testdata/reasoner/README.md describes:
//
//	WARD_RECORD_API_KEY=... go test ./internal/cli -run TestEvalPoisoningReasoning \
//	    -record http://localhost:8080/v1 -record-model qwen2.5-7b-instruct
var (
	recordEndpoint = flag.String("record", "", "re-record testdata/reasoning/exchanges.json from this OpenAI-compatible base `URL`")
	recordModel    = flag.String("record-model", "", "the model to re-record with")
)

const reasoningKeyEnv = "WARD_TEST_REASONING_KEY"

func reasoningArgs(url, model string) []string {
	return []string{"eval", "poisoning", "--grimoire", filepath.Join("testdata", "reasoning", "seed.jsonl"),
		"--incoming", filepath.Join("testdata", "reasoning", "incoming.jsonl"),
		"--reasoning", url + "/v1", "--reasoning-model", model, "--reasoning-api-key-env", reasoningKeyEnv}
}

// ward eval poisoning --reasoning runs L2's LLM path against the server
// (here the replay of a recorded exchange, which checks that every request
// is the recorded one) and reports where it ran and what it did.
func TestEvalPoisoningReasoning(t *testing.T) {
	t.Setenv(reasoningKeyEnv, llmtest.Key)
	path := filepath.Join("testdata", "reasoning", "exchanges.json")
	if *recordEndpoint != "" {
		recordEval(t, path)
	}
	c, err := llmtest.ReadCassette(path)
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := llmtest.Serve(t, c, 0)
	out, errOut, code := run(t, "", append(reasoningArgs(srv.URL, c.Models[0]), "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep poisoning.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	r := rep.Reasoning
	if r == nil || r.Endpoint != srv.URL+"/v1" || r.Model != c.Models[0] || len(r.Providers) != 1 {
		t.Fatalf("reasoning = %+v, want the endpoint and model", r)
	}
	if r.Entries != 2 || r.Calls != 4 || r.Errors != 0 || r.Failed != 1 || r.Alone != 0 {
		t.Errorf("reasoning = %+v, want 2 entries, 4 calls, no error, 1 failed", r)
	}
	if cl := rep.Classes["semantic_contradiction"]; cl == nil || cl.Missed != 0 || rep.Flagged != 0 {
		t.Errorf("classes %+v, %d clean flagged; want the contradiction caught and the clean entry adopted", rep.Classes, rep.Flagged)
	}
	var raw map[string]map[string]any
	_ = json.Unmarshal([]byte(out), &raw)
	for _, k := range []string{"endpoint", "model", "calls", "errors"} {
		if _, ok := raw["reasoning"][k]; !ok {
			t.Errorf("--json reasoning lacks %q: %s", k, out)
		}
	}

	srv2, _ := llmtest.Serve(t, c, 0)
	out, errOut, code = run(t, "", reasoningArgs(srv2.URL, c.Models[0])...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "reasoning: " + c.Models[0] + " at " + srv2.URL + "/v1; 2 entries, 0 skipped (nothing related), 4 model calls, 0 errors"
	if !strings.Contains(out, want) {
		t.Errorf("text output lacks %q:\n%s", want, out)
	}
}

// With the model down, every entry that reaches L2 stays in quarantine
// (caught, never adopted) and the report counts the errors.
func TestEvalPoisoningReasoningDown(t *testing.T) {
	t.Setenv(reasoningKeyEnv, llmtest.Key)
	srv := httptest.NewServer(nil)
	url := srv.URL
	srv.Close()
	out, errOut, code := run(t, "", append(reasoningArgs(url, "m"), "--json", "--reasoning-timeout", "2s")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep poisoning.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r := rep.Reasoning; r == nil || r.Errors != 2 || r.Failed != 0 {
		t.Errorf("reasoning = %+v, want 2 errors", r)
	}
	if rep.Clean != 1 || rep.Flagged != 1 {
		t.Errorf("%d clean, %d flagged; want the clean entry held in quarantine", rep.Clean, rep.Flagged)
	}
}

func TestEvalPoisoningReasoningUsage(t *testing.T) {
	for name, args := range map[string][]string{
		"model without endpoint": {"--reasoning-model", "m"},
		"endpoint without model": {"--reasoning", "http://127.0.0.1:1/v1"},
		"key env unset":          {"--reasoning", "http://127.0.0.1:1/v1", "--reasoning-model", "m", "--reasoning-api-key-env", "WARD_TEST_UNSET_KEY_9f1"},
		"second without model":   {"--reasoning", "http://127.0.0.1:1/v1", "--reasoning-model", "m", "--reasoning-second", "http://127.0.0.1:2/v1"},
		"not a url":              {"--reasoning", "localhost:8080", "--reasoning-model", "m"},
		"threshold out of range": {"--reasoning", "http://127.0.0.1:1/v1", "--reasoning-model", "m", "--reasoning-threshold", "2"},
	} {
		t.Run(name, func(t *testing.T) {
			args := append([]string{"eval", "poisoning", "--incoming", filepath.Join("testdata", "reasoning", "incoming.jsonl")}, args...)
			if _, errOut, code := run(t, "", args...); code != exitUsage {
				t.Errorf("exit %d, want %d: %s", code, exitUsage, errOut)
			}
		})
	}
}

// recordEval runs the evaluation against the live server through a
// recorder and writes the cassette to path.
func recordEval(t *testing.T, path string) {
	t.Helper()
	if *recordModel == "" {
		t.Fatal("-record needs -record-model")
	}
	rec := llmtest.NewRecorder(*recordEndpoint, os.Getenv("WARD_RECORD_API_KEY"), 0)
	srv := httptest.NewServer(rec)
	defer srv.Close()
	if _, errOut, code := run(t, "", append(reasoningArgs(srv.URL, *recordModel), "--reasoning-timeout", "2m")...); code != exitOK {
		t.Fatalf("recording: exit %d: %s", code, errOut)
	}
	c := &llmtest.Cassette{Models: []string{*recordModel}, Exchanges: rec.Exchanges(),
		Comment: "recorded by `go test ./internal/cli -run TestEvalPoisoningReasoning -record` on " + time.Now().UTC().Format(time.DateOnly)}
	if err := c.Write(path); err != nil {
		t.Fatal(err)
	}
}
