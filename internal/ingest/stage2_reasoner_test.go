package ingest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/taint"
	"github.com/wardhq/ward/internal/validate/reasoning"
)

// The Reasoner's own tests are in internal/validate/reasoning; this one
// runs it as L2 in the pipeline.

// chatServer is an OpenAI-compatible chat-completions server answering
// every request with reply, counting them.
type chatServer struct {
	*httptest.Server
	n atomic.Int64
}

func newChatServer(t *testing.T, reply func(w http.ResponseWriter)) *chatServer {
	t.Helper()
	s := &chatServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		s.n.Add(1)
		reply(w)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *chatServer) requests() int { return int(s.n.Load()) }

// completion writes a chat completion whose message content is c.
func completion(w http.ResponseWriter, c string) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id":      "chatcmpl-1",
		"object":  "chat.completion",
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": c}, "finish_reason": "stop"}},
	})
}

func answerJSON(conclusion, direction string, actions, entities []string) string {
	b, _ := json.Marshal(map[string]any{"conclusion": conclusion, "actions": actions, "entities": entities, "direction": direction})
	return string(b)
}

var (
	baseAnswer = answerJSON("Utilization drives borrow rates up on lending markets.", "up",
		[]string{"Reduce borrowing when utilization is high", "Supply to markets with high utilization"},
		[]string{"Aave", "USDC"})
	agreeAnswer = answerJSON("As utilization rises, borrow rates rise, past the kink sharply.", "up",
		[]string{"reduce borrowing when utilization is high", "supply to the high-utilization markets"},
		[]string{"Aave v3", "USDC"})
	flipAnswer = answerJSON("Borrow rates fall as utilization rises.", "down",
		[]string{"Borrow more when utilization is high"},
		[]string{"Aave", "USDC"})
)

func testProvider(url, model string, timeout time.Duration) reasoning.LLMProvider {
	return reasoning.LLMProvider{Endpoint: url + "/v1/", Model: model, APIKey: taint.New("sk-reasoner-secret-42", taint.StrategyConfidential), Timeout: timeout}
}

// memories are the Grimoire's own entries about lending rates.
var memories = []string{
	"Higher utilization increases the borrow rate on lending markets such as Aave.",
	"Past the kink of the rate curve, the borrow rate rises steeply with utilization.",
	"Suppliers earn more when utilization of a lending market is high.",
}

// Stage 2 with a reasoner in the pipeline: at standard strictness an entry
// that flips the reasoning is rejected by L2, one that agrees is adopted;
// at relaxed strictness the flip still fails, because it raises scrutiny;
// a reasoner that cannot answer leaves the entry in quarantine.
func TestStage2WithReasoner(t *testing.T) {
	const agree = "Higher utilization increases the borrow rate on lending markets."
	for _, tc := range []struct {
		name     string
		s        knowledge.Strictness
		aug      string
		status   int
		verdict  Verdict
		scrutiny bool
	}{
		{"agreeing entry at standard", knowledge.Standard, agreeAnswer, 200, Adopted, false},
		{"diverging entry at standard", knowledge.Standard, flipAnswer, 200, Rejected, true},
		{"diverging entry at relaxed", knowledge.Relaxed, flipAnswer, 200, Rejected, true},
		{"provider down", knowledge.Relaxed, agreeAnswer, 503, Quarantined, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := newChatServer(t, func(w http.ResponseWriter) { completion(w, baseAnswer) })
			aug := newChatServer(t, func(w http.ResponseWriter) {
				if tc.status != 200 {
					w.Header().Set("Retry-After", "0")
					w.WriteHeader(tc.status)
					return
				}
				completion(w, tc.aug)
			})
			r, err := reasoning.NewReasoner(reasoning.ReasonerConfig{Providers: []reasoning.LLMProvider{
				testProvider(base.URL, "m1", 5*time.Second), testProvider(aug.URL, "m2", 5*time.Second)}})
			if err != nil {
				t.Fatal(err)
			}
			vals, err := Stage2(nil, WithReasoner(r))
			if err != nil {
				t.Fatal(err)
			}
			h := newHarness(t, tc.s, vals...)
			var seed []*knowledge.Entry
			for i, c := range memories {
				seed = append(seed, &knowledge.Entry{ID: fmt.Sprintf("self-%d", i), Content: c, Type: knowledge.TypeInsight, Confidence: 0.7,
					Source: knowledge.Source{Provenance: knowledge.Self, Timestamp: h.clock()}})
			}
			if err := h.p.Grimoire().Seed(h.ctx, seed); err != nil {
				t.Fatal(err)
			}
			rep := h.ingest(h.signed(agree, 0.2))
			if rep.Verdict != tc.verdict {
				t.Fatalf("%s at %s/%s %v, want %s", rep.Verdict, rep.Stage, rep.Layer, rep.Reasons, tc.verdict)
			}
			switch tc.verdict {
			case Rejected:
				want(t, rep, Rejected, StageStage2, reason.KnowledgeConsensusFailed, knowledge.CausalGraphPoisoning)
				if rep.Layer.String() != "L2" || rep.Scores["L2"] < reasoning.DefaultReasonerThreshold {
					t.Errorf("layer %q score %v, want L2 at or above the threshold", rep.Layer, rep.Scores["L2"])
				}
				joined := strings.Join(rep.Reasons, "\n")
				if tc.scrutiny != strings.Contains(joined, "raised scrutiny") || !strings.Contains(joined, "L2: adding the entry diverges") {
					t.Errorf("reasons %q, want L2's divergence and scrutiny %v", rep.Reasons, tc.scrutiny)
				}
				// The entry's claims agree with the memories: only the model saw it.
				if st := r.Stats(); st.Failed != 1 || st.Alone != 1 || st.Calls != 2 {
					t.Errorf("stats %+v, want one failure only the model saw", st)
				}
			case Quarantined:
				want(t, rep, Quarantined, StageStage2, reason.KnowledgeValidationError, knowledge.NoAttack)
			}
			// A failing path cancels the other, which may not have been sent;
			// a 5xx is retried.
			nb, na := base.requests(), aug.requests()
			if tc.status == 200 && nb+na != 2 || tc.status != 200 && (nb > 1 || na != 1+reasoning.DefaultReasonerRetries) {
				t.Errorf("%d baseline and %d augmented requests", nb, na)
			}
		})
	}
	t.Run("without a reasoner", func(t *testing.T) {
		vals, err := Stage2(nil, WithReasoner(nil))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := vals[1].(layer); !ok || len(vals) != 3 {
			t.Errorf("L2 is %T, want the deterministic layer", vals[1])
		}
	})
}
