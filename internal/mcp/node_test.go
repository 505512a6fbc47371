package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/reason"
)

// TestTypeScriptClient drives ward serve's /mcp with the official
// TypeScript MCP client (testdata/client.mjs): list, read, preview and
// commit a swap with progress, and a refusal.
func TestTypeScriptClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the official TypeScript MCP client cannot run")
	}
	npm, err := filepath.Abs(filepath.Join("..", "..", "testdata", "npm"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(npm, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Skip("@modelcontextprotocol/sdk is not installed: run (cd testdata/npm && npm ci)")
	}
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
	if len(out.Tools) != 8 {
		t.Errorf("got %d tools, want the 8 facades of the active profile: %+v", len(out.Tools), out.Tools)
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
