package rules

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// evalAlone decides r as the snapshot does, but runs every rule that
// applies on a request of its own: no memo (resolved paths, amounts,
// discovered parameters) and no scratch is shared between rules, and each
// rule walks the arguments itself. It is the plain evaluation the shared
// work must not change.
func evalAlone(s *policy.Snapshot, r *policy.Request) (policy.Action, reason.Code, string, string) {
	ref := s.Resolve(r.Tool)
	action, code, rule, msg := policy.Allow, reason.Allowed, "", "all policy checks passed"
	for _, c := range s.Rules() {
		if !c.Applies.Matches(ref) {
			continue
		}
		own := policy.Request{Tool: ref, Args: r.Args, Turn: r.Turn, Workdir: r.Workdir, Now: r.Now, State: r.State, Trust: r.Trust, Plan: r.Plan}
		res, err := func() (res policy.Result, err error) {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("panic: %v", p)
				}
			}()
			return c.Eval(&own)
		}()
		if err == nil && res.Opinion && (res.Action > policy.Allow || !res.Code.Valid()) {
			err = fmt.Errorf("invalid result")
		}
		if err != nil {
			return policy.Deny, reason.RuleErr, c.ID, "a policy rule could not be evaluated, so the call is denied"
		}
		if !res.Opinion {
			continue
		}
		switch res.Action {
		case policy.Deny:
			return policy.Deny, res.Code, c.ID, res.Message
		case policy.Quarantine:
			if action == policy.Allow {
				action, code, rule, msg = policy.Quarantine, res.Code, c.ID, res.Message
			}
		}
	}
	return action, code, rule, msg
}

// TestSharedWorkDecidesAsAlone compares the snapshot's decisions with
// evalAlone's on generated calls: listed tools, tools known by their
// schema and tools known by nothing, with arguments that carry paths and
// commands at the top level and nested in objects and arrays, keys and
// values spelled with \u escapes, non-ASCII names, duplicate keys,
// parameters the schema does not declare, and values of every kind where
// a path or command is expected.
func TestSharedWorkDecidesAsAlone(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"notes/plan.md", "wallet.json", ".env", "keys/private_key.pem", "ward.toml", "src/main.py"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../wallet.json", filepath.Join(root, "notes", "wallet-link")); err != nil {
		t.Fatal(err)
	}
	schemas := map[string]json.RawMessage{
		"mcp_files_read_text_file": json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"head":{"type":"number"}}}`),
		"mcp_files_copy":           json.RawMessage(`{"type":"object","properties":{"from":{"type":"string","format":"path"},"to":{"type":"string","format":"path"}}}`),
		"mcp_ops_run_job":          json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","format":"command"}}}`),
		"mcp_desk_file_ticket":     json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"},"body":{"type":"string"}}}`),
	}
	cfg := DefaultConfig()
	cfg.Paths.Root = root
	cfg.Paths.Home = filepath.Join(root, "home")
	cfg.ToolParams = func(name string) json.RawMessage { return schemas[name] }
	cfg.Resolver = NewResolver()
	t.Cleanup(func() { cfg.Resolver.Close() })
	s := compile(t, cfg)

	tools := []string{"transfer_credits", "exec", "write_file", "read_file", "edit_own_file", "x402_fetch",
		"mcp_files_read_text_file", "mcp_files_copy", "mcp_ops_run_job", "mcp_desk_file_ticket",
		"mcp_other_open_document", "upload_report"}
	keys := []string{"path", "file_path", "paths", "srcPath", "Dir", "FOLDER", "destination-PATHS", "\u212Apath", "ﬁle",
		`\u0070ath`, `file\u005fpath`, "from", "to", "q", "title", "head", "command", "cmd", "args", "script", "stdin",
		"to_address", "amount_cents", "memo", "note", "data", "content", "url", "timeout_s"}
	strs := []string{".env", "notes/plan.md", "wallet.json", "../outside", "~/.ssh/id_rsa", "/etc/passwd", "notes/wallet-link",
		"ward.toml", `\u002eenv`, `w\u0061llet.json`, "keys/private_key.pem", "rm -rf /", "ls -la", "cat .env",
		"sudo rm -rf --no-preserve-root /", "", `a\u0000b`, "notes/../.env", "./src/main.py", "transfer", "x402",
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "https://api.example.com/x", strings.Repeat("a/", 40) + ".env"}
	rng := rand.New(rand.NewPCG(23, 2026))
	var value func(depth int) string
	value = func(depth int) string {
		switch k := rng.IntN(12); {
		case k < 6:
			return `"` + strs[rng.IntN(len(strs))] + `"`
		case k == 6:
			return fmt.Sprint(rng.IntN(3000) - 100)
		case k == 7:
			return []string{"null", "true", "false", "1.5", "1e3"}[rng.IntN(5)]
		case k < 10 && depth < 3:
			n := rng.IntN(3)
			elems := make([]string, n)
			for i := range elems {
				elems[i] = value(depth + 1)
			}
			return "[" + strings.Join(elems, ",") + "]"
		case depth < 3:
			return "{" + member(depth+1, &value) + "}"
		}
		return `"` + strs[rng.IntN(len(strs))] + `"`
	}
	// The argument a listed tool needs, most of the time, benign or not.
	primary := map[string][]string{
		"exec":             {`"command":"ls -la"`, `"command":"grep -rn TODO src"`, `"command":"rm -rf /"`, `"command":["cat",".env"]`},
		"write_file":       {`"path":"notes/plan.md"`, `"path":"notes/new.md"`, `"path":"wallet.json"`, `"path":"notes/wallet-link"`},
		"read_file":        {`"path":"notes/plan.md"`, `"path":"src/main.py"`, `"path":".env"`, `"path":"notes/../.env"`},
		"edit_own_file":    {`"path":"notes/plan.md"`, `"path":"ward.toml"`},
		"transfer_credits": {`"amount_cents":500`, `"amount_cents":2500`, `"amount_cents":"7"`},
		"x402_fetch":       {`"url":"https://api.example.com/x"`, `"url":"http://127.0.0.1/"`},
	}
	tiers := []tool.Tier{tool.TierUnset, tool.Read, tool.Write}
	now := time.Date(2026, 11, 29, 3, 0, 0, 0, time.UTC)
	decided := map[policy.Action]int{}
	refused := 0
	codes := map[reason.Code]int{}
	for i := range 6000 {
		name := tools[rng.IntN(len(tools))]
		var ms []string
		if p, ok := primary[name]; ok && rng.IntN(4) != 0 {
			ms = append(ms, p[rng.IntN(len(p))])
		}
		for range rng.IntN(4) {
			ms = append(ms, `"`+keys[rng.IntN(len(keys))]+`":`+value(0))
		}
		rng.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
		raw := "{" + strings.Join(ms, ",") + "}"
		a, err := tool.ParseArgs([]byte(raw))
		if err != nil {
			refused++ // duplicate keys and the like: refused before any rule
			continue
		}
		tr := policy.NewTracker()
		tr.SetBalance(100_000)
		r := &policy.Request{Tool: tool.Ref{Name: name, Risk: tool.Caution, Tier: tiers[rng.IntN(len(tiers))]}, Args: a,
			Turn: policy.Turn{ID: "t1", SessionID: "s1", Source: policy.Agent}, Workdir: root, Now: now, State: tr}
		if rng.IntN(4) == 0 {
			r.Workdir = ""
		}
		d := s.Evaluate(r)
		action, code, rule, msg := evalAlone(s, r)
		if d.Action() != action || d.Code() != code || d.Rule() != rule || d.Message() != msg {
			t.Errorf("call %d: %s %s:\n got   %v %s %s %q\n alone %v %s %s %q", i, r.Tool.Name, raw,
				d.Action(), d.Code(), d.Rule(), d.Message(), action, code, rule, msg)
		}
		decided[d.Action()]++
		codes[d.Code()]++
	}
	// The corpus must exercise every outcome, and refusals.
	if decided[policy.Allow] < 200 || decided[policy.Deny] < 200 || refused == 0 {
		t.Errorf("corpus too narrow: %v, %d refused", decided, refused)
	}
	t.Logf("decisions %v, %d refused by the parser; %v", decided, refused, codes)
}

// member returns one "key":value member for nested objects.
func member(depth int, value *func(int) string) string {
	nested := []string{"path", "file", "command", "x", `p\u0061th`}
	return `"` + nested[depth%len(nested)] + `":` + (*value)(depth)
}
