//go:build linux

package rules

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// fsWatcher watches directories with fsnotify (one inotify instance). A
// goroutine, owned by the watcher and stopped by close, reports the
// directory each creation, deletion or rename happened in ("" for all, when
// events were lost or the watcher failed). Writes and attribute changes to
// files are not reported: they cannot change a path's resolution.
//
// Only Linux caches: fsnotify's kqueue backend holds a descriptor per file
// of a watched directory, and other platforms' events differ enough that
// resolving with system calls there is the safer default.
type fsWatcher struct {
	fs      *fsnotify.Watcher
	changed func(dir string)
	done    chan struct{}

	mu    sync.Mutex
	dirs  map[string]struct{} // watched directories; nil once closed
	limit int
}

// maxWatches bounds the directories one resolver watches.
const maxWatches = 8192

// structural are the operations that can change how a path in a watched
// directory resolves.
const structural = fsnotify.Create | fsnotify.Remove | fsnotify.Rename

func newWatcher(changed func(dir string)) (watcher, error) {
	fs, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &fsWatcher{
		fs:      fs,
		changed: changed,
		done:    make(chan struct{}),
		dirs:    make(map[string]struct{}),
		limit:   maxWatches,
	}
	go w.read()
	return w, nil
}

// watch adds dir, which must be a directory and not a symlink. fsnotify
// follows a symlink where inotify's IN_DONT_FOLLOW would not: dir is a
// resolved path, and if it was replaced by a link meanwhile the watch must
// not land on the link's target. So dir is checked with Lstat before and
// after the watch is added, and must be the same directory both times; a
// replacement in between is a change in its parent, which is watched.
func (w *fsWatcher) watch(dir string) bool {
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
	before, err := os.Lstat(dir)
	if err != nil || !before.IsDir() {
		return false
	}
	if err := w.fs.Add(dir); err != nil {
		return false
	}
	if after, err := os.Lstat(dir); err != nil || !after.IsDir() || !os.SameFile(before, after) {
		w.fs.Remove(dir)
		return false
	}
	w.dirs[dir] = struct{}{}
	return true
}

func (w *fsWatcher) read() {
	defer close(w.done)
	events, errs := w.fs.Events, w.fs.Errors
	for events != nil || errs != nil {
		select {
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			for _, dir := range w.dirsOf(ev) {
				w.changed(dir)
			}
		case _, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			// A queue overflow (fsnotify.ErrEventOverflow) means events
			// were lost, and any other error that they may have been:
			// every directory changed.
			w.changed("")
		}
	}
}

// dirsOf returns the watched directories an event changed: the directory
// it happened in, and the named entry itself when that is a watched
// directory (inotify reports both "dir/name" and a watched directory's own
// deletion or move under the same kind of name). A watched directory that
// was deleted, moved or unmounted is forgotten, so that the next watch adds
// the directory now at that path.
func (w *fsWatcher) dirsOf(ev fsnotify.Event) []string {
	if ev.Op != 0 && ev.Op&structural == 0 {
		return nil
	}
	name := filepath.Clean(ev.Name)
	w.mu.Lock()
	defer w.mu.Unlock()
	var dirs []string
	if parent := filepath.Dir(name); parent != name {
		if _, ok := w.dirs[parent]; ok {
			dirs = append(dirs, parent)
		}
	}
	if _, ok := w.dirs[name]; ok {
		dirs = append(dirs, name)
		if ev.Op == 0 || ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 {
			delete(w.dirs, name)
			w.fs.Remove(name)
		}
	}
	return dirs
}

func (w *fsWatcher) close() error {
	w.mu.Lock()
	w.dirs = nil
	w.mu.Unlock()
	err := w.fs.Close()
	<-w.done
	return err
}
