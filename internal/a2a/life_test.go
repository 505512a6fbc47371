package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	spec "github.com/a2aproject/a2a-go/a2a"

	"github.com/wardhq/ward/internal/auth"
)

// fakeStore stands for the store behind the gate: it records a use after
// it closed.
type fakeStore struct {
	closed, usedAfterClose atomic.Bool
}

func (s *fakeStore) use() {
	if s.closed.Load() {
		s.usedAfterClose.Store(true)
	}
}

// TestShutdownAwaitsCalls: a call a2asrv runs detached from its request
// (the client hung up) holds Shutdown until it ends, or until Shutdown's
// deadline cancels it and it returns; the task's ending is stored before
// Shutdown returns, the gate's store is never used after, and a request
// that arrives once Shutdown has begun is refused without running
// anything. synctest also checks that no goroutine of the handler or the
// library is left.
func TestShutdownAwaitsCalls(t *testing.T) {
	for _, tc := range []struct {
		name    string
		grace   time.Duration
		release bool // the call is let finish; else it runs until cancelled
		want    spec.TaskState
	}{
		{"waits for the call", time.Hour, true, spec.TaskStateCompleted},
		{"cancels the call at the deadline", 4 * time.Second, false, spec.TaskStateFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var store fakeStore
				var calls atomic.Int32
				started, release, returned := make(chan struct{}), make(chan struct{}), make(chan struct{})
				letGo := func() {
					select {
					case <-release:
					default:
						close(release)
					}
				}
				defer letGo() // on failure, so the bubble's goroutines end
				h := newHandler(t, func(ctx context.Context, _ auth.Principal, _ string, _ json.RawMessage) (json.RawMessage, error) {
					calls.Add(1)
					defer close(returned)
					close(started)
					select {
					case <-release:
					case <-ctx.Done():
					}
					store.use() // the gate writes the call's record
					return json.RawMessage(`{"ok":true}`), ctx.Err()
				})
				reqCtx, hangUp := context.WithCancel(t.Context())
				answered := make(chan struct{})
				go func() {
					defer close(answered)
					r := httptest.NewRequest("POST", RPCPath, bytes.NewReader(body("message/send", sendParams("query_state", map[string]any{"kind": "gate"}))))
					h.ServeHTTP(httptest.NewRecorder(), r.WithContext(auth.WithPrincipal(reqCtx, alice)))
				}()
				<-started
				hangUp()
				<-answered // the request is over; the call is not

				ctx, cancel := context.WithTimeout(t.Context(), tc.grace)
				defer cancel()
				shut := make(chan error, 1)
				go func() { shut <- h.Shutdown(ctx) }()
				synctest.Wait()
				select {
				case err := <-shut:
					t.Fatalf("Shutdown returned (%v) while a call ran", err)
				default:
				}

				rec := httptest.NewRecorder()
				r := httptest.NewRequest("POST", RPCPath, bytes.NewReader(body("message/send", sendParams("query_state", map[string]any{"kind": "gate"}))))
				h.ServeHTTP(rec, r.WithContext(auth.WithPrincipal(r.Context(), alice)))
				var rp reply
				if json.Unmarshal(rec.Body.Bytes(), &rp) != nil || rec.Code != http.StatusServiceUnavailable || rp.Error == nil || rp.Error.Code != codeServer {
					t.Errorf("a send after Shutdown began: HTTP %d %s", rec.Code, rec.Body.String())
				}

				if tc.release {
					letGo()
				}
				err := <-shut
				store.closed.Store(true)
				if tc.release != (err == nil) {
					t.Errorf("Shutdown: %v", err)
				}
				select {
				case <-returned:
				default:
					t.Error("Shutdown returned before the call did")
				}
				if n := calls.Load(); n != 1 {
					t.Errorf("%d calls ran, want 1", n)
				}
				if n := h.store.len(); n != 1 {
					t.Fatalf("%d tasks stored, want 1", n)
				}
				for _, e := range h.store.byID {
					if got := e.task.Status.State; got != tc.want {
						t.Errorf("the task ended %s before Shutdown returned, want %s", got, tc.want)
					}
				}
				synctest.Wait()
				if store.usedAfterClose.Load() {
					t.Error("the store was used after it closed")
				}
			})
		})
	}
}

// TestShutdownRefusesPastTheDoor: a request that passed ServeHTTP's check
// before Shutdown began is refused by a2asrv's handler, and an execution
// by its queue, without running a call.
func TestShutdownRefusesPastTheDoor(t *testing.T) {
	h := newHandler(t, func(context.Context, auth.Principal, string, json.RawMessage) (json.RawMessage, error) {
		t.Error("a call ran after Shutdown")
		return nil, nil
	})
	if err := h.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, method := range []string{"message/send", "message/stream"} {
		t.Run(method, func(t *testing.T) {
			rec := httptest.NewRecorder()
			r := httptest.NewRequest("POST", RPCPath, bytes.NewReader(body(method, sendParams("query_state", map[string]any{}))))
			h.rpc.ServeHTTP(rec, r.WithContext(auth.WithPrincipal(r.Context(), alice)))
			if !bytes.Contains(rec.Body.Bytes(), []byte(`"code":-32000,"message":"ward is shutting down`)) {
				t.Errorf("reply %s", rec.Body.String())
			}
		})
	}
	var w work
	q := newQueues(&w)
	w.close()
	if _, err := q.GetOrCreate(t.Context(), "t"); !errors.Is(err, errShuttingDown) {
		t.Errorf("a queue created after close: %v", err)
	}
}
