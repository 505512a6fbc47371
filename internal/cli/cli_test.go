package cli

import (
	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/sandbox"
	"github.com/wardhq/ward/internal/store/postgres/pgtest"

	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
)

// TestMain lets the test binary act as the ward command for tests that need
// a separate process (to kill it).
func TestMain(m *testing.M) {
	// A sandbox child (Stage 3) re-executes this binary: run its job.
	if code, ok := sandbox.Main(ingest.SandboxJobs()); ok {
		os.Exit(code)
	}
	if os.Getenv("WARD_TEST_MAIN") == "1" {
		// As cmd/ward: SIGTERM and SIGINT stop the command cleanly.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	// pgtest.Main stops the PostgreSQL server the shared-store tests
	// started, if they had to start one.
	os.Exit(pgtest.Main(m))
}

func run(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(t.Context(), args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// createToken runs ward token create --role role --name name with the
// flags that say where (--data, --config) and returns the token printed
// and its principal's id.
func createToken(t *testing.T, role, name string, where ...string) (token, principal string) {
	t.Helper()
	args := append([]string{"token", "create", "--role", role, "--name", name, "--json"}, where...)
	out, errOut, code := run(t, "", args...)
	if code != 0 {
		t.Fatalf("token create: %s", errOut)
	}
	var v struct {
		Token     string `json:"token"`
		Principal struct {
			ID string `json:"id"`
		} `json:"principal"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Token == "" || v.Principal.ID == "" {
		t.Fatalf("token create printed %q: %v", out, err)
	}
	return v.Token, v.Principal.ID
}

// checkLine runs `ward policy check` on one request line and fails the
// test unless its decision has the action and reason code wanted.
func checkLine(t *testing.T, line, action, code string) {
	t.Helper()
	out, errOut, exit := run(t, line+"\n", "policy", "check")
	if exit != 0 {
		t.Fatalf("exit %d: %s", exit, errOut)
	}
	var d struct {
		Action     string `json:"action"`
		ReasonCode string `json:"reason_code"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	if d.Action != action || d.ReasonCode != code {
		t.Errorf("got %s %s, want %s %s", d.Action, d.ReasonCode, action, code)
	}
}

func decodeLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var res []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("output line %q is not JSON: %v", l, err)
		}
		res = append(res, m)
	}
	return res
}

const (
	reqOK       = `{"tool":{"name":"transfer_credits"},"args":{"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","amount_cents":500},"turn":{"id":"t1","session_id":"s1","input_source":"agent"},"state":{"balance_cents":100000}}`
	reqReorder  = `{"tool":{"name":"transfer_credits"},"args":{"amount_cents":500,"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"},"turn":{"id":"t1","session_id":"s1","input_source":"agent"},"state":{"balance_cents":100000}}`
	reqTooBig   = `{"tool":{"name":"transfer_credits"},"args":{"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","amount_cents":2500},"turn":{"id":"t1","session_id":"s1","input_source":"agent"},"state":{"balance_cents":100000}}`
	reqExecDeny = `{"tool":{"name":"exec"},"args":{"command":"rm -rf /"},"turn":{"id":"t2","session_id":"s1","input_source":"agent"}}`
)

func TestCheckContract(t *testing.T) {
	t.Chdir(t.TempDir()) // no ward.toml, no ward.db: embedded defaults, empty state
	in := strings.Join([]string{reqOK, reqTooBig, reqReorder, reqExecDeny}, "\n") + "\n"
	out, errOut, code := run(t, in, "policy", "check", "-")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	lines := decodeLines(t, out)
	if len(lines) != 4 {
		t.Fatalf("%d output lines for 4 requests", len(lines))
	}
	for _, l := range lines {
		for _, k := range []string{"action", "reason_code", "message", "rule", "rules_evaluated", "rules_triggered", "args_hash", "policy_hash", "latency_ns"} {
			if _, ok := l[k]; !ok {
				t.Errorf("decision lacks %q: %v", k, l)
			}
		}
	}
	wantActions := []string{"allow", "deny", "allow", "deny"}
	for i, w := range wantActions {
		if lines[i]["action"] != w {
			t.Errorf("line %d: action %v, want %s (%v)", i+1, lines[i]["action"], w, lines[i]["reason_code"])
		}
	}
	if lines[0]["rule"] != "" || lines[1]["rule"] != "financial.transfer-per-payment-limit" {
		t.Errorf("rules: %q %q", lines[0]["rule"], lines[1]["rule"])
	}
	if lines[0]["args_hash"] != lines[2]["args_hash"] {
		t.Error("reordering argument keys changed args_hash")
	}
	if lines[0]["args_hash"] == lines[1]["args_hash"] {
		t.Error("different amounts have the same args_hash")
	}
	if lines[0]["policy_hash"] != lines[3]["policy_hash"] || len(lines[0]["policy_hash"].(string)) != 64 {
		t.Errorf("policy_hash %v", lines[0]["policy_hash"])
	}
	if n, _ := lines[0]["latency_ns"].(float64); n <= 0 {
		t.Errorf("latency_ns %v", lines[0]["latency_ns"])
	}
}

// A tool the policy knows nothing about is still evaluated: with the risk
// the request states, or, stating none, as forbidden (fail closed).
func TestCheckUnknownTool(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		name, line, action, code string
	}{
		{"no risk", `{"tool":{"name":"frobnicate"},"args":{}}`, "deny", "FORBIDDEN_TOOL"},
		{"safe", `{"tool":{"name":"frobnicate","category":"toys","risk":"safe"},"args":{}}`, "allow", "ALLOWED"},
		{"dangerous from outside", `{"tool":{"name":"frobnicate","risk":"dangerous"},"args":{},"turn":{"input_source":"external"}}`, "deny", "AUTHORITY_INSUFFICIENT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLine(t, tc.line, tc.action, tc.code)
		})
	}
}

// A request naming only a tool of ward's catalogue is evaluated as that
// tool (category wallet, risk dangerous, tier write), not as an undeclared
// one; what the request states still wins.
func TestCheckCatalogueTool(t *testing.T) {
	t.Chdir(t.TempDir())
	const args = `"args":{"token":"0x1111111111111111111111111111111111111111","to":"0x2222222222222222222222222222222222222222","amount":"250000000"}`
	for _, tc := range []struct {
		name, line, action, code string
	}{
		{"only the name", `{"tool":{"name":"erc20_transfer_token"},` + args + `,"turn":{"input_source":"agent"}}`, "allow", "ALLOWED"},
		{"dangerous, so external authority is refused", `{"tool":{"name":"erc20_transfer_token"},` + args + `,"turn":{"input_source":"external"}}`, "deny", "AUTHORITY_INSUFFICIENT"},
		{"a read of the catalogue is safe even from outside", `{"tool":{"name":"data_get_token_balance"},"args":{},"turn":{"input_source":"external"}}`, "allow", "ALLOWED"},
		{"the request's risk wins", `{"tool":{"name":"erc20_transfer_token","risk":"forbidden"},` + args + `,"turn":{"input_source":"agent"}}`, "deny", "FORBIDDEN_TOOL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLine(t, tc.line, tc.action, tc.code)
		})
	}
}

func TestCheckMalformedLines(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		name, line, want string
	}{
		{"not JSON", `{"tool":`, "line 2: incomplete JSON"},
		{"unknown field", `{"tool":{"name":"exec"},"argz":{}}`, "line 2: field argz: unknown field"},
		{"wrong type", `{"tool":{"name":"exec","risk":5}}`, "line 2: field tool.risk"},
		{"missing tool name", `{"args":{}}`, "line 2: field tool.name: required"},
		{"bad risk", `{"tool":{"name":"frobnicate","risk":"scary"},"args":{}}`, "line 2: field tool.risk: unknown risk level"},
		{"args not an object", `{"tool":{"name":"exec"},"args":[1]}`, "line 2: field args: arguments must be a JSON object"},
		{"duplicate arg key", `{"tool":{"name":"exec"},"args":{"command":"ls","command":"rm -rf /"}}`, "line 2: field args: duplicate key"},
		{"bad seeded scope", `{"tool":{"name":"exec"},"args":{"command":"ls"},"state":{"executed":[{"tool":"exec","count":1,"scope":"forever"}]}}`, "line 2: field state.executed[0].scope"},
		{"negative seeded spend", `{"tool":{"name":"exec"},"args":{"command":"ls"},"state":{"spend":[{"category":"transfer","amount_cents":-1}]}}`, "line 2: field state.spend[0].amount_cents"},
		{"bad now", `{"tool":{"name":"exec"},"args":{"command":"ls"},"now":"yesterday"}`, "line 2: field now"},
		{"two values", `{"tool":{"name":"exec"},"args":{"command":"ls"}} {}`, "line 2: more than one JSON value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := reqOK + "\n" + tc.line + "\n" + reqExecDeny + "\n"
			out, errOut, code := run(t, in, "policy", "check")
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q does not contain %q", errOut, tc.want)
			}
			lines := decodeLines(t, out)
			if len(lines) != 3 {
				t.Fatalf("%d output lines, want 3 (one per input line, in order)", len(lines))
			}
			if lines[0]["action"] != "allow" || lines[2]["action"] != "deny" {
				t.Errorf("the good lines around the bad one: %v / %v", lines[0]["action"], lines[2]["action"])
			}
			if lines[1]["line"] != float64(2) || lines[1]["error"] == nil {
				t.Errorf("the bad line's output: %v", lines[1])
			}
		})
	}
}

func TestCheckOverlongLine(t *testing.T) {
	t.Chdir(t.TempDir())
	long := `{"tool":{"name":"exec"},"args":{"command":"` + strings.Repeat("a", maxLine) + `"}}`
	out, errOut, code := run(t, long+"\n"+reqOK+"\n", "policy", "check")
	if code != 2 || !strings.Contains(errOut, "line 1: line too long") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if lines := decodeLines(t, out); len(lines) != 2 || lines[1]["action"] != "allow" {
		t.Errorf("reading did not continue after the long line: %v", lines)
	}
}

func TestCheckRecordAndQuery(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := filepath.Join(dir, "audit.db")
	in := strings.Join([]string{reqOK, reqTooBig, reqExecDeny, reqExecDeny}, "\n")
	out, errOut, code := run(t, in, "policy", "check", "--record", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := decodeLines(t, out)
	for _, l := range lines {
		if id, _ := l["id"].(string); len(id) != 26 {
			t.Errorf("recorded decision without an id: %v", l)
		}
	}
	out, errOut, code = run(t, "", "audit", "query", "--db", db, "--decision", "deny", "--json")
	if code != 0 {
		t.Fatalf("audit query exit %d: %s", code, errOut)
	}
	rows := decodeLines(t, out)
	if len(rows) != 3 {
		t.Fatalf("%d denials recorded, want 3: %s", len(rows), out)
	}
	if rows[0]["origin"] != "check" || rows[0]["turn_id"] != "t2" {
		t.Errorf("newest denial: %v", rows[0])
	}
	out, _, code = run(t, "", "audit", "query", "--db", db, "--report", "most-denied-tools", "--json")
	if code != 0 {
		t.Fatal("report failed")
	}
	report := decodeLines(t, out)
	if len(report) != 2 || report[0]["key"] != "exec" || report[0]["count"] != float64(2) {
		t.Errorf("most-denied-tools = %v", report)
	}
	out, _, _ = run(t, "", "audit", "query", "--db", db, "--report", "denials-by-reason")
	if !strings.Contains(out, "FORBIDDEN_COMMAND") || !strings.Contains(out, "AMOUNT_EXCEEDS_PER_PAYMENT_LIMIT") {
		t.Errorf("denials-by-reason table:\n%s", out)
	}
	out, _, _ = run(t, "", "audit", "query", "--db", db, "--tool", "exec", "--since", "1h")
	if strings.Count(out, "exec") != 2 {
		t.Errorf("--tool exec --since 1h:\n%s", out)
	}
}

func TestCheckUsesTrackedStateOfTheStore(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := filepath.Join(dir, "ward.db")
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: db})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := st.SetBalance(t.Context(), 100000, now); err != nil {
		t.Fatal(err)
	}
	if err := st.AppendExecution(t.Context(), &store.ExecutionRecord{ID: "01JD0000000000000000000001", Time: now.Add(-10 * time.Minute),
		Tool: "transfer_credits", Category: "financial", SessionID: "s0", TurnID: "t0", SpendCategory: "transfer", SpendCents: 4800}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	noState := `{"tool":{"name":"transfer_credits"},"args":{"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","amount_cents":500},"turn":{"id":"t1","session_id":"s1","input_source":"agent"}}`
	out, errOut, code := run(t, noState+"\n"+reqOK+"\n", "policy", "check", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := decodeLines(t, out)
	if lines[0]["reason_code"] != "HOURLY_TRANSFER_LIMIT_EXCEEDED" {
		t.Errorf("without state: %v, want the store's executed 4800c to count", lines[0]["reason_code"])
	}
	if lines[1]["action"] != "allow" {
		t.Errorf("with its own state: %v, want allow (request state replaces the store's)", lines[1]["reason_code"])
	}
}

func TestPolicyLint(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.toml")
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(good, []byte("[policy.treasury]\nmax_transfer_daily_cents = 100\n"), 0o600)
	os.WriteFile(bad, []byte("[policy.treasury]\nmax_transfer_daily_cents = -100\n[[policy.rules]]\nid = \"x\"\naction = \"deny\"\nwhen = 'args.'\n"), 0o600)
	out, _, code := run(t, "", "policy", "lint", good)
	if code != 0 || !strings.Contains(out, "ok") {
		t.Errorf("good file: exit %d, %q", code, out)
	}
	out, _, code = run(t, "", "policy", "lint", bad)
	if code != 1 {
		t.Errorf("bad file: exit %d, want 1", code)
	}
	if !strings.Contains(out, bad+":2:28: policy.treasury.max_transfer_daily_cents: must not be negative") || !strings.Contains(out, bad+":6:") {
		t.Errorf("lint output:\n%s", out)
	}
	out, _, code = run(t, "", "policy", "lint", "--json", bad)
	diags := decodeLines(t, out)
	if code != 1 || len(diags) != 2 || diags[0]["line"] != float64(2) || diags[0]["col"] != float64(28) || diags[0]["key"] != "policy.treasury.max_transfer_daily_cents" {
		t.Errorf("lint --json: exit %d, %v", code, diags)
	}
	if out, _, code := run(t, "", "policy", "lint", "--json", good); code != 0 || !strings.Contains(out, `"ok":true`) {
		t.Errorf("lint --json on a good file: exit %d, %s", code, out)
	}
	if _, _, code := run(t, "", "policy", "lint", filepath.Join(dir, "missing.toml")); code != 2 {
		t.Errorf("missing file: exit %d, want 2", code)
	}
}

func TestUsageErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"policy"}, 2, "policy check"},
		{[]string{"policy", "check", "--nope"}, 2, "flag provided but not defined"},
		{[]string{"policy", "check", "a", "b"}, 2, "at most one input file"},
		{[]string{"policy", "check", "no-such-file.jsonl"}, 2, "no such file"},
		{[]string{"audit", "query", "--decision", "maybe"}, 2, "--decision"},
		{[]string{"audit", "query", "--since", "last tuesday"}, 2, "--since"},
		{[]string{"audit", "query", "--report", "top-secrets"}, 2, "unknown report"},
		{[]string{"audit", "query"}, 1, "no database"},
		{[]string{"bench", "policy", "--workers", "0"}, 2, "must be positive"},
		{[]string{"bench", "policy", "--callers", "1,0"}, 2, "--callers"},
		{[]string{"bench", "policy", "--callers", "1,x"}, 2, "--callers"},
		{[]string{"bench", "policy", "--rules", "-1"}, 2, "--rules"},
		{[]string{"bench", "policy", "--arg-bytes", "99999999"}, 2, "--arg-bytes"},
		{[]string{"bench", "soak", "--clients", "0"}, 2, "must be positive"},
		{[]string{"bench", "soak", "--duration", "-1s"}, 2, "must be positive"},
		{[]string{"policy", "check", "--help"}, 0, "Usage: ward policy check"},
	} {
		_, errOut, code := run(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("ward %s: exit %d, stderr %q; want exit %d mentioning %q", strings.Join(tc.args, " "), code, errOut, tc.code, tc.want)
		}
	}
}

// TestBenchPolicyCurves runs ward bench policy briefly with added rules,
// large arguments and two caller counts, and checks that each caller count
// is a verified audited run and the added rules took part.
func TestBenchPolicyCurves(t *testing.T) {
	t.Chdir(t.TempDir())
	out, errOut, code := run(t, "", "bench", "policy", "--duration", "300ms", "--rules", "25", "--arg-bytes", "4096", "--callers", "1,8", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		EvalPerSec   float64 `json:"eval_per_sec"`
		EvalMaxNs    int64   `json:"eval_max_ns"`
		AuditedMaxNs int64   `json:"audited_max_ns"`
		Workers      int     `json:"workers"`
		ArgBytes     int     `json:"arg_bytes"`
		Audited      []struct {
			Callers      int     `json:"callers"`
			PerSec       float64 `json:"per_sec"`
			P99Ns        int64   `json:"p99_ns"`
			MaxNs        int64   `json:"max_ns"`
			Ops          int64   `json:"ops"`
			RowsVerified int64   `json:"rows_verified"`
		} `json:"audited"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(res.Audited) != 2 || res.Audited[0].Callers != 1 || res.Audited[1].Callers != 8 || res.Workers != 8 {
		t.Fatalf("audited runs %+v (workers %d), want callers 1 then 8", res.Audited, res.Workers)
	}
	for _, r := range res.Audited {
		if r.Ops == 0 || r.RowsVerified != r.Ops || r.MaxNs < r.P99Ns || r.PerSec <= 0 {
			t.Errorf("audited run %+v: want decisions, all verified, max >= p99", r)
		}
	}
	if res.EvalPerSec <= 0 || res.EvalMaxNs == 0 || res.AuditedMaxNs != res.Audited[1].MaxNs || res.ArgBytes != 4096 {
		t.Errorf("result %+v", res)
	}
}

// TestRecordedDecisionsSurviveKill streams requests into a separate ward
// process that records every decision, kills it with SIGKILL mid-stream,
// and checks that every decision it printed before dying is in the
// database.
func TestRecordedDecisionsSurviveKill(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "ward.db")
	cmd := exec.Command(os.Args[0], "policy", "check", "--record", "--db", db, "-")
	cmd.Env = append(os.Environ(), "WARD_TEST_MAIN=1")
	cmd.Dir = dir
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Feed requests continuously until the process dies.
	go func() {
		reqs := []string{reqOK, reqTooBig, reqExecDeny}
		for i := 0; ; i++ {
			if _, err := io.WriteString(stdin, reqs[i%3]+"\n"); err != nil {
				return
			}
		}
	}()
	var ids []string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("output %q: %v", sc.Text(), err)
		}
		ids = append(ids, m["id"].(string))
		if len(ids) == 300 {
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	for sc.Scan() { // drain whatever it printed before dying
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			if id, ok := m["id"].(string); ok {
				ids = append(ids, id)
			}
		}
	}
	cmd.Wait()
	if len(ids) < 300 {
		t.Fatalf("only %d decisions before the kill", len(ids))
	}
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: db})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs, err := st.QueryDecisions(t.Context(), store.DecisionFilter{})
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, r := range recs {
		have[r.ID] = true
	}
	missing := 0
	for _, id := range ids {
		if !have[id] {
			missing++
		}
	}
	if missing > 0 {
		t.Fatalf("%d of %d decisions printed before SIGKILL are not in the database", missing, len(ids))
	}
	t.Logf("%d decisions printed before the kill, all in the database (%d rows)", len(ids), len(recs))
	_ = fmt.Sprint()
}
