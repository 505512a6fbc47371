package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/testenv"
)

// tsClient returns node and the npm directory holding the official
// TypeScript MCP client. Where either is missing the test is skipped,
// except under CI (CI set), where it fails: there .ci/run installs them.
func tsClient(t *testing.T) (node, npm string) {
	t.Helper()
	missing := func(what string) {
		testenv.Missing(t, what+": the official TypeScript MCP client cannot run (cd testdata/npm && npm ci)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	npm, err = filepath.Abs(filepath.Join("..", "..", "testdata", "npm"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(npm, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		missing("@modelcontextprotocol/sdk is not installed")
	}
	return node, npm
}

// TestTypeScriptClient drives ward serve's /mcp with the official
// TypeScript MCP client (testdata/client.mjs): list, read, preview and
// commit a swap with progress, and a refusal.
func TestTypeScriptClient(t *testing.T) {
	node, npm := tsClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dc := ward.Stack.Dev.Contracts()
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "client.mjs"))
	cmd.Env = append(os.Environ(), "WARD_MCP_URL="+endpoint, "WARD_TOKEN="+agentToken,
		"WARD_USDC="+dc.USDC.Hex(), "WARD_WETH="+dc.WETH.Hex(), "WARD_NPM_DIR="+npm)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node client.mjs: %v\n%s", err, stderr.String())
	}
	t.Logf("TypeScript client: %s", stdout.String())
	var out struct {
		Server struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"server"`
		SessionID string `json:"sessionId"`
		Tools     []struct {
			Name      string `json:"name"`
			HasSchema bool   `json:"hasSchema"`
		} `json:"tools"`
		Gate struct {
			IsError bool `json:"isError"`
			Value   struct {
				Phase string `json:"phase"`
			} `json:"value"`
		} `json:"gate"`
		Preview struct {
			IsError    bool   `json:"isError"`
			Text       string `json:"text"`
			PermitID   string `json:"permit_id"`
			Status     string `json:"status"`
			Structured bool   `json:"structured"`
		} `json:"preview"`
		Commit struct {
			IsError bool `json:"isError"`
			Value   struct {
				Data struct {
					TxHashes []string `json:"tx_hashes"`
				} `json:"data"`
			} `json:"value"`
		} `json:"commit"`
		CommitProgress []struct {
			Progress float64 `json:"progress"`
			Total    float64 `json:"total"`
			Message  string  `json:"message"`
		} `json:"commitProgress"`
		Again struct {
			IsError bool   `json:"isError"`
			Text    string `json:"text"`
		} `json:"again"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("the client's output is not JSON: %v", err)
	}
	if out.Server.Name != "ward" || out.SessionID == "" {
		t.Errorf("server %+v, session %q: want ward and a session id", out.Server, out.SessionID)
	}
	if want := len(facade.Listed(session(t, "ts-want", "active").View)); len(out.Tools) != want {
		t.Errorf("got %d tools, want the %d of the active profile (8 facades and the journal's): %+v", len(out.Tools), want, out.Tools)
	}
	for _, tl := range out.Tools {
		if !tl.HasSchema {
			t.Errorf("%s has no object input schema", tl.Name)
		}
	}
	if out.Gate.IsError || out.Gate.Value.Phase != "thriving" {
		t.Errorf("query_state gate: %+v", out.Gate)
	}
	if out.Preview.IsError || out.Preview.PermitID == "" || out.Preview.Status != "pending" || !out.Preview.Structured {
		t.Fatalf("preview: %+v", out.Preview)
	}
	if out.Commit.IsError || len(out.Commit.Value.Data.TxHashes) == 0 {
		t.Errorf("commit: %+v", out.Commit)
	}
	if len(out.CommitProgress) < 2 || out.CommitProgress[len(out.CommitProgress)-1].Message == "" {
		t.Errorf("commit progress: %+v, want the sending and confirming steps", out.CommitProgress)
	}
	if !out.Again.IsError || !strings.HasPrefix(out.Again.Text, string(reason.PermitConsumed)+": ") {
		t.Errorf("second commit: %+v, want a %s tool error", out.Again, reason.PermitConsumed)
	}
}

// TestTypeScriptDiscovery has the official TypeScript MCP client
// (testdata/discover.mjs) discover what it may call and call it from the
// advertised schemas alone: an upstream write (previewed, then
// committed), an upstream read, and a native action (wrap) found through
// query_state {"kind":"tools"}. Each call must have gone through the
// gate: an allow in the audit trail, and the upstream's effect.
func TestTypeScriptDiscovery(t *testing.T) {
	node, npm := tsClient(t)
	// A token of its own: other tests taint agentToken's principal by
	// reading third-party content, and a tainted session's upstream write
	// would wait for the owner.
	tok, _, err := auth.Create(t.Context(), ward.Stack.Store, auth.Spec{Role: auth.Agent, Name: "mcp-ts-discovery"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "discover.mjs"))
	cmd.Env = append(os.Environ(), "WARD_MCP_URL="+endpoint, "WARD_TOKEN="+tok, "WARD_ACTION=wrap", "WARD_NPM_DIR="+npm)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node discover.mjs: %v\n%s", err, stderr.String())
	}
	t.Logf("TypeScript client: %s", stdout.String())
	type called struct {
		Name     string         `json:"name"`
		Tool     string         `json:"tool"`
		Call     string         `json:"call"`
		Kind     string         `json:"kind"`
		Venue    string         `json:"venue"`
		Args     map[string]any `json:"args"`
		Params   map[string]any `json:"params"`
		IsError  bool           `json:"isError"`
		PermitID string         `json:"permit_id"`
		Text     string         `json:"text"`
	}
	var out struct {
		Tools []struct {
			Name        string `json:"name"`
			Annotations *struct {
				ReadOnly    bool  `json:"readOnlyHint"`
				Destructive *bool `json:"destructiveHint"`
				Title       string
			} `json:"annotations"`
		} `json:"tools"`
		UpstreamWrite called `json:"upstreamWrite"`
		UpstreamRead  called `json:"upstreamRead"`
		Native        called `json:"native"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("the client's output is not JSON: %v", err)
	}
	for _, tl := range out.Tools {
		if tl.Annotations == nil || tl.Annotations.Destructive == nil {
			t.Errorf("%s has no annotations: %+v", tl.Name, tl.Annotations)
		}
	}
	w, r, n := out.UpstreamWrite, out.UpstreamRead, out.Native
	if w.Name != "mcp_journal_add_entry" || w.IsError || w.PermitID == "" || w.Tool != w.Name || w.Args["mood"] != "calm" {
		t.Errorf("upstream write: %+v, want add_entry previewed from its schema (mood from its enum) and committed", w)
	}
	title, _ := w.Args["title"].(string)
	if title == "" || !slices.Contains(journalEntries(), title) {
		t.Errorf("the journal holds %q, want the entry %q the client committed", journalEntries(), title)
	}
	if r.Name != "mcp_journal_find_entries" || r.IsError || !strings.Contains(r.Text, title) {
		t.Errorf("upstream read: %+v, want find_entries answering with %q", r, title)
	}
	if n.Call != "preview_action" || n.Kind != "wrap" || n.Tool != "weth_wrap_eth" || n.IsError || n.PermitID == "" ||
		!strings.Contains(n.Text, "tx_hashes") {
		t.Errorf("native action: %+v, want wrap previewed from its advertised schema and committed", n)
	}
	// Each went through the gate: its decision is in the audit trail.
	for _, name := range []string{w.Name, r.Name, n.Tool} {
		recs, err := ward.Stack.Store.QueryDecisions(t.Context(), store.DecisionFilter{Tool: name, Decision: store.VerdictAllow, Since: start})
		if err != nil || len(recs) == 0 {
			t.Errorf("%s: %d allow decisions audited since the client started (%v), want at least one", name, len(recs), err)
		}
	}
}
