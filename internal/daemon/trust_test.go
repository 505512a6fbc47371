package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/quarantine"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/trust"
)

// The configured LLM checker is built with its key held as a tainted value
// the checker accepts; without [trust.llm] there is none.
func TestTrustCheckers(t *testing.T) {
	if c, err := trustCheckers(config.Trust{}); err != nil || c != nil {
		t.Fatalf("no llm: %v %v", c, err)
	}
	t.Setenv("WARD_TEST_LLM_KEY", "sk-test-123")
	c, err := trustCheckers(config.Trust{Judge: config.LLMChecker, LLM: config.LLM{
		Endpoint: "http://127.0.0.1:1/v1", Model: "m", APIKeyEnv: "WARD_TEST_LLM_KEY", Timeout: time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c[config.LLMChecker]; !ok {
		t.Fatalf("checkers %v lack %q", c, config.LLMChecker)
	}
}

// An agent that reads a token's third-party metadata is tainted, yet can
// still swap the allowlisted tokens: the allowlist is the owner's word, in
// the address book. A token the owner never named is held for review.
func TestTaintedAgentTradesAllowlistedTokens(t *testing.T) {
	f, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	f.Gate.AnnounceDelay = -1
	st, err := OpenData(t.Context(), t.TempDir(), f)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := st.Session(t.Context(), "agent", policy.Agent, "dev")
	if err != nil {
		t.Fatal(err)
	}
	dc := st.Dev.Contracts()
	if _, err := st.Tools.Read(t.Context(), s, "data_get_token_info", json.RawMessage(`{"token":"`+dc.USDC.Hex()+`"}`)); err != nil {
		t.Fatal(err)
	}
	if s.Trust == nil || s.Trust.Level() != trust.Tainted {
		t.Fatal("reading token metadata did not taint the session")
	}
	swap := func(out string) error {
		_, err := st.Facade.Call(t.Context(), facade.NewSession(s), "preview_action", json.RawMessage(fmt.Sprintf(
			`{"action_type":"swap","venue":"uniswap_v3","params":{"token_in":%q,"token_out":%q,"amount_in":"1000000"}}`, dc.USDC.Hex(), out)))
		return err
	}
	if err := swap(dc.WETH.Hex()); err != nil {
		t.Fatalf("swap of allowlisted tokens after taint: %v", err)
	}
	var rf *gate.Refusal
	if err := swap("0x9999999999999999999999999999999999999999"); !errors.As(err, &rf) || rf.Code != reason.UntrustedProvenance {
		t.Fatalf("swap into an unnamed token after taint: %v", err)
	}
}

// The Grimoire end to end in the daemon: an agent screens a signed entry
// into quarantine and validates it through preview_action and
// commit_action, and query_grimoire then finds it; reading adopted external
// knowledge taints the session.
func TestGrimoireThroughTheGate(t *testing.T) {
	st, signed := grimoireStack(t, "[gate]\nannounce_delay = \"0s\"\n")
	s, err := st.Session(t.Context(), "agent", policy.Agent, "learning")
	if err != nil {
		t.Fatal(err)
	}
	e := signed("e1", knowledge.TypeInsight, "Higher utilization increases the borrow rate on lending markets.", 0.3)
	write := func(action string, params any) json.RawMessage {
		t.Helper()
		p, _ := json.Marshal(params)
		pv, err := st.Facade.Call(t.Context(), facade.NewSession(s), "preview_action", json.RawMessage(fmt.Sprintf(`{"action_type":%q,"venue":"grimoire","params":%s}`, action, p)))
		if err != nil {
			t.Fatalf("%s preview: %v", action, err)
		}
		var v struct {
			PermitID string `json:"permit_id"`
		}
		json.Unmarshal(pv, &v)
		out, err := st.Facade.Call(t.Context(), facade.NewSession(s), "commit_action", json.RawMessage(`{"permit_id":"`+v.PermitID+`"}`))
		if err != nil {
			t.Fatalf("%s commit: %v", action, err)
		}
		return out
	}
	if out := write("quarantine_entries", map[string]any{"entries": []*knowledge.Entry{e}}); !strings.Contains(string(out), `quarantined`) {
		t.Fatalf("quarantine_entries: %s", out)
	}
	if out := write("consensus_validate", map[string]string{"entry_id": "e1"}); !strings.Contains(string(out), `adopted`) {
		t.Fatalf("consensus_validate: %s", out)
	}
	e2 := signed("e2", knowledge.TypeInsight, "Stablecoin pools widen their spreads during depegs.", 0.3)
	if out := write("quarantine_entries", map[string]any{"entries": []*knowledge.Entry{e2}}); !strings.Contains(string(out), `quarantined`) {
		t.Fatalf("quarantine_entries: %s", out)
	}
	out, err := st.Facade.Call(t.Context(), facade.NewSession(s), "query_grimoire", json.RawMessage(`{"query":"what raises the borrow rate?","limit":3}`))
	if err != nil || !strings.Contains(string(out), "borrow rate") {
		t.Fatalf("query_grimoire: %s %v", out, err)
	}
	if s.Trust == nil || s.Trust.Level() != trust.Tainted {
		t.Error("reading adopted external knowledge did not taint the session")
	}
	// The answer reinforced the entry it returned (the Curator's stability).
	if k, ok := st.Ingest.Grimoire().Get("e1"); !ok || k.Adoption == nil || k.Adoption.Retrievals != 1 {
		t.Errorf("retrievals after query_grimoire: %+v", k.Adoption)
	}
	// The session now acts under e1's influence: a lesson about its source
	// is shown at the next preview, and the commit records e1 as an
	// influence of the decision.
	source := strings.ToLower(e.Source.Agent)
	if _, err := st.Ingest.Lessons().Add(adopt.Lesson{ID: "about-source", Summary: "knowledge from this source was rolled back",
		Advice: "confirm independently before acting", Keywords: []string{source}, Confidence: 0.9, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Tools.SetDirective(t.Context(), s, "validate entry e2", true); err != nil {
		t.Fatal(err)
	}
	pv, err := st.Facade.Call(t.Context(), facade.NewSession(s), "preview_action", json.RawMessage(`{"action_type":"consensus_validate","venue":"grimoire","params":{"entry_id":"e2"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		PermitID string         `json:"permit_id"`
		Lessons  []adopt.Advice `json:"lessons"`
	}
	if err := json.Unmarshal(pv, &v); err != nil || len(v.Lessons) != 1 || v.Lessons[0].ID != "about-source" {
		t.Fatalf("preview under the source's influence: %s", pv)
	}
	if _, err := st.Facade.Call(t.Context(), facade.NewSession(s), "commit_action", json.RawMessage(`{"permit_id":"`+v.PermitID+`"}`)); err != nil {
		t.Fatal(err)
	}
	recs, err := st.Store.Actions(t.Context(), store.ActionFilter{PermitID: v.PermitID, Kind: store.ActionToolCall})
	if err != nil || len(recs) != 1 || !strings.Contains(string(recs[0].Detail), `"entry_id":"e1"`) || !strings.Contains(string(recs[0].Detail), source) {
		t.Errorf("the commit's record does not name e1 as an influence: %+v %v", recs, err)
	}
}

// [grimoire.embedder] puts an OpenAI-compatible embeddings endpoint in
// place of the hashed embedder: entries and queries are embedded there.
func TestGrimoireEmbedderEndpoint(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" || r.Header.Get("Authorization") != "Bearer sk-test" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		calls.Add(1)
		var req struct {
			Input []string `json:"input"`
			Model string   `json:"model"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "embed-test" {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		type datum struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var resp struct {
			Data []datum `json:"data"`
		}
		for i, in := range req.Input {
			v := make([]float32, 32)
			for _, w := range strings.Fields(strings.ToLower(in)) {
				h := fnv.New32a()
				h.Write([]byte(strings.Trim(w, ".,?!")))
				v[h.Sum32()%32]++
			}
			resp.Data = append(resp.Data, datum{Index: i, Embedding: v})
		}
		json.NewEncoder(w).Encode(resp)
	}))
	defer srv.Close()
	t.Setenv("WARD_TEST_EMBED_KEY", "sk-test")

	st, signed := grimoireStack(t, "[grimoire.embedder]\nendpoint = \""+srv.URL+"/v1\"\nmodel = \"embed-test\"\napi_key_env = \"WARD_TEST_EMBED_KEY\"\ndimensions = 32\n")
	e := signed("e1", knowledge.TypeInsight, "Higher utilization increases the borrow rate on lending markets.", 0.3)
	before := calls.Load()
	r, err := st.Ingest.Ingest(t.Context(), e)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != ingest.Adopted {
		t.Fatalf("verdict %s: %v", r.Verdict, r.Reasons)
	}
	if calls.Load() == before {
		t.Error("the entry was not embedded by the configured endpoint")
	}
	hits, err := st.Ingest.Grimoire().Query(t.Context(), "what raises the borrow rate?", 3)
	if err != nil || len(hits) == 0 {
		t.Fatalf("query: %v %v", hits, err)
	}
}

// At strict strictness ward serve evaluates an actionable entry in the
// sandbox (Stage 3) before adopting it: a harmless heuristic passes, one
// that dumps the position on any dip is rejected.
func TestGrimoireStrictRunsTheSandbox(t *testing.T) {
	st, signed := grimoireStack(t, "", "strictness = \"strict\"")
	ingestOne := func(id, content string) *ingest.Report {
		t.Helper()
		r, err := st.Ingest.Ingest(t.Context(), signed(id, knowledge.TypeHeuristic, content, 0.2))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	good := ingestOne("wait", "When gas is above 100 gwei, wait.")
	if good.Verdict != ingest.Adopted || good.Sandbox == nil || good.Sandbox.Evaluation == nil {
		t.Fatalf("harmless heuristic: %s %v (sandbox %+v)", good.Verdict, good.Reasons, good.Sandbox)
	}
	bad := ingestOne("dump", "When price drops 1 %, sell everything.")
	if bad.Verdict != ingest.Rejected || bad.Sandbox == nil {
		t.Fatalf("harmful heuristic: %s %v (sandbox %+v)", bad.Verdict, bad.Reasons, bad.Sandbox)
	}
}

// grimoireStack opens a stack in a fresh data directory whose [grimoire]
// knows one fresh author (plus grimoireKeys, then the rest of the file in
// extra), and returns a function making entries that author signed.
func grimoireStack(t *testing.T, extra string, grimoireKeys ...string) (*Stack, func(id string, typ knowledge.EntryType, content string, confidence float64) *knowledge.Entry) {
	t.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	author := crypto.PubkeyToAddress(key.PublicKey).Hex()
	toml := "[grimoire]\nidentities = [\"" + author + "\"]\n"
	for _, k := range grimoireKeys {
		toml += k + "\n"
	}
	f, err := config.Parse("ward.toml", []byte(toml+extra))
	if err != nil {
		t.Fatal(err)
	}
	f.Gate.AnnounceDelay = -1
	st, err := OpenData(t.Context(), t.TempDir(), f)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, func(id string, typ knowledge.EntryType, content string, confidence float64) *knowledge.Entry {
		t.Helper()
		e := &knowledge.Entry{ID: id, Content: content, Type: typ, Confidence: confidence,
			Source: knowledge.Source{Provenance: knowledge.Purchased, Agent: author, Timestamp: time.Now().UTC().Truncate(time.Second)}}
		if err := quarantine.Sign(e, st.Provider.ChainID(), key); err != nil {
			t.Fatal(err)
		}
		return e
	}
}

// TestGrimoireSandboxStrategy: [grimoire.sandbox] strategy is the baseline
// Stage 3 judges entries against, and a rule that does not decompose stops
// the stack from opening.
func TestGrimoireSandboxStrategy(t *testing.T) {
	st, signed := grimoireStack(t, "[grimoire.sandbox]\nstrategy = [\"when price drops 5 %, sell everything\"]\n", "strictness = \"strict\"")
	r, err := st.Ingest.Ingest(t.Context(), signed("silence", knowledge.TypeHeuristic, "When the price drops 3 %, wait.", 0.2))
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != ingest.Rejected || r.Code != reason.KnowledgeSandboxFailed || !strings.Contains(strings.Join(r.Reasons, " "), "agent's strategy") {
		t.Fatalf("an entry silencing the agent's stop-loss: %s %s %v", r.Verdict, r.Code, r.Reasons)
	}
	f, err := config.Parse("ward.toml", []byte("[grimoire.sandbox]\nstrategy = [\"buy low, sell high\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OpenData(t.Context(), t.TempDir(), f); err == nil || !strings.Contains(err.Error(), "grimoire.sandbox.strategy: rule 1") {
		t.Errorf("an undecomposable strategy rule: %v", err)
	}
}
