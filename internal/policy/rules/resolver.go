package rules

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// A Resolver resolves the symlinks of absolute paths for the path rules
// without a system call per decision: system calls cost 0.3–2 µs each on
// the machines ward runs on, an uncached resolution about 8 µs.
//
// It keeps, per directory, the symlinks that directory contains (one
// readdir and a readlink per link, once). Resolution walks a path element
// by element through those tables: a name that is a symlink is followed,
// any other name (a file, a directory, nothing yet) resolves to dir/name.
// On Linux every cached directory is watched (fsnotify), and a creation,
// deletion or rename in it drops its table, so a symlink planted after a
// path was checked is seen by the next decision. Directories that cannot be
// listed or watched are resolved with system calls every time; on other
// platforms nothing is cached.
//
// The policy's check is not the only guard: a file tool must still open the
// path it was allowed without following links out of the root, because the
// file system can change between the decision and the open (and inotify
// events arrive microseconds after the change).
//
// A Resolver is safe for concurrent use. Its owner must Close it.
type Resolver struct {
	watch watcher // nil: no cache

	mu   sync.RWMutex
	dirs map[string]*dirTable
	// paths caches whole resolutions; an entry is good while gen has not
	// moved since it was made (any change in any watched directory moves
	// it), so the common case is one lookup instead of one per element.
	paths map[string]resolved
	gen   uint64
}

type resolved struct {
	path string
	gen  uint64
}

// maxPaths bounds the whole-path cache; beyond it the cache is cleared.
const maxPaths = 16384

// dirTable is what resolution needs to know about one directory.
type dirTable struct {
	links map[string]string   // entry name → link target
	dirs  map[string]struct{} // names of subdirectories
	ready bool                // listed; until then the table is not used
	stale bool                // changed since listing began: never used
}

// maxDirs bounds the cached directories; beyond it new ones are not cached.
const maxDirs = 8192

// maxLinkHops bounds symlinks followed in one resolution (Linux: 40).
const maxLinkHops = 40

var errSymlinkLoop = errors.New("too many levels of symbolic links")

// watcher watches directories and reports changes in them.
type watcher interface {
	// watch starts watching dir (idempotent); false if it cannot.
	watch(dir string) bool
	close() error
}

// NewResolver returns a resolver. If the platform cannot watch directories
// it returns a resolver that does not cache.
func NewResolver() *Resolver {
	r := &Resolver{dirs: make(map[string]*dirTable), paths: make(map[string]resolved)}
	if w, err := newWatcher(r.changed); err == nil {
		r.watch = w
	}
	return r
}

// changed marks a directory's table stale (dir == "" means all of them).
func (r *Resolver) changed(dir string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gen++
	if dir == "" {
		for d, t := range r.dirs {
			t.stale = true
			delete(r.dirs, d)
		}
		return
	}
	if t, ok := r.dirs[dir]; ok {
		t.stale = true
		delete(r.dirs, dir)
	}
}

// Caching reports whether results are cached.
func (r *Resolver) Caching() bool {
	if r == nil {
		return false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.watch != nil
}

// Close stops watching. Resolve keeps working, without a cache.
func (r *Resolver) Close() error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	w := r.watch
	r.watch = nil
	r.dirs = make(map[string]*dirTable)
	r.paths = make(map[string]resolved)
	r.gen++
	r.mu.Unlock()
	if w == nil {
		return nil
	}
	return w.close()
}

// Resolve returns abs (absolute and clean) with every symlink followed, as
// the kernel would follow them when opening or creating the file: links in
// directories and a final link (even a dangling one) are followed; '..'
// after a link applies to where the link points.
func (r *Resolver) Resolve(abs string) (string, error) {
	if r == nil || !filepath.IsAbs(abs) {
		return resolveSymlinks(abs)
	}
	r.mu.RLock()
	c, hit := r.paths[abs]
	gen, caching := r.gen, r.watch != nil
	r.mu.RUnlock()
	if hit && c.gen == gen {
		return c.path, nil
	}
	res, cacheable, err := r.walk(abs)
	if err != nil || !cacheable || !caching {
		return res, err
	}
	r.mu.Lock()
	if r.gen == gen { // nothing changed while walking
		if len(r.paths) >= maxPaths {
			clear(r.paths)
		}
		r.paths[abs] = resolved{path: res, gen: gen}
	}
	r.mu.Unlock()
	return res, nil
}

// walk resolves abs element by element through the directory tables;
// cacheable is false when some directory had to be resolved with system
// calls (its changes would not be seen).
func (r *Resolver) walk(abs string) (res string, cacheable bool, err error) {
	p := abs
	for hops := 0; ; {
		// cur is p[:end]: the prefix already known to contain no links.
		end := 0
		restarted := false
		for end < len(p) {
			start := end + 1
			if start > len(p) {
				break
			}
			next := strings.IndexByte(p[start:], '/')
			if next < 0 {
				next = len(p)
			} else {
				next += start
			}
			name := p[start:next]
			dir := p[:end]
			if dir == "" {
				dir = "/"
			}
			r.mu.RLock()
			t, ok := r.dirs[dir]
			ok = ok && t.ready && !t.stale
			r.mu.RUnlock()
			if !ok {
				t, ok = r.table(dir)
			}
			if !ok {
				// Cannot know this directory's links without asking the
				// kernel: resolve the rest the slow way.
				res, err := resolveSymlinks(p)
				return res, false, err
			}
			if target, isLink := t.links[name]; isLink {
				if hops++; hops > maxLinkHops {
					return "", false, errSymlinkLoop
				}
				if !filepath.IsAbs(target) {
					target = dir + "/" + target
				}
				p = filepath.Clean(target + p[next:])
				restarted = true
				break
			}
			if _, isDir := t.dirs[name]; !isDir {
				// A file, or nothing (yet): no link can lie below it.
				// (Creating it is a change in this watched directory.)
				return p, true, nil
			}
			end = next
		}
		if !restarted {
			return p, true, nil
		}
	}
}

// table returns dir's link table, listing and watching it if needed.
func (r *Resolver) table(dir string) (*dirTable, bool) {
	r.mu.RLock()
	t, ok := r.dirs[dir]
	usable := ok && t.ready && !t.stale
	w := r.watch
	n := len(r.dirs)
	r.mu.RUnlock()
	if usable {
		return t, true
	}
	if w == nil || n >= maxDirs {
		return nil, false
	}
	// Watch before listing: a change after the listing started is then
	// reported and marks the new table stale. A busy directory (/tmp) can
	// change during every listing; a few attempts keep it, and everything
	// below it, cacheable without waiting on it for long.
	for range listAttempts {
		t = &dirTable{}
		r.mu.Lock()
		r.dirs[dir] = t
		r.mu.Unlock()
		if !w.watch(dir) {
			r.changed(dir)
			return nil, false
		}
		links, dirs, err := listDir(dir)
		if err != nil {
			r.changed(dir)
			return nil, false
		}
		r.mu.Lock()
		t.links, t.dirs = links, dirs
		t.ready = !t.stale
		r.mu.Unlock()
		if t.ready {
			return t, true
		}
	}
	return nil, false
}

// listAttempts bounds the listings of a directory that changes while it is
// listed, per resolution.
const listAttempts = 3

// listDir returns the symlinks in dir with their targets, and the names of
// its subdirectories.
func listDir(dir string) (links map[string]string, dirs map[string]struct{}, err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	links, dirs = map[string]string{}, map[string]struct{}{}
	for {
		ents, err := f.ReadDir(1024)
		for _, e := range ents {
			typ := e.Type() // os.ReadDir stats entries the file system did not type
			switch {
			case typ&fs.ModeSymlink != 0:
				target, err := os.Readlink(filepath.Join(dir, e.Name()))
				if err != nil {
					return nil, nil, err
				}
				links[e.Name()] = target
			case typ.IsDir():
				dirs[e.Name()] = struct{}{}
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return links, dirs, nil
			}
			return nil, nil, err
		}
		if len(ents) == 0 {
			return links, dirs, nil
		}
	}
}
