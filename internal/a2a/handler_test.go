package a2a

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	spec "github.com/a2aproject/a2a-go/a2a"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/reason"
)

// These tests run the handler over a fake gate; a2a_test.go runs it over
// the real stack.

var alice = auth.Principal{ID: "a11ce0000000", Role: auth.Peer}

func newHandler(t testing.TB, run RunFunc) *Handler {
	t.Helper()
	h, err := New(Config{Run: run})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// serve runs h on a test server whose requests are alice's.
func serve(t *testing.T, h *Handler) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(auth.WithPrincipal(r.Context(), alice)))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func body(method string, params any) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	return b
}

func sendParams(tool string, args any) spec.MessageSendParams {
	return spec.MessageSendParams{Message: spec.NewMessage(spec.MessageRoleUser, spec.DataPart{Data: map[string]any{"tool": tool, "arguments": args}})}
}

// wireError is a JSON-RPC error object as a client reads it.
type wireError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    struct {
		Error string `json:"error"`
	} `json:"data"`
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *wireError      `json:"error"`
}

// do serves one request as alice, in the calling goroutine.
func do(t *testing.T, h *Handler, b []byte) (spec.Task, *wireError) {
	t.Helper()
	rec := httptest.NewRecorder()
	r := httptest.NewRequest("POST", RPCPath, bytes.NewReader(b))
	h.ServeHTTP(rec, r.WithContext(auth.WithPrincipal(r.Context(), alice)))
	var rp reply
	if err := json.Unmarshal(rec.Body.Bytes(), &rp); err != nil {
		t.Fatalf("reply %s: %v", rec.Body.Bytes(), err)
	}
	var task spec.Task
	if rp.Error == nil {
		if err := json.Unmarshal(rp.Result, &task); err != nil {
			t.Fatalf("result %s: %v", rp.Result, err)
		}
	}
	return task, rp.Error
}

func TestNoPrincipalIs401(t *testing.T) {
	h := newHandler(t, func(context.Context, auth.Principal, string, json.RawMessage) (json.RawMessage, error) {
		t.Error("a call ran without a principal")
		return nil, nil
	})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", RPCPath, bytes.NewReader(body("message/send", sendParams("query_state", map[string]any{})))))
	if rec.Code != http.StatusUnauthorized {
		t.Errorf("HTTP %d, want 401", rec.Code)
	}
}

// TestOversizedBodyWithoutLength: a body with no Content-Length is cut at
// maxBody all the same.
func TestOversizedBodyWithoutLength(t *testing.T) {
	h := newHandler(t, fakeGate)
	rec := httptest.NewRecorder()
	big := io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"`), strings.NewReader(strings.Repeat("a", maxBody)))
	r := httptest.NewRequest("POST", RPCPath, big)
	if r.ContentLength != -1 {
		t.Fatalf("content length %d, want unknown", r.ContentLength)
	}
	h.ServeHTTP(rec, r.WithContext(auth.WithPrincipal(r.Context(), alice)))
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), `"code":-32600`) {
		t.Errorf("HTTP %d: %s", rec.Code, rec.Body.String())
	}
}

// TestOutcomes: what the gate returns becomes the task's state, and only
// the agent-safe part of an error reaches the client.
func TestOutcomes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		res    string
		err    error
		modes  []string
		state  spec.TaskState
		code   string
		part   string // the artifact part's kind
		absent string // text that must not be in the reply
	}{
		{name: "object result", res: `{"big":123456789012345678901234567890}`, state: spec.TaskStateCompleted, part: "data:123456789012345678901234567890"},
		{name: "array result", res: `[1,2]`, state: spec.TaskStateCompleted, part: "data:result"},
		{name: "text only", res: `{"a":1}`, modes: []string{"text/plain"}, state: spec.TaskStateCompleted, part: `text:{"a":1}`},
		{name: "oversized result", res: `"` + strings.Repeat("x", maxResult) + `"`, state: spec.TaskStateCompleted, part: "text:larger than"},
		{name: "refusal", err: &gate.Refusal{Code: reason.SpendTickLimit, Message: "over the limit", Detail: "SECRET-DETAIL"},
			state: spec.TaskStateFailed, code: "SPEND_PER_TICK_LIMIT_EXCEEDED", absent: "SECRET-DETAIL"},
		{name: "quarantine", err: &gate.Refusal{Code: reason.ConfirmationRequired, Message: "held", Stage: "policy", Quarantine: "01JD3K7ZQ4Y7K3M9XW2V5T8R00", Detail: "SECRET-DETAIL"},
			state: spec.TaskStateInputRequired, code: "CONFIRMATION_REQUIRED", absent: "SECRET-DETAIL"},
		{name: "quarantine not queued", err: &gate.Refusal{Code: reason.ConfirmationRequired, Message: "held; not queued", Stage: "policy"},
			state: spec.TaskStateFailed, code: "CONFIRMATION_REQUIRED"},
		{name: "internal error", err: fmt.Errorf("open /var/lib/SECRET-PATH: %w", errors.New("disk")),
			state: spec.TaskStateFailed, code: "EXECUTION_FAILED", absent: "SECRET-PATH"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHandler(t, func(_ context.Context, p auth.Principal, tool string, args json.RawMessage) (json.RawMessage, error) {
				if p != alice || tool != "query_state" || string(args) != `{"kind":"gate"}` {
					t.Errorf("run %v %s %s", p, tool, args)
				}
				if tc.err != nil {
					return nil, tc.err
				}
				return json.RawMessage(tc.res), nil
			})
			params := sendParams("query_state", map[string]any{"kind": "gate"})
			params.Config = &spec.MessageSendConfig{AcceptedOutputModes: tc.modes}
			rec := httptest.NewRecorder()
			r := httptest.NewRequest("POST", RPCPath, bytes.NewReader(body("message/send", params)))
			h.ServeHTTP(rec, r.WithContext(auth.WithPrincipal(r.Context(), alice)))
			if tc.absent != "" && strings.Contains(rec.Body.String(), tc.absent) {
				t.Errorf("reply carries %q: %s", tc.absent, rec.Body.String())
			}
			var rp reply
			var task spec.Task
			if err := json.Unmarshal(rec.Body.Bytes(), &rp); err != nil || rp.Error != nil || json.Unmarshal(rp.Result, &task) != nil {
				t.Fatalf("reply %.300s: %v", rec.Body.String(), err)
			}
			if task.Status.State != tc.state {
				t.Errorf("state %s, want %s", task.Status.State, tc.state)
			}
			var code string
			for _, p := range task.Status.Message.Parts {
				if d, ok := p.(spec.DataPart); ok {
					code, _ = d.Data["code"].(string)
				}
			}
			if code != tc.code {
				t.Errorf("code %q, want %q", code, tc.code)
			}
			if tc.part == "" {
				if len(task.Artifacts) != 0 {
					t.Errorf("artifacts %+v", task.Artifacts)
				}
				return
			}
			if len(task.Artifacts) != 1 || len(task.Artifacts[0].Parts) != 1 {
				t.Fatalf("artifacts %+v", task.Artifacts)
			}
			kind, want, _ := strings.Cut(tc.part, ":")
			switch p := task.Artifacts[0].Parts[0].(type) {
			case spec.DataPart:
				// The reply, not a2a-go's float64 decoding of it, keeps numbers exact.
				if kind != "data" || !strings.Contains(rec.Body.String(), want) {
					t.Errorf("data part %v, want %s", p.Data, tc.part)
				}
			case spec.TextPart:
				if kind != "text" || !strings.Contains(p.Text, want) {
					t.Errorf("text part %.100s, want %s", p.Text, tc.part)
				}
			}
		})
	}
}

// TestCancelWorking: tasks/cancel stops a working call; a call that
// finishes anyway stays completed, and the cancel is refused as A2A says
// (-32002 TaskNotCancelable: the task ended, and not canceled).
func TestCancelWorking(t *testing.T) {
	for _, tc := range []struct {
		name     string
		finish   bool // the call ignores the cancellation and succeeds
		want     spec.TaskState
		wantCode int // of tasks/cancel; 0: it returns the canceled task
	}{
		{"stopped", false, spec.TaskStateCanceled, 0},
		{"too late", true, spec.TaskStateCompleted, -32002},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHandler(t, func(ctx context.Context, _ auth.Principal, _ string, _ json.RawMessage) (json.RawMessage, error) {
				<-ctx.Done()
				if tc.finish {
					return json.RawMessage(`{"ok":true}`), nil
				}
				return nil, ctx.Err()
			})
			srv := serve(t, h)
			resp, err := http.Post(srv.URL, "application/json", bytes.NewReader(body("message/stream", sendParams("query_state", map[string]any{"kind": "gate"}))))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			events := sseEvents(t, resp)
			first := <-events
			task, ok := first.(*spec.Task)
			if !ok || task.Status.State != spec.TaskStateSubmitted {
				t.Fatalf("first event %#v", first)
			}
			if ev := <-events; ev.(*spec.TaskStatusUpdateEvent).Status.State != spec.TaskStateWorking {
				t.Fatalf("second event %#v", ev)
			}
			// The task is working: cancel it from another request.
			rec := httptest.NewRecorder()
			r := httptest.NewRequest("POST", RPCPath, bytes.NewReader(body("tasks/cancel", spec.TaskIDParams{ID: task.ID})))
			h.ServeHTTP(rec, r.WithContext(auth.WithPrincipal(r.Context(), alice)))
			var rp reply
			if json.Unmarshal(rec.Body.Bytes(), &rp) != nil {
				t.Fatalf("cancel: %s", rec.Body.String())
			}
			var got spec.Task
			switch {
			case tc.wantCode != 0:
				if rp.Error == nil || rp.Error.Code != tc.wantCode {
					t.Errorf("tasks/cancel: %s, want error %d", rec.Body.String(), tc.wantCode)
				}
			case rp.Error != nil || json.Unmarshal(rp.Result, &got) != nil || got.Status.State != spec.TaskStateCanceled:
				t.Errorf("tasks/cancel: %s, want the canceled task", rec.Body.String())
			}
			var last spec.Event
			for ev := range events {
				last = ev
			}
			if su, ok := last.(*spec.TaskStatusUpdateEvent); !ok || !su.Final || su.Status.State != tc.want {
				t.Errorf("last event %#v, want final %s", last, tc.want)
			}
		})
	}
}

// sseEvents decodes a stream's events as they arrive.
func sseEvents(t *testing.T, resp *http.Response) <-chan spec.Event {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	out := make(chan spec.Event, 16)
	var wg sync.WaitGroup
	t.Cleanup(wg.Wait)
	wg.Go(func() {
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var rp reply
			if err := json.Unmarshal([]byte(data), &rp); err != nil || rp.Error != nil {
				t.Errorf("event %s: %v", data, err)
				return
			}
			ev, err := spec.UnmarshalEventJSON(rp.Result)
			if err != nil {
				t.Errorf("event %s: %v", rp.Result, err)
				return
			}
			out <- ev
		}
	})
	return out
}

// TestStreamEndsItsGoroutine: the goroutine a stream writes from is gone
// when the request returns.
func TestStreamEndsItsGoroutine(t *testing.T) {
	h := newHandler(t, func(context.Context, auth.Principal, string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{}`), nil
	})
	before := runtime.NumGoroutine()
	for range 20 {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("POST", RPCPath, bytes.NewReader(body("message/stream", sendParams("query_state", map[string]any{"kind": "gate"}))))
		h.ServeHTTP(rec, r.WithContext(auth.WithPrincipal(r.Context(), alice)))
		if n := strings.Count(rec.Body.String(), "data: "); n != 4 {
			t.Fatalf("%d events: %s", n, rec.Body.String())
		}
	}
	// Other goroutines of the process (the runtime's, earlier tests'
	// finishing) come and go: a leak is one goroutine per stream, so the
	// count must settle well below before+20.
	after := runtime.NumGoroutine()
	for deadline := time.Now().Add(2 * time.Second); after > before+5 && time.Now().Before(deadline); after = runtime.NumGoroutine() {
		time.Sleep(10 * time.Millisecond)
	}
	if after > before+5 {
		t.Errorf("%d goroutines after 20 streams, %d before", after, before)
	}
}

// as is a context carrying p.
func as(p auth.Principal) context.Context {
	return auth.WithPrincipal(context.Background(), p)
}

// TestTaskStoreEvicts: the oldest final tasks go first, then the oldest
// waiting for input; working tasks never.
func TestTaskStoreEvicts(t *testing.T) {
	s := newTaskStore(3, 1<<20)
	ctx := as(alice)
	add := func(id string, state spec.TaskState) {
		t.Helper()
		if err := s.Save(ctx, &spec.Task{ID: spec.TaskID(id), Status: spec.TaskStatus{State: state}}); err != nil {
			t.Fatalf("save %s: %v", id, err)
		}
	}
	has := func(ids ...string) {
		t.Helper()
		var got []string
		for _, id := range []string{"a", "b", "c", "d", "e", "f", "g"} {
			if _, err := s.Get(ctx, spec.TaskID(id)); err == nil {
				got = append(got, id)
			}
		}
		if strings.Join(got, "") != strings.Join(ids, "") {
			t.Errorf("kept %v, want %v", got, ids)
		}
	}
	add("a", spec.TaskStateCompleted)
	add("b", spec.TaskStateInputRequired)
	add("c", spec.TaskStateFailed)
	has("a", "b", "c")
	add("d", spec.TaskStateWorking) // evicts a, the oldest final task
	has("b", "c", "d")
	add("e", spec.TaskStateWorking) // evicts c: b is older but waits for input
	has("b", "d", "e")
	if !s.room() {
		t.Error("no room with a task waiting for input to evict")
	}
	add("f", spec.TaskStateWorking) // only b is not working
	has("d", "e", "f")
	if s.room() {
		t.Error("room with only working tasks")
	}
}

// TestTaskStoreOwners: a task is its first saver's; another principal,
// or no principal, neither reads nor overwrites it.
func TestTaskStoreOwners(t *testing.T) {
	s := newTaskStore(10, 1<<20)
	bob := auth.Principal{ID: "b0b000000000", Role: auth.Peer}
	if err := s.Save(as(alice), &spec.Task{ID: "t", Status: spec.TaskStatus{State: spec.TaskStateWorking}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		ctx  context.Context
	}{{"another principal", as(bob)}, {"no principal", context.Background()}} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := s.Get(tc.ctx, "t"); !errors.Is(err, spec.ErrTaskNotFound) {
				t.Errorf("get: %v, want ErrTaskNotFound", err)
			}
			if err := s.Save(tc.ctx, &spec.Task{ID: "t", Status: spec.TaskStatus{State: spec.TaskStateCanceled}}); !errors.Is(err, spec.ErrTaskNotFound) {
				t.Errorf("save: %v, want ErrTaskNotFound", err)
			}
		})
	}
	if got, err := s.Get(as(alice), "t"); err != nil || got.Status.State != spec.TaskStateWorking {
		t.Errorf("the owner's task: %v %v", got, err)
	}
}

func TestTaskStoreBytes(t *testing.T) {
	s := newTaskStore(100, 3*(entryOverhead+200))
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		task := &spec.Task{ID: spec.TaskID(id), Status: spec.TaskStatus{State: spec.TaskStateCompleted},
			History: []*spec.Message{{ID: "m", Parts: spec.ContentParts{spec.TextPart{Text: strings.Repeat("x", 100)}}}}}
		if err := s.Save(as(alice), task); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.len(); n != 3 {
		t.Errorf("%d tasks kept, want 3 within the byte budget", n)
	}
	if s.bytes > s.maxBytes {
		t.Errorf("%d bytes kept, budget %d", s.bytes, s.maxBytes)
	}
}

// TestOtherPrincipalsTask: every method that names a task answers
// another principal's task exactly as a task id that never existed, and
// records both as failed lookups.
func TestOtherPrincipalsTask(t *testing.T) {
	lk := &lookups{}
	h, err := New(Config{Run: func(ctx context.Context, _ auth.Principal, tool string, _ json.RawMessage) (json.RawMessage, error) {
		if tool == "hold_me" {
			return fakeGate(ctx, alice, tool, nil)
		}
		return json.RawMessage(`{"status":"pending","id":"01JD3K7ZQ4Y7K3M9XW2V5T8R00"}`), nil
	}, Lookups: lk})
	if err != nil {
		t.Fatal(err)
	}
	held, rerr := do(t, h, body("message/send", sendParams("hold_me", map[string]any{})))
	if rerr != nil || held.Status.State != spec.TaskStateInputRequired {
		t.Fatalf("held: %+v %s", rerr, held.Status.State)
	}
	bob := auth.Principal{ID: "b0b000000000", Role: auth.Peer}
	answer := func(p auth.Principal, method string, params any) string {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("POST", RPCPath, bytes.NewReader(body(method, params)))
		h.ServeHTTP(rec, r.WithContext(auth.WithPrincipal(r.Context(), p)))
		b := rec.Body.String()
		if _, data, ok := strings.Cut(b, "data: "); ok {
			b = data
		}
		var rp reply
		if json.Unmarshal([]byte(b), &rp) != nil || rp.Error == nil {
			return "no error: " + rec.Body.String()
		}
		return fmt.Sprintf("%d %d %s %s", rec.Code, rp.Error.Code, rp.Error.Message, rp.Error.Data.Error)
	}
	check := func(id spec.TaskID) spec.MessageSendParams {
		m := spec.NewMessage(spec.MessageRoleUser, spec.TextPart{Text: "any news?"})
		m.TaskID = id
		return spec.MessageSendParams{Message: m}
	}
	for _, tc := range []struct {
		method string
		params func(spec.TaskID) any
	}{
		{"tasks/get", func(id spec.TaskID) any { return spec.TaskQueryParams{ID: id} }},
		{"tasks/cancel", func(id spec.TaskID) any { return spec.TaskIDParams{ID: id} }},
		{"tasks/resubscribe", func(id spec.TaskID) any { return spec.TaskIDParams{ID: id} }},
		{"message/send", func(id spec.TaskID) any { return check(id) }},
		{"message/stream", func(id spec.TaskID) any { return check(id) }},
	} {
		t.Run(tc.method, func(t *testing.T) {
			before := lk.failed
			theirs, unknown := answer(bob, tc.method, tc.params(held.ID)), answer(bob, tc.method, tc.params(spec.NewTaskID()))
			if theirs != unknown || !strings.Contains(theirs, "-32001") {
				t.Errorf("another principal's task: %q, an unknown one: %q", theirs, unknown)
			}
			if lk.failed != before+2 {
				t.Errorf("%d failed lookups recorded, want 2", lk.failed-before)
			}
		})
	}
	if got, rerr := do(t, h, body("tasks/get", spec.TaskQueryParams{ID: held.ID})); rerr != nil || got.Status.State != spec.TaskStateInputRequired {
		t.Errorf("the owner's task after the attempts: %+v %s", rerr, got.Status.State)
	}
}

// lookups counts failed lookups and never refuses.
type lookups struct {
	mu     sync.Mutex
	failed int
}

func (l *lookups) LookupAllowed(context.Context, string) error { return nil }
func (l *lookups) LookupFailed(context.Context, string, string, string, string, reason.Code) {
	l.mu.Lock()
	l.failed++
	l.mu.Unlock()
}

// TestHammer: concurrent sends, gets and cancels of one owner's tasks.
func TestHammer(t *testing.T) {
	h := newHandler(t, func(_ context.Context, _ auth.Principal, _ string, _ json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"ok":true}`), nil
	})
	h.store.maxTasks = 50
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				task, rerr := do(t, h, body("message/send", sendParams("query_state", map[string]any{"kind": "gate"})))
				if rerr != nil {
					t.Errorf("send: %+v", rerr)
					return
				}
				do(t, h, body("tasks/get", spec.TaskQueryParams{ID: task.ID}))
				do(t, h, body("tasks/cancel", spec.TaskIDParams{ID: task.ID}))
			}
		})
	}
	wg.Wait()
	if n := h.store.len(); n > 50 {
		t.Errorf("%d tasks kept, bound 50", n)
	}
}

// TestErrorsAreWards: whether ward or a2asrv answers a request, the
// client reads ward's code and text as error.code and error.message, and
// nothing in error.data.
func TestErrorsAreWards(t *testing.T) {
	h, err := New(Config{Run: fakeGate, Lookups: refuseAll{}})
	if err != nil {
		t.Fatal(err)
	}
	open := newHandler(t, fakeGate)
	for _, tc := range []struct {
		name   string
		h      *Handler
		method string
		params any
		want   string // code and message
	}{
		{"unknown task", open, "tasks/get", spec.TaskQueryParams{ID: "nope"}, "-32001 no task has this id"},
		{"unknown task, streamed", open, "tasks/resubscribe", spec.TaskIDParams{ID: "nope"}, "-32001 no task has this id"},
		{"too many lookups", h, "tasks/get", spec.TaskQueryParams{ID: "nope"}, "-32029 too many lookups of task ids that do not exist: wait a few seconds"},
		{"unknown method", open, "tasks/list", map[string]any{}, "-32601 method not found: ward serves message/send, message/stream, tasks/get, tasks/cancel and tasks/resubscribe"},
		{"push configuration", open, "tasks/pushNotificationConfig/get", map[string]any{"id": "t"}, "-32003 push notifications are not supported: use message/stream or tasks/get"},
		{"no call", open, "message/send", spec.MessageSendParams{Message: spec.NewMessage(spec.MessageRoleUser, spec.TextPart{Text: "hi"})},
			"-32602 the message carries no call: send " + callExample},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			r := httptest.NewRequest("POST", RPCPath, bytes.NewReader(body(tc.method, tc.params)))
			tc.h.ServeHTTP(rec, r.WithContext(auth.WithPrincipal(r.Context(), alice)))
			b := rec.Body.Bytes()
			if _, data, ok := bytes.Cut(b, []byte("data: ")); ok {
				b = data
			}
			var rp struct {
				Error map[string]json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(b, &rp); err != nil || rp.Error == nil {
				t.Fatalf("reply %s: %v", rec.Body.String(), err)
			}
			var code int
			var msg string
			json.Unmarshal(rp.Error["code"], &code)
			json.Unmarshal(rp.Error["message"], &msg)
			if got := fmt.Sprintf("%d %s", code, msg); got != tc.want {
				t.Errorf("error %s, want %s", got, tc.want)
			}
			if d, ok := rp.Error["data"]; ok {
				t.Errorf("error.data %s", d)
			}
		})
	}
	// a2asrv's own refusal, in ward's words: a cancel the call's end
	// outran is covered by TestCancelWorking; a canceled task is final.
	held, rerr := do(t, open, body("message/send", sendParams("hold_me", map[string]any{})))
	if rerr != nil {
		t.Fatal(rerr)
	}
	for range 2 {
		_, rerr = do(t, open, body("tasks/cancel", spec.TaskIDParams{ID: held.ID}))
	}
	if rerr == nil || rerr.Code != codeNotCancelable || rerr.Message != "the task is canceled and cannot be canceled" {
		t.Errorf("cancel a canceled task: %+v", rerr)
	}
}

// refuseAll refuses every lookup.
type refuseAll struct{}

func (refuseAll) LookupAllowed(context.Context, string) error                               { return errors.New("too many") }
func (refuseAll) LookupFailed(context.Context, string, string, string, string, reason.Code) {}

// TestExactNumbers: numbers in a message's data parts reach the gate and
// the task's history as the client wrote them (a2a-go decodes them as
// float64), and a result's numbers reach the client as the tool returned
// them.
func TestExactNumbers(t *testing.T) {
	const args = `{"amount":123456789012345678901234567890,"fee":0.1,"n":9007199254740993,"neg":-1e-7}`
	var got json.RawMessage
	h := newHandler(t, func(_ context.Context, _ auth.Principal, _ string, a json.RawMessage) (json.RawMessage, error) {
		got = a
		return json.RawMessage(`{"balance":340282366920938463463374607431768211455}`), nil
	})
	b := []byte(`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"data","data":{"tool":"preview_action","arguments":` + args + `}}]}}}`)
	rec := httptest.NewRecorder()
	r := httptest.NewRequest("POST", RPCPath, bytes.NewReader(b))
	h.ServeHTTP(rec, r.WithContext(auth.WithPrincipal(r.Context(), alice)))
	var canon bytes.Buffer
	if err := json.Compact(&canon, got); err != nil {
		t.Fatalf("arguments %s: %v", got, err)
	}
	var sent, run map[string]json.Number
	decodeNumbers([]byte(args), &sent)
	decodeNumbers(canon.Bytes(), &run)
	for k, v := range sent {
		if run[k] != v {
			t.Errorf("the gate got %s = %s, the client sent %s", k, run[k], v)
		}
	}
	var rp reply
	var task spec.Task
	if json.Unmarshal(rec.Body.Bytes(), &rp) != nil || rp.Error != nil || json.Unmarshal(rp.Result, &task) != nil {
		t.Fatalf("reply %s", rec.Body.String())
	}
	for _, want := range []string{"123456789012345678901234567890", "9007199254740993", "340282366920938463463374607431768211455"} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("the reply lost %s: %s", want, rec.Body.String())
		}
	}
	rec = httptest.NewRecorder()
	r = httptest.NewRequest("POST", RPCPath, bytes.NewReader(body("tasks/get", spec.TaskQueryParams{ID: task.ID})))
	h.ServeHTTP(rec, r.WithContext(auth.WithPrincipal(r.Context(), alice)))
	if !strings.Contains(rec.Body.String(), `"amount":123456789012345678901234567890`) {
		t.Errorf("the task's history lost the amount: %s", rec.Body.String())
	}
}
