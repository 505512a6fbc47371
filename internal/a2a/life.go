package a2a

import (
	"context"
	"fmt"
	"sync"

	spec "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"
)

// work counts what ward's handler has running on a2asrv's goroutines, so
// Shutdown can wait for it: a request's way through the library (the
// guard may ask the gate about a held call), each execution of a call
// from start to end, each cancellation. After close nothing new begins.
// Safe for concurrent use.
type work struct {
	mu     sync.Mutex
	closed bool
	n      int
	idle   chan struct{} // closed when n falls to 0 after close
}

// begin counts one more piece of work, or reports false once Shutdown has
// begun.
func (w *work) begin() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	w.n++
	return true
}

// end counts a piece of work as done.
func (w *work) end() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.n--
	if w.closed && w.n == 0 {
		close(w.idle)
	}
}

// close refuses new work and returns a channel closed once the work
// begun before has ended.
func (w *work) close() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.closed = true
		w.idle = make(chan struct{})
		if w.n == 0 {
			close(w.idle)
		}
	}
	return w.idle
}

func (w *work) closing() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.closed
}

// queues is the a2asrv event queue manager: the library's in-memory one,
// which also counts the library's executions. a2asrv runs each execution
// detached from its request, on goroutines nobody awaits; it creates the
// task's queue before starting one and destroys it as the execution's
// last step, after the call returned and its events are stored. So an
// execution is counted from the queue's creation to its destruction, and
// none starts once Shutdown has begun (creating the queue fails, which
// the library answers before it runs anything).
type queues struct {
	eventqueue.Manager
	work *work

	mu   sync.Mutex
	live map[spec.TaskID]bool // tasks with an execution counted in work
}

var _ eventqueue.Manager = (*queues)(nil)

func newQueues(w *work) *queues {
	return &queues{Manager: eventqueue.NewInMemoryManager(), work: w, live: map[spec.TaskID]bool{}}
}

// GetOrCreate creates task id's queue as its execution starts (a2asrv
// runs one execution per task at a time), or refuses once Shutdown has
// begun.
func (q *queues) GetOrCreate(ctx context.Context, id spec.TaskID) (eventqueue.Queue, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.live[id] {
		if !q.work.begin() {
			return nil, errShuttingDown
		}
		q.live[id] = true
	}
	return q.Manager.GetOrCreate(ctx, id)
}

// Destroy destroys task id's queue as its execution ends (a2asrv may call
// it twice for one execution; the second is a no-op).
func (q *queues) Destroy(ctx context.Context, id spec.TaskID) error {
	err := q.Manager.Destroy(ctx, id)
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.live[id] {
		delete(q.live, id)
		q.work.end()
	}
	return err
}

// Shutdown stops the A2A surface: requests are refused from now on
// (HTTP 503, or -32000 to a request already past the door), and no call
// starts. It waits for what runs already (calls, cancellations, requests
// on their way through a2asrv) until ctx ends, then cancels the calls
// still running and waits for them to return: when Shutdown returns, the
// handler no longer uses the gate, so the store behind it may close. It
// returns an error if it had to cancel calls. Calling it again waits
// again.
func (h *Handler) Shutdown(ctx context.Context) error {
	idle := h.work.close()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
	}
	n := h.exec.abort()
	<-idle
	if n == 0 {
		return nil
	}
	return fmt.Errorf("a2a: %d calls still running at the shutdown deadline were cancelled: %w", n, context.Cause(ctx))
}
