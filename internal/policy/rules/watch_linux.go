//go:build linux

package rules

import (
	"errors"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// inotifyWatcher watches directories with one inotify instance. A goroutine,
// owned by the watcher and stopped by close, reads events and reports the
// directory each happened in ("" for all, when events were lost).
type inotifyWatcher struct {
	f       *os.File
	changed func(dir string)
	done    chan struct{}

	mu    sync.Mutex
	dirs  map[string]int32 // watched directory → watch descriptor
	wds   map[int32]string
	limit int
}

// maxWatches bounds the directories one resolver watches.
const maxWatches = 8192

const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR

func newWatcher(changed func(dir string)) (watcher, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, err
	}
	w := &inotifyWatcher{
		f:       os.NewFile(uintptr(fd), "inotify"),
		changed: changed,
		done:    make(chan struct{}),
		dirs:    make(map[string]int32),
		wds:     make(map[int32]string),
		limit:   maxWatches,
	}
	go w.read()
	return w, nil
}

func (w *inotifyWatcher) watch(dir string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dirs == nil {
		return false
	}
	if _, ok := w.dirs[dir]; ok {
		return true
	}
	if len(w.dirs) >= w.limit {
		return false
	}
	// IN_DONT_FOLLOW: dir is a resolved path, and if it was replaced by a
	// link meanwhile the watch must not land on the link's target.
	wd, err := unix.InotifyAddWatch(int(w.f.Fd()), dir, watchMask|unix.IN_DONT_FOLLOW)
	if err != nil {
		return false
	}
	w.dirs[dir] = int32(wd)
	w.wds[int32(wd)] = dir
	return true
}

func (w *inotifyWatcher) read() {
	defer close(w.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := w.f.Read(buf)
		if err != nil {
			if !errors.Is(err, os.ErrClosed) {
				w.changed("")
			}
			return
		}
		for _, dir := range w.dirsOf(buf[:n]) {
			w.changed(dir)
		}
	}
}

// dirsOf returns the directories a batch of events happened in, forgetting
// watches the kernel removed (the directory was deleted or unmounted). A
// queue overflow means events were lost: every directory changed.
func (w *inotifyWatcher) dirsOf(events []byte) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var dirs []string
	for len(events) >= unix.SizeofInotifyEvent {
		ev := (*unix.InotifyEvent)(unsafePointer(&events[0]))
		if ev.Mask&unix.IN_Q_OVERFLOW != 0 {
			return []string{""}
		}
		if dir, ok := w.wds[ev.Wd]; ok {
			dirs = append(dirs, dir)
			if ev.Mask&unix.IN_IGNORED != 0 {
				delete(w.wds, ev.Wd)
				if w.dirs[dir] == ev.Wd {
					delete(w.dirs, dir)
				}
			}
		}
		size := unix.SizeofInotifyEvent + int(ev.Len)
		if size > len(events) {
			break
		}
		events = events[size:]
	}
	return dirs
}

func (w *inotifyWatcher) close() error {
	w.mu.Lock()
	w.dirs, w.wds = nil, nil
	w.mu.Unlock()
	err := w.f.Close()
	<-w.done
	return err
}
