//go:build linux

package rules

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/fsnotify/fsnotify"
)

func TestWatcherDirsOf(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	mustMkdirAll(t, sub)
	for _, tc := range []struct {
		name   string
		ev     fsnotify.Event
		want   []string
		forget bool // sub is no longer watched afterwards
	}{
		{"create", fsnotify.Event{Name: filepath.Join(root, "x"), Op: fsnotify.Create}, []string{root}, false},
		{"rename in", fsnotify.Event{Name: filepath.Join(sub, "x"), Op: fsnotify.Rename}, []string{sub}, false},
		{"write", fsnotify.Event{Name: filepath.Join(sub, "x"), Op: fsnotify.Write}, nil, false},
		{"chmod", fsnotify.Event{Name: filepath.Join(sub, "x"), Op: fsnotify.Chmod}, nil, false},
		{"subdirectory removed", fsnotify.Event{Name: sub, Op: fsnotify.Remove}, []string{root, sub}, true},
		{"subdirectory moved", fsnotify.Event{Name: sub, Op: fsnotify.Rename}, []string{root, sub}, true},
		{"unmounted", fsnotify.Event{Name: sub, Op: 0}, []string{root, sub}, true},
		{"unwatched", fsnotify.Event{Name: "/nowhere/x", Op: fsnotify.Create}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := newWatcher(func(string) {})
			if err != nil {
				t.Fatal(err)
			}
			defer w.close()
			fw := w.(*fsWatcher)
			if !fw.watch(root) || !fw.watch(sub) {
				t.Fatal("cannot watch the test directories")
			}
			if got := fw.dirsOf(tc.ev); !slices.Equal(got, tc.want) {
				t.Errorf("dirsOf(%v) = %v, want %v", tc.ev, got, tc.want)
			}
			fw.mu.Lock()
			_, watched := fw.dirs[sub]
			fw.mu.Unlock()
			if watched == tc.forget {
				t.Errorf("sub watched = %v after the event, want %v", watched, !tc.forget)
			}
		})
	}
}

// TestWatcherRefusesLink: a directory replaced by a symlink must not be
// watched through the link (inotify's IN_DONT_FOLLOW, which fsnotify does
// not set).
func TestWatcherRefusesLink(t *testing.T) {
	root := t.TempDir()
	mustMkdirAll(t, filepath.Join(root, "real"))
	mustLink(t, filepath.Join(root, "real"), filepath.Join(root, "link"))
	mustWriteFile(t, filepath.Join(root, "file"))
	w, err := newWatcher(func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	for _, tc := range []struct {
		name string
		want bool
	}{{"real", true}, {"link", false}, {"file", false}, {"missing", false}} {
		if got := w.watch(filepath.Join(root, tc.name)); got != tc.want {
			t.Errorf("watch(%s) = %v, want %v", tc.name, got, tc.want)
		}
	}
	if err := w.close(); err != nil {
		t.Fatal(err)
	}
	if w.watch(filepath.Join(root, "real")) {
		t.Error("watch after close succeeded")
	}
}
