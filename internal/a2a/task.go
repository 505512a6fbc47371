package a2a

import (
	"container/list"
	"context"
	"errors"
	"sync"

	spec "github.com/a2aproject/a2a-go/a2a"
)

// Conditions of the task table that callers branch on.
var (
	errNotFound = errors.New("a2a: no such task")
	errFinal    = errors.New("a2a: task is final")
	errState    = errors.New("a2a: task is not waiting for input")
	errFull     = errors.New("a2a: task table full of working tasks")
)

// taskTable keeps tasks in memory, bounded in number and bytes. Messages
// and artifacts put in it are never modified afterwards, so a snapshot
// shares them. Safe for concurrent use.
type taskTable struct {
	mu       sync.Mutex
	byID     map[spec.TaskID]*entry
	order    *list.List // of *entry, oldest first
	bytes    int
	maxTasks int
	maxBytes int
}

type entry struct {
	owner    string // the principal that created the task
	task     spec.Task
	held     string // the quarantine item it waits on, when input-required
	size     int
	elem     *list.Element
	cancel   context.CancelFunc // set while working
	canceled bool               // tasks/cancel asked while working
	done     chan struct{}      // closed when the current run ends
}

// entryOverhead approximates a task's fixed cost in bytes.
const entryOverhead = 512

func newTaskTable(maxTasks, maxBytes int) *taskTable {
	return &taskTable{byID: map[spec.TaskID]*entry{}, order: list.New(), maxTasks: maxTasks, maxBytes: maxBytes}
}

// snapshot copies what a reader may be given of e.
func (e *entry) snapshot() spec.Task {
	t := e.task
	t.History = append([]*spec.Message(nil), e.task.History...)
	t.Artifacts = append([]*spec.Artifact(nil), e.task.Artifacts...)
	return t
}

// start adds t, a new working task whose run cancel stops, for owner. It
// evicts old tasks to make room and fails with errFull when only working
// tasks are left to evict.
func (tt *taskTable) start(owner string, t spec.Task, cancel context.CancelFunc) (spec.Task, error) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	e := &entry{owner: owner, task: t, size: entryOverhead + historySize(t.History), cancel: cancel, done: make(chan struct{})}
	if !tt.makeRoom(1, e.size) {
		return spec.Task{}, errFull
	}
	e.elem = tt.order.PushBack(e)
	tt.byID[t.ID] = e
	tt.bytes += e.size
	return e.snapshot(), nil
}

// addMessage adds msg to the history of owner's task id, which must be
// waiting for input (errState otherwise).
func (tt *taskTable) addMessage(owner string, id spec.TaskID, msg *spec.Message) (spec.Task, error) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	e, ok := tt.byID[id]
	if !ok || e.owner != owner {
		return spec.Task{}, errNotFound
	}
	if e.task.Status.State != spec.TaskStateInputRequired {
		return e.snapshot(), errState
	}
	e.task.History = append(e.task.History, msg)
	if n := len(e.task.History) - maxHistory; n > 0 {
		e.task.History = append([]*spec.Message(nil), e.task.History[n:]...)
	}
	tt.resize(e, entryOverhead+historySize(e.task.History)+artifactSize(e.task.Artifacts))
	tt.makeRoom(0, 0)
	return e.snapshot(), nil
}

// ending is how a run or a review ends a task.
type ending struct {
	status    spec.TaskStatus
	artifacts []*spec.Artifact
	held      string // the quarantine item an input-required task waits on
}

// finish ends the run of a working task: decide gets whether tasks/cancel
// asked to stop it and returns the ending.
func (tt *taskTable) finish(id spec.TaskID, decide func(canceled bool) ending) spec.Task {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	e, ok := tt.byID[id]
	if !ok {
		// Working tasks are never evicted; only a bug gets here.
		end := decide(false)
		return spec.Task{ID: id, Status: end.status, Artifacts: end.artifacts}
	}
	end := decide(e.canceled)
	e.task.Status, e.task.Artifacts, e.held = end.status, end.artifacts, end.held
	e.cancel = nil
	close(e.done)
	tt.resize(e, entryOverhead+historySize(e.task.History)+artifactSize(e.task.Artifacts))
	tt.makeRoom(0, 0)
	return e.snapshot()
}

// waiting returns the quarantine item owner's task id waits on, if it is
// waiting for input.
func (tt *taskTable) waiting(owner string, id spec.TaskID) (string, spec.TaskInfo, bool) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	e, ok := tt.byID[id]
	if !ok || e.owner != owner || e.task.Status.State != spec.TaskStateInputRequired || e.held == "" {
		return "", spec.TaskInfo{}, false
	}
	return e.held, e.task.TaskInfo(), true
}

// settle ends owner's task id with end if it still waits on item.
func (tt *taskTable) settle(owner string, id spec.TaskID, item string, end ending) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	e, ok := tt.byID[id]
	if !ok || e.owner != owner || e.task.Status.State != spec.TaskStateInputRequired || e.held != item {
		return
	}
	e.task.Status, e.task.Artifacts, e.held = end.status, end.artifacts, end.held
	tt.resize(e, entryOverhead+historySize(e.task.History)+artifactSize(e.task.Artifacts))
	tt.makeRoom(0, 0)
}

// get returns owner's task id.
func (tt *taskTable) get(owner string, id spec.TaskID) (spec.Task, bool) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	e, ok := tt.byID[id]
	if !ok || e.owner != owner {
		return spec.Task{}, false
	}
	return e.snapshot(), true
}

// watch returns owner's task id and, while it is working, a channel closed
// when its run ends.
func (tt *taskTable) watch(owner string, id spec.TaskID) (spec.Task, <-chan struct{}, bool) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	e, ok := tt.byID[id]
	if !ok || e.owner != owner {
		return spec.Task{}, nil, false
	}
	if e.task.Status.State == spec.TaskStateWorking {
		return e.snapshot(), e.done, true
	}
	return e.snapshot(), nil, true
}

// cancel cancels owner's task id. A task waiting for input gets the
// status canceled makes at once; a working one is asked to stop and the
// returned channel closes when its run has ended (finish then decides its
// state). A final task is errFinal.
func (tt *taskTable) cancel(owner string, id spec.TaskID, canceled func(spec.TaskInfo) spec.TaskStatus) (spec.Task, <-chan struct{}, error) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	e, ok := tt.byID[id]
	if !ok || e.owner != owner {
		return spec.Task{}, nil, errNotFound
	}
	switch st := e.task.Status.State; {
	case st.Terminal():
		return e.snapshot(), nil, errFinal
	case st == spec.TaskStateWorking:
		e.canceled = true
		if e.cancel != nil {
			e.cancel()
		}
		return e.snapshot(), e.done, nil
	}
	e.task.Status = canceled(e.task.TaskInfo())
	return e.snapshot(), nil, nil
}

// len returns the number of tasks kept.
func (tt *taskTable) len() int {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	return len(tt.byID)
}

func (tt *taskTable) resize(e *entry, size int) {
	tt.bytes += size - e.size
	e.size = size
}

// makeRoom evicts tasks until n more tasks of size more bytes fit: the
// oldest final tasks first, then the oldest waiting for input. Working
// tasks are never evicted; it reports false when they alone fill the
// table's count (the byte budget is then exceeded rather than refused).
func (tt *taskTable) makeRoom(n, size int) bool {
	for len(tt.byID)+n > tt.maxTasks || tt.bytes+size > tt.maxBytes {
		victim := tt.oldest(func(s spec.TaskState) bool { return s.Terminal() })
		if victim == nil {
			victim = tt.oldest(func(s spec.TaskState) bool { return s == spec.TaskStateInputRequired })
		}
		if victim == nil {
			return len(tt.byID)+n <= tt.maxTasks
		}
		tt.order.Remove(victim.elem)
		delete(tt.byID, victim.task.ID)
		tt.bytes -= victim.size
	}
	return true
}

func (tt *taskTable) oldest(match func(spec.TaskState) bool) *entry {
	for el := tt.order.Front(); el != nil; el = el.Next() {
		if e := el.Value.(*entry); match(e.task.Status.State) {
			return e
		}
	}
	return nil
}

func historySize(h []*spec.Message) int {
	n := 0
	for _, m := range h {
		n += messageSize(m)
	}
	return n
}

// messageSize approximates a message's size in memory by its text and
// data.
func messageSize(m *spec.Message) int {
	if m == nil {
		return 0
	}
	n := 64 + len(m.ID) + len(m.ContextID) + len(m.TaskID)
	for _, p := range m.Parts {
		switch p := p.(type) {
		case spec.TextPart:
			n += 16 + len(p.Text)
		case spec.DataPart:
			n += 16 + dataSize(p.Data)
		}
	}
	return n
}

func artifactSize(as []*spec.Artifact) int {
	n := 0
	for _, a := range as {
		n += 64
		for _, p := range a.Parts {
			switch p := p.(type) {
			case spec.TextPart:
				n += len(p.Text)
			case spec.DataPart:
				n += dataSize(p.Data)
			}
		}
	}
	return n
}

// dataSize approximates the size of decoded JSON.
func dataSize(v any) int {
	switch v := v.(type) {
	case map[string]any:
		n := 16
		for k, x := range v {
			n += 16 + len(k) + dataSize(x)
		}
		return n
	case []any:
		n := 16
		for _, x := range v {
			n += 8 + dataSize(x)
		}
		return n
	case string:
		return 16 + len(v)
	}
	return 16
}
