package a2a

import (
	"container/list"
	"context"
	"sync"

	spec "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"

	"github.com/wardhq/ward/internal/auth"
)

// taskStore is the a2asrv.TaskStore of ward's tasks, written here rather
// than taken from a2asrv because the library's in-memory store is
// unbounded and knows no owners: each task belongs to the principal in the
// context that first saved it, is visible to that principal only, and the
// store is bounded in number and bytes (the oldest final tasks are evicted
// first, then the oldest waiting for input; working tasks never). Safe for
// concurrent use.
type taskStore struct {
	mu       sync.Mutex
	byID     map[spec.TaskID]*entry
	order    *list.List // of *entry, oldest first
	bytes    int
	maxTasks int
	maxBytes int
}

var _ a2asrv.TaskStore = (*taskStore)(nil)

type entry struct {
	owner string
	task  *spec.Task // never modified after it is stored
	size  int
	elem  *list.Element
}

// entryOverhead approximates a task's fixed cost in bytes.
const entryOverhead = 512

func newTaskStore(maxTasks, maxBytes int) *taskStore {
	return &taskStore{byID: map[spec.TaskID]*entry{}, order: list.New(), maxTasks: maxTasks, maxBytes: maxBytes}
}

// Save stores task for the principal of ctx, keeping its last maxHistory
// messages. Another principal's task is spec.ErrTaskNotFound, and so is a
// context without a principal.
func (s *taskStore) Save(ctx context.Context, task *spec.Task) error {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return spec.ErrTaskNotFound
	}
	t := copyTask(task)
	if n := len(t.History) - maxHistory; n > 0 {
		t.History = t.History[n:]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[t.ID]
	switch {
	case ok && e.owner != p.ID:
		return spec.ErrTaskNotFound
	case ok:
		e.task = t
		s.resize(e)
	default:
		e = &entry{owner: p.ID, task: t}
		e.size = taskSize(t)
		e.elem = s.order.PushBack(e)
		s.byID[t.ID] = e
		s.bytes += e.size
	}
	s.makeRoom(0)
	return nil
}

// Get returns a copy of the task id of the principal of ctx, or
// spec.ErrTaskNotFound.
func (s *taskStore) Get(ctx context.Context, id spec.TaskID) (*spec.Task, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return nil, spec.ErrTaskNotFound
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok || e.owner != p.ID {
		return nil, spec.ErrTaskNotFound
	}
	return copyTask(e.task), nil
}

// room reports whether a new task fits, once old ones are evicted.
func (s *taskStore) room() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byID) < s.maxTasks || s.oldest(evictable) != nil
}

// settle ends owner's task id with status and artifacts if it still
// waits on the held call item.
func (s *taskStore) settle(owner string, id spec.TaskID, item string, status spec.TaskStatus, artifacts []*spec.Artifact) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok || e.owner != owner || heldItem(e.task) != item {
		return
	}
	t := copyTask(e.task)
	t.Status, t.Artifacts = status, artifacts
	e.task = t
	s.resize(e)
	s.makeRoom(0)
}

// len returns the number of tasks kept.
func (s *taskStore) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byID)
}

func (s *taskStore) resize(e *entry) {
	size := taskSize(e.task)
	s.bytes += size - e.size
	e.size = size
}

// makeRoom evicts tasks until n more fit, the oldest final first, then the
// oldest waiting for input. Working tasks are never evicted: when they
// alone are left, the budget is exceeded rather than a call dropped.
func (s *taskStore) makeRoom(n int) {
	for len(s.byID)+n > s.maxTasks || s.bytes > s.maxBytes {
		victim := s.oldest(func(st spec.TaskState) bool { return st.Terminal() })
		if victim == nil {
			victim = s.oldest(evictable)
		}
		if victim == nil {
			return
		}
		s.order.Remove(victim.elem)
		delete(s.byID, victim.task.ID)
		s.bytes -= victim.size
	}
}

func evictable(st spec.TaskState) bool {
	return st.Terminal() || st == spec.TaskStateInputRequired
}

func (s *taskStore) oldest(match func(spec.TaskState) bool) *entry {
	for el := s.order.Front(); el != nil; el = el.Next() {
		if e := el.Value.(*entry); match(e.task.Status.State) {
			return e
		}
	}
	return nil
}

// copyTask copies what the library may change in place after a save or a
// get: the task, its history and artifact lists and the artifacts' parts.
// Messages and parts are never modified.
func copyTask(t *spec.Task) *spec.Task {
	c := *t
	c.History = append([]*spec.Message(nil), t.History...)
	c.Artifacts = make([]*spec.Artifact, len(t.Artifacts))
	for i, a := range t.Artifacts {
		ac := *a
		ac.Parts = append(spec.ContentParts(nil), a.Parts...)
		c.Artifacts[i] = &ac
	}
	return &c
}

// heldItem is the held call an input-required task waits on: the
// quarantine_id of its status message, as ward wrote it.
func heldItem(t *spec.Task) string {
	if t.Status.State != spec.TaskStateInputRequired || t.Status.Message == nil {
		return ""
	}
	for _, p := range t.Status.Message.Parts {
		if d, ok := p.(spec.DataPart); ok {
			id, _ := d.Data["quarantine_id"].(string)
			return id
		}
	}
	return ""
}

func taskSize(t *spec.Task) int {
	n := entryOverhead + messageSize(t.Status.Message)
	for _, m := range t.History {
		n += messageSize(m)
	}
	for _, a := range t.Artifacts {
		n += 64 + partsSize(a.Parts)
	}
	return n
}

// messageSize approximates a message's size in memory by its text and
// data.
func messageSize(m *spec.Message) int {
	if m == nil {
		return 0
	}
	return 64 + len(m.ID) + len(m.ContextID) + len(m.TaskID) + partsSize(m.Parts)
}

func partsSize(ps spec.ContentParts) int {
	n := 0
	for _, p := range ps {
		switch p := p.(type) {
		case spec.TextPart:
			n += 16 + len(p.Text)
		case spec.DataPart:
			n += 16 + dataSize(p.Data)
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
