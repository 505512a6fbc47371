package a2a_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	spec "github.com/a2aproject/a2a-go/a2a"

	"github.com/wardhq/ward/internal/a2a"
	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/facade"
)

// stack is ward serve with the A2A surface on a free loopback port, on
// the embedded dev chain.
type stack struct {
	base   string
	srv    *daemon.Server
	agent  string
	peer   string
	owner  string
	client *http.Client
}

// mount is what daemon's mountA2A does.
func mount(s *daemon.Server) error {
	view, err := s.Stack.View(s.File.Tools)
	if err != nil {
		return err
	}
	h, err := a2a.New(a2a.Config{
		Run: func(ctx context.Context, p auth.Principal, tool string, args json.RawMessage) (json.RawMessage, error) {
			sess, err := s.Session(ctx, p, a2a.SessionID)
			if err != nil {
				return nil, err
			}
			return s.Stack.Facade.Call(ctx, sess, tool, args)
		},
		Skills: facade.Defs(view), Version: "test",
	})
	if err != nil {
		return err
	}
	h.Register(s.Mux, func(next http.Handler) http.Handler {
		return s.Authenticate(next, auth.Agent, auth.Peer, auth.Owner)
	})
	s.OnShutdown(h.Shutdown)
	return nil
}

// quarantineGas holds every gas price lookup for the owner.
const quarantineGas = `
[[policy.rules]]
id = "custom.hold-gas"
applies_to = { by = "name", names = ["data_get_gas_price"] }
when = 'true'
action = "quarantine"
reason_code = "GAS_REVIEW"
message = "gas lookups wait for the owner"
`

func start(t *testing.T, toml string) *stack {
	t.Helper()
	f, err := config.Parse("ward.toml", []byte(toml))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	var srv *daemon.Server
	go func() {
		done <- daemon.Serve(ctx, daemon.ServeConfig{Addr: "127.0.0.1:0", Data: t.TempDir(), File: f, Out: pw,
			Mount: func(s *daemon.Server) error { srv = s; return mount(s) }})
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("no ready line: %v (serve: %v)", err, <-done)
	}
	go io.Copy(io.Discard, pr)
	m := regexp.MustCompile(`ready on (http://\S+)`).FindStringSubmatch(line)
	if m == nil {
		cancel()
		t.Fatalf("ready line %q", line)
	}
	st := &stack{base: m[1], srv: srv, client: &http.Client{Timeout: 30 * time.Second}}
	t.Cleanup(func() {
		st.client.CloseIdleConnections()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	for _, r := range []struct {
		role auth.Role
		tok  *string
	}{{auth.Agent, &st.agent}, {auth.Peer, &st.peer}, {auth.Owner, &st.owner}} {
		tok, _, err := auth.Create(t.Context(), srv.Stack.Store, auth.Spec{Role: r.role, Name: "test-" + string(r.role)}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		*r.tok = tok
	}
	return st
}

// post sends body to /a2a and returns the HTTP status and body.
func (st *stack) post(t *testing.T, tok string, body []byte, header ...string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest("POST", st.base+a2a.RPCPath, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := st.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

type rpcReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// rpc calls method with params and returns the reply.
func (st *stack) rpc(t *testing.T, tok, method string, params any) rpcReply {
	t.Helper()
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "r1", "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	status, b := st.post(t, tok, body)
	if status != http.StatusOK {
		t.Fatalf("%s: HTTP %d: %s", method, status, b)
	}
	var r rpcReply
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: reply %s: %v", method, b, err)
	}
	if r.JSONRPC != "2.0" || string(r.ID) != `"r1"` {
		t.Fatalf("%s: envelope %s", method, b)
	}
	return r
}

// task calls method and decodes the task it returns with a2a-go's types.
func (st *stack) task(t *testing.T, tok, method string, params any) *spec.Task {
	t.Helper()
	r := st.rpc(t, tok, method, params)
	if r.Error != nil {
		t.Fatalf("%s: error %d %s", method, r.Error.Code, r.Error.Message)
	}
	var task spec.Task
	if err := json.Unmarshal(r.Result, &task); err != nil {
		t.Fatalf("%s: result %s: %v", method, r.Result, err)
	}
	return &task
}

// send sends one call as a data part, on taskID when set.
func (st *stack) send(t *testing.T, tok, tool string, args any, taskID spec.TaskID) *spec.Task {
	t.Helper()
	return st.task(t, tok, "message/send", callParams(tool, args, taskID))
}

func callParams(tool string, args any, taskID spec.TaskID) spec.MessageSendParams {
	m := spec.NewMessage(spec.MessageRoleUser, spec.DataPart{Data: map[string]any{"tool": tool, "arguments": args}})
	m.TaskID = taskID
	return spec.MessageSendParams{Message: m}
}

// result returns the data of a completed task's artifact.
func result(t *testing.T, task *spec.Task) map[string]any {
	t.Helper()
	if task.Status.State != spec.TaskStateCompleted {
		t.Fatalf("task %s: %s (%s)", task.ID, task.Status.State, statusText(task))
	}
	if len(task.Artifacts) != 1 || len(task.Artifacts[0].Parts) != 1 {
		t.Fatalf("artifacts: %+v", task.Artifacts)
	}
	d, ok := task.Artifacts[0].Parts[0].(spec.DataPart)
	if !ok {
		t.Fatalf("artifact part %T, want a data part", task.Artifacts[0].Parts[0])
	}
	return d.Data
}

// refusal returns the reason code of a task's status message.
func refusal(task *spec.Task) string {
	if task.Status.Message == nil {
		return ""
	}
	for _, p := range task.Status.Message.Parts {
		if d, ok := p.(spec.DataPart); ok {
			c, _ := d.Data["code"].(string)
			return c
		}
	}
	return ""
}

// statusData returns the data part of a task's status message.
func statusData(task *spec.Task) map[string]any {
	if task.Status.Message == nil {
		return nil
	}
	for _, p := range task.Status.Message.Parts {
		if d, ok := p.(spec.DataPart); ok {
			return d.Data
		}
	}
	return nil
}

func statusText(task *spec.Task) string {
	if task.Status.Message == nil {
		return ""
	}
	for _, p := range task.Status.Message.Parts {
		if tp, ok := p.(spec.TextPart); ok {
			return tp.Text
		}
	}
	return ""
}

func TestA2A(t *testing.T) {
	st := start(t, quarantineGas)
	dc := st.srv.Stack.Dev.Contracts()
	swap := map[string]any{"action_type": "swap", "venue": "uniswap_v3",
		"params": map[string]any{"token_in": dc.USDC.Hex(), "token_out": dc.WETH.Hex(), "amount_in": "10000000"}}

	t.Run("card", func(t *testing.T) {
		for _, path := range []string{a2a.CardPath, a2a.CardPathV03} {
			resp, err := st.client.Get(st.base + path)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("GET %s: %d", path, resp.StatusCode)
			}
			var card spec.AgentCard
			if err := json.Unmarshal(b, &card); err != nil {
				t.Fatalf("card %s: %v", b, err)
			}
			if card.Name != "ward" || card.URL != st.base+"/a2a" || !card.Capabilities.Streaming || card.ProtocolVersion == "" || card.Version != "test" {
				t.Errorf("card: name %q url %q (want %q) streaming %v protocol %q version %q",
					card.Name, card.URL, st.base+"/a2a", card.Capabilities.Streaming, card.ProtocolVersion, card.Version)
			}
			if s, ok := card.SecuritySchemes["bearer"].(spec.HTTPAuthSecurityScheme); !ok || !strings.EqualFold(s.Scheme, "bearer") || len(card.Security) != 1 {
				t.Errorf("security: %+v %+v", card.SecuritySchemes, card.Security)
			}
			for _, mode := range []string{"application/json", "text/plain"} {
				if !contains(card.DefaultInputModes, mode) || !contains(card.DefaultOutputModes, mode) {
					t.Errorf("modes: in %v out %v, want %s", card.DefaultInputModes, card.DefaultOutputModes, mode)
				}
			}
			var ids []string
			for _, s := range card.Skills {
				ids = append(ids, s.ID)
				if len(s.Examples) == 0 || s.Description == "" {
					t.Errorf("skill %s: no examples or description", s.ID)
				}
				for _, ex := range s.Examples {
					var part struct {
						Tool      string         `json:"tool"`
						Arguments map[string]any `json:"arguments"`
					}
					if err := json.Unmarshal([]byte(ex), &part); err != nil || part.Tool != s.ID || part.Arguments == nil {
						t.Errorf("skill %s: example %s: %v", s.ID, ex, err)
					}
				}
			}
			want := "preview_action commit_action cancel_action emergency_halt query_state search_context query_grimoire update_directive"
			if got := strings.Join(ids, " "); got != want {
				t.Errorf("skills %s, want %s", got, want)
			}
		}
	})

	t.Run("query_state completes with the data", func(t *testing.T) {
		task := st.send(t, st.agent, "query_state", map[string]any{"kind": "gate"}, "")
		data := result(t, task)
		if data["phase"] != "thriving" || data["halted"] != false {
			t.Errorf("result %v", data)
		}
		if task.ID == "" || task.ContextID == "" || len(task.History) != 1 || task.History[0].TaskID != task.ID {
			t.Errorf("task ids %q %q, history %+v", task.ID, task.ContextID, task.History)
		}
		got := st.task(t, st.agent, "tasks/get", spec.TaskQueryParams{ID: task.ID})
		if got.Status.State != spec.TaskStateCompleted || len(got.Artifacts) != 1 {
			t.Errorf("tasks/get: %s, %d artifacts", got.Status.State, len(got.Artifacts))
		}
		zero := 0
		if got := st.task(t, st.agent, "tasks/get", spec.TaskQueryParams{ID: task.ID, HistoryLength: &zero}); len(got.History) != 0 {
			t.Errorf("historyLength 0: %d messages", len(got.History))
		}
	})

	t.Run("a text part carrying the call", func(t *testing.T) {
		m := spec.NewMessage(spec.MessageRoleUser, spec.TextPart{Text: "please:"}, spec.TextPart{Text: `{"tool":"query_state","arguments":{"kind":"gate"}}`})
		task := st.task(t, st.agent, "message/send", spec.MessageSendParams{Message: m})
		result(t, task)
	})

	t.Run("preview then commit a swap", func(t *testing.T) {
		pv := result(t, st.send(t, st.agent, "preview_action", swap, ""))
		permit, _ := pv["permit_id"].(string)
		if permit == "" {
			t.Fatalf("preview: no permit_id in %v", pv)
		}
		wallet := st.srv.Stack.Wallet.Address()
		before, err := st.srv.Stack.Provider.TokenBalance(t.Context(), dc.WETH, wallet)
		if err != nil {
			t.Fatal(err)
		}
		cm := result(t, st.send(t, st.agent, "commit_action", map[string]any{"permit_id": permit}, ""))
		if cm["is_error"] != false || cm["ground_truth_source"] == nil {
			t.Errorf("commit result %v", cm)
		}
		after, err := st.srv.Stack.Provider.TokenBalance(t.Context(), dc.WETH, wallet)
		if err != nil {
			t.Fatal(err)
		}
		if after.Cmp(before) <= 0 {
			t.Errorf("WETH %v before the commit, %v after", before, after)
		}
		again := st.send(t, st.agent, "commit_action", map[string]any{"permit_id": permit}, "")
		if again.Status.State != spec.TaskStateFailed || refusal(again) != "PERMIT_ALREADY_CONSUMED" {
			t.Errorf("second commit: %s %s", again.Status.State, refusal(again))
		}
	})

	t.Run("refusals fail the task with their code", func(t *testing.T) {
		for _, tc := range []struct {
			name, tok, tool string
			args            any
			code            string
		}{
			{"unknown tool", st.agent, "launch_missiles", map[string]any{}, "TOOL_NOT_AVAILABLE"},
			{"schema", st.agent, "query_state", map[string]any{"kind": 5}, "SCHEMA_VIOLATION"},
			{"peer authority", st.peer, "preview_action", swap, "AUTHORITY_INSUFFICIENT"},
			{"forged permit", st.agent, "commit_action", map[string]any{"permit_id": "01JD3K7ZQ4Y7K3M9XW2V5T8R00"}, "PERMIT_NOT_FOUND"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				task := st.send(t, tc.tok, tc.tool, tc.args, "")
				if task.Status.State != spec.TaskStateFailed || refusal(task) != tc.code {
					t.Errorf("%s %s (%s), want failed %s", task.Status.State, refusal(task), statusText(task), tc.code)
				}
				if len(task.Artifacts) != 0 {
					t.Errorf("a failed task has artifacts: %+v", task.Artifacts)
				}
			})
		}
	})

	t.Run("peers read with peer authority", func(t *testing.T) {
		result(t, st.send(t, st.peer, "query_state", map[string]any{"kind": "gate"}, ""))
		result(t, st.send(t, st.owner, "query_state", map[string]any{"kind": "gate"}, ""))
	})

	t.Run("a quarantined call waits for the owner", func(t *testing.T) {
		gas := map[string]any{"kind": "gas"}
		held := func(t *testing.T) (*spec.Task, string) {
			t.Helper()
			task := st.send(t, st.agent, "search_context", gas, "")
			if task.Status.State != spec.TaskStateInputRequired || refusal(task) != "GAS_REVIEW" {
				t.Fatalf("%s %s (%s), want input-required GAS_REVIEW", task.Status.State, refusal(task), statusText(task))
			}
			item, _ := statusData(task)["quarantine_id"].(string)
			if item == "" {
				t.Fatalf("no quarantine_id in %+v", statusData(task))
			}
			return task, item
		}
		get := func(t *testing.T, task *spec.Task) *spec.Task {
			t.Helper()
			return st.task(t, st.agent, "tasks/get", spec.TaskQueryParams{ID: task.ID})
		}

		t.Run("approved: completes with the call's result", func(t *testing.T) {
			task, item := held(t)
			if got := get(t, task); got.Status.State != spec.TaskStateInputRequired {
				t.Fatalf("before the review: %s", got.Status.State)
			}
			// A message on the task checks on it; it carries no call.
			check := spec.NewMessage(spec.MessageRoleUser, spec.TextPart{Text: "any news?"})
			check.TaskID = task.ID
			again := st.task(t, st.agent, "message/send", spec.MessageSendParams{Message: check})
			if again.ID != task.ID || again.Status.State != spec.TaskStateInputRequired || len(again.History) != 2 {
				t.Errorf("check: %s %s, %d messages", again.ID, again.Status.State, len(again.History))
			}
			// Another token cannot see or cancel it.
			if r := st.rpc(t, st.peer, "tasks/cancel", spec.TaskIDParams{ID: task.ID}); r.Error == nil || r.Error.Code != -32001 {
				t.Errorf("peer cancels the agent's task: %+v", r.Error)
			}
			if _, err := st.srv.Stack.Tools.Approve(t.Context(), item, "owner", ""); err != nil {
				t.Fatal(err)
			}
			data := result(t, get(t, task))
			if len(data) == 0 {
				t.Errorf("approved result empty")
			}
		})

		t.Run("canceled", func(t *testing.T) {
			task, _ := held(t)
			canceled := st.task(t, st.agent, "tasks/cancel", spec.TaskIDParams{ID: task.ID})
			if canceled.Status.State != spec.TaskStateCanceled {
				t.Errorf("cancel: %s", canceled.Status.State)
			}
			if r := st.rpc(t, st.agent, "tasks/cancel", spec.TaskIDParams{ID: task.ID}); r.Error == nil || r.Error.Code != -32002 {
				t.Errorf("cancel a canceled task: %+v", r.Error)
			}
			check := spec.NewMessage(spec.MessageRoleUser, spec.TextPart{Text: "any news?"})
			check.TaskID = task.ID
			if r := st.rpc(t, st.agent, "message/send", spec.MessageSendParams{Message: check}); r.Error == nil || r.Error.Code != -32602 {
				t.Errorf("send on a canceled task: %+v", r.Error)
			}
		})

		// Rejected last: the owner's rejection refuses the same call from
		// then on (REJECTED_BY_OWNER), so it cannot be held again.
		t.Run("rejected: fails", func(t *testing.T) {
			task, item := held(t)
			if _, err := st.srv.Stack.Tools.Reject(t.Context(), item, "owner", "no"); err != nil {
				t.Fatal(err)
			}
			got := get(t, task)
			if got.Status.State != spec.TaskStateFailed || refusal(got) != "GAS_REVIEW" || statusData(got)["review"] != "rejected" {
				t.Errorf("%s %v", got.Status.State, statusData(got))
			}
		})
	})

	t.Run("tasks/get and tasks/cancel errors", func(t *testing.T) {
		done := st.send(t, st.agent, "query_state", map[string]any{"kind": "gate"}, "")
		for _, tc := range []struct {
			name, tok, method string
			params            any
			code              int
		}{
			{"unknown task", st.agent, "tasks/get", spec.TaskQueryParams{ID: "nope"}, -32001},
			{"another token's task", st.peer, "tasks/get", spec.TaskQueryParams{ID: done.ID}, -32001},
			{"cancel a completed task", st.agent, "tasks/cancel", spec.TaskIDParams{ID: done.ID}, -32002},
			{"cancel an unknown task", st.agent, "tasks/cancel", spec.TaskIDParams{ID: "nope"}, -32001},
			{"send a call on a task", st.agent, "message/send", callParams("query_state", map[string]any{"kind": "gate"}, done.ID), -32602},
			{"check on a completed task", st.agent, "message/send", spec.MessageSendParams{Message: &spec.Message{ID: "m", Role: spec.MessageRoleUser, TaskID: done.ID, Parts: spec.ContentParts{spec.TextPart{Text: "?"}}}}, -32602},
			{"check on an unknown task", st.agent, "message/send", spec.MessageSendParams{Message: &spec.Message{ID: "m", Role: spec.MessageRoleUser, TaskID: "nope", Parts: spec.ContentParts{spec.TextPart{Text: "?"}}}}, -32001},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := st.rpc(t, tc.tok, tc.method, tc.params)
				if r.Error == nil || r.Error.Code != tc.code {
					t.Errorf("got %+v (result %s), want code %d", r.Error, r.Result, tc.code)
				}
			})
		}
	})

	t.Run("message/stream", func(t *testing.T) {
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "message/stream",
			"params": callParams("query_state", map[string]any{"kind": "gate"}, "")})
		events := st.stream(t, body)
		var kinds []string
		var id spec.TaskID
		for _, ev := range events {
			switch ev := ev.(type) {
			case *spec.Task:
				kinds = append(kinds, "task:"+string(ev.Status.State))
				id = ev.ID
			case *spec.TaskStatusUpdateEvent:
				kinds = append(kinds, fmt.Sprintf("status:%s:%v", ev.Status.State, ev.Final))
			case *spec.TaskArtifactUpdateEvent:
				kinds = append(kinds, "artifact")
			}
		}
		want := "task:submitted status:working:false artifact status:completed:true"
		if got := strings.Join(kinds, " "); got != want {
			t.Errorf("events %s, want %s", got, want)
		}
		body, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 8, "method": "tasks/resubscribe", "params": spec.TaskIDParams{ID: id}})
		if ev := st.stream(t, body); len(ev) != 2 {
			t.Errorf("resubscribe to a completed task: %d events", len(ev))
		}
	})

	t.Run("concurrent calls", func(t *testing.T) {
		var wg sync.WaitGroup
		errs := make(chan string, 32)
		for i := range 32 {
			tok := st.agent
			if i%2 == 1 {
				tok = st.peer
			}
			wg.Go(func() {
				body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i, "method": "message/send",
					"params": callParams("query_state", map[string]any{"kind": "gate"}, "")})
				req, _ := http.NewRequest("POST", st.base+"/a2a", bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+tok)
				resp, err := st.client.Do(req)
				if err != nil {
					errs <- err.Error()
					return
				}
				defer resp.Body.Close()
				var r struct {
					Result spec.Task `json:"result"`
				}
				if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || r.Result.Status.State != spec.TaskStateCompleted {
					errs <- fmt.Sprintf("call %d: %v %s", i, err, r.Result.Status.State)
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	})
}

// stream posts a streaming request and decodes its events.
func (st *stack) stream(t *testing.T, body []byte) []spec.Event {
	t.Helper()
	req, _ := http.NewRequest("POST", st.base+"/a2a", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+st.agent)
	resp, err := st.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var out []spec.Event
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var r rpcReply
		if err := json.Unmarshal([]byte(data), &r); err != nil || r.Error != nil {
			t.Fatalf("event %s: %v", data, err)
		}
		ev, err := spec.UnmarshalEventJSON(r.Result)
		if err != nil {
			t.Fatalf("event %s: %v", r.Result, err)
		}
		out = append(out, ev)
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestBadInput sends what a confused or hostile client might: each gets a
// clear 4xx or JSON-RPC error, and the server answers normally afterwards.
func TestBadInput(t *testing.T) {
	st := start(t, "")
	send := func(parts string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":` + parts + `}}}`
	}
	for _, tc := range []struct {
		name, body, tok, ctype string
		status, code           int
	}{
		{name: "malformed JSON", body: `{"jsonrpc":"2.0","id":1,"method":`, code: -32700},
		{name: "not JSON at all", body: `hello`, code: -32700},
		{name: "empty body", body: ``, code: -32700},
		{name: "wrong version", body: `{"jsonrpc":"1.0","id":1,"method":"tasks/get","params":{"id":"x"}}`, code: -32600},
		{name: "no version", body: `{"id":1,"method":"tasks/get","params":{"id":"x"}}`, code: -32600},
		{name: "no id (notification)", body: `{"jsonrpc":"2.0","method":"tasks/get","params":{"id":"x"}}`, code: -32600},
		{name: "object id", body: `{"jsonrpc":"2.0","id":{},"method":"tasks/get","params":{"id":"x"}}`, code: -32600},
		{name: "method not a string", body: `{"jsonrpc":"2.0","id":1,"method":5}`, code: -32600},
		{name: "batch", body: `[{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x"}}]`, code: -32600},
		{name: "a JSON string", body: `"tasks/get"`, code: -32600},
		{name: "unknown method", body: `{"jsonrpc":"2.0","id":1,"method":"tasks/delete","params":{}}`, code: -32601},
		{name: "push config", body: `{"jsonrpc":"2.0","id":1,"method":"tasks/pushNotificationConfig/set","params":{}}`, code: -32003},
		{name: "extended card", body: `{"jsonrpc":"2.0","id":1,"method":"agent/getAuthenticatedExtendedCard"}`, code: -32007},
		{name: "id of the wrong type", body: `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":5}}`, code: -32602},
		{name: "params an array", body: `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":["x"]}`, code: -32602},
		{name: "no params", body: `{"jsonrpc":"2.0","id":1,"method":"tasks/cancel"}`, code: -32602},
		{name: "negative history", body: `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x","historyLength":-1}}`, code: -32602},
		{name: "no message", body: `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{}}`, code: -32602},
		{name: "message a string", body: `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":"hi"}}`, code: -32602},
		{name: "parts a string", body: send(`"x"`), code: -32602},
		{name: "no parts", body: send(`[]`), code: -32602},
		{name: "no call", body: send(`[{"kind":"text","text":"what is the gas price?"}]`), code: -32602},
		{name: "two calls", body: send(`[{"kind":"data","data":{"tool":"query_state"}},{"kind":"data","data":{"tool":"query_state"}}]`), code: -32602},
		{name: "unknown part kind", body: send(`[{"kind":"video"}]`), code: -32602},
		{name: "file part", body: send(`[{"kind":"file","file":{"uri":"http://x"}}]`), code: -32602},
		{name: "data not an object", body: send(`[{"kind":"data","data":[1]}]`), code: -32602},
		{name: "tool a number", body: send(`[{"kind":"data","data":{"tool":5}}]`), code: -32602},
		{name: "tool not a name", body: send(`[{"kind":"data","data":{"tool":"../../etc"}}]`), code: -32602},
		{name: "arguments an array", body: send(`[{"kind":"data","data":{"tool":"query_state","arguments":[]}}]`), code: -32602},
		{name: "text of the wrong type", body: send(`[{"kind":"text","text":5}]`), code: -32602},
		{name: "agent role", body: `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"messageId":"m","role":"agent","parts":[{"kind":"data","data":{"tool":"query_state"}}]}}}`, code: -32602},
		{name: "no message id", body: `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"role":"user","parts":[{"kind":"data","data":{"tool":"query_state"}}]}}}`, code: -32602},
		{name: "push config on send", body: `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"configuration":{"pushNotificationConfig":{"url":"http://x"}},"message":{"messageId":"m","role":"user","parts":[{"kind":"data","data":{"tool":"query_state"}}]}}}`, code: -32003},
		{name: "output modes ward cannot give", body: `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"configuration":{"acceptedOutputModes":["image/png"]},"message":{"messageId":"m","role":"user","parts":[{"kind":"data","data":{"tool":"query_state"}}]}}}`, code: -32005},
		{name: "oversized message", body: send(`[{"kind":"text","text":"` + strings.Repeat("a", 70<<10) + `"}]`), code: -32602},
		{name: "oversized body", body: `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"` + strings.Repeat("a", 2<<20) + `"}}`, status: 413},
		{name: "not JSON content", body: `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x"}}`, ctype: "text/plain", status: 415},
		{name: "no token", body: `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x"}}`, tok: "-", status: 401},
		{name: "invalid token", body: `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x"}}`, tok: "ward_" + strings.Repeat("x", 43), status: 401},
		{name: "malformed token", body: `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x"}}`, tok: "Basic abc", status: 401},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tok := st.agent
			switch tc.tok {
			case "":
			case "-":
				tok = ""
			default:
				tok = tc.tok
			}
			ctype := "application/json"
			if tc.ctype != "" {
				ctype = tc.ctype
			}
			status, b := st.post(t, tok, []byte(tc.body), "Content-Type", ctype)
			want := tc.status
			if want == 0 {
				want = 200
			}
			if status != want {
				t.Fatalf("HTTP %d, want %d: %s", status, want, b)
			}
			if tc.code == 0 {
				return
			}
			var r rpcReply
			if err := json.Unmarshal(b, &r); err != nil || r.JSONRPC != "2.0" || r.Error == nil || r.Result != nil {
				t.Fatalf("reply %s: %v", b, err)
			}
			if r.Error.Code != tc.code || r.Error.Message == "" {
				t.Errorf("error %d %q, want %d", r.Error.Code, r.Error.Message, tc.code)
			}
			if strings.Contains(r.Error.Message, "json:") || strings.Contains(r.Error.Message, "Go ") {
				t.Errorf("error message leaks a decoder's text: %q", r.Error.Message)
			}
		})
	}
	t.Run("GET /a2a", func(t *testing.T) {
		resp, err := st.client.Get(st.base + "/a2a")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("HTTP %d, want 405", resp.StatusCode)
		}
	})
	t.Run("the server still answers", func(t *testing.T) {
		result(t, st.send(t, st.agent, "query_state", map[string]any{"kind": "gate"}, ""))
	})
}

// TestSlowClient: a client that sends half a request and stalls does not
// hold up the others.
func TestSlowClient(t *testing.T) {
	st := start(t, "")
	conn, err := net.Dial("tcp", strings.TrimPrefix(st.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /a2a HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":", st.agent)
	for range 3 {
		result(t, st.send(t, st.agent, "query_state", map[string]any{"kind": "gate"}, ""))
	}
}

// TestServeShutdownWaitsForCalls: ward serve shuts down while an A2A call
// runs detached from its request (the client gave up): the A2A surface
// holds the shutdown until the call has run through the real gate, which
// audits it in the store, and the store closes only after that (a call
// against a closed store would fail).
func TestServeShutdownWaitsForCalls(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	var callErr error
	called := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan *daemon.Server, 1)
	done := make(chan error, 1)
	go func() {
		done <- daemon.Serve(ctx, daemon.ServeConfig{Addr: "127.0.0.1:0", Data: t.TempDir(),
			Ready: func(s *daemon.Server) { ready <- s },
			Mount: func(s *daemon.Server) error {
				// Registered first, this runs once shutdown has begun and
				// before the A2A surface's Shutdown: the call is let go then.
				s.OnShutdown(func(context.Context) error { close(release); return nil })
				h, err := a2a.New(a2a.Config{Run: func(ctx context.Context, p auth.Principal, tool string, args json.RawMessage) (json.RawMessage, error) {
					close(started)
					<-release
					defer close(called)
					sess, err := s.Session(ctx, p, a2a.SessionID)
					if err != nil {
						callErr = err
						return nil, err
					}
					var res json.RawMessage
					res, callErr = s.Stack.Facade.Call(ctx, sess, tool, args)
					return res, callErr
				}})
				if err != nil {
					return err
				}
				h.Register(s.Mux, func(next http.Handler) http.Handler { return s.Authenticate(next, auth.Agent) })
				s.OnShutdown(h.Shutdown)
				s.OnShutdown(func(context.Context) error {
					select {
					case <-called:
					default:
						t.Error("the A2A surface's Shutdown returned before its call ended")
					}
					return nil
				})
				return nil
			}})
	}()
	var srv *daemon.Server
	select {
	case srv = <-ready:
	case err := <-done:
		t.Fatalf("serve: %v", err)
	}
	tok, _, err := auth.Create(t.Context(), srv.Stack.Store, auth.Spec{Role: auth.Agent, Name: "test-agent"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": callParams("query_state", map[string]any{"kind": "gate"}, "")})
	reqCtx, hangUp := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(reqCtx, "POST", srv.URL+a2a.RPCPath, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	hangUp()
	<-answered
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
	select {
	case <-called:
	default:
		t.Fatal("serve returned before the A2A call ran")
	}
	if callErr != nil {
		t.Errorf("the call ran against a closing stack: %v", callErr)
	}
}
