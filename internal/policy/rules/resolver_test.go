package rules

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// eventually polls cond; inotify events are delivered asynchronously (within
// microseconds), so tests give the reader goroutine a moment.
func eventually(t *testing.T, cond func() bool) bool {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		runtime.Gosched()
	}
	return cond()
}

func TestResolverFollowsLinks(t *testing.T) {
	root := t.TempDir()
	mustMkdirAll(t, filepath.Join(root, "a", "b"))
	mustWriteFile(t, filepath.Join(root, "wallet.json"))
	mustLink(t, "../wallet.json", filepath.Join(root, "a", "w"))
	mustLink(t, filepath.Join(root, "a"), filepath.Join(root, "alias"))
	mustLink(t, filepath.Join(root, "nowhere", "x"), filepath.Join(root, "dangling"))
	mustLink(t, "loop2", filepath.Join(root, "loop1"))
	mustLink(t, "loop1", filepath.Join(root, "loop2"))
	r := NewResolver()
	defer r.Close()
	for _, tc := range []struct {
		in, want string
		err      bool
	}{
		{in: "a/w", want: "wallet.json"},
		{in: "alias/w", want: "wallet.json"},
		{in: "alias/b/new.txt", want: "a/b/new.txt"},
		{in: "a/b/new/deeper/file", want: "a/b/new/deeper/file"},
		{in: "dangling", want: "nowhere/x"},
		{in: "loop1", err: true},
	} {
		for range 2 { // uncached, then cached
			got, err := r.Resolve(filepath.Join(root, tc.in))
			if tc.err {
				if err == nil {
					t.Errorf("Resolve(%s) = %s, want an error", tc.in, got)
				}
				continue
			}
			if err != nil || got != filepath.Join(root, tc.want) {
				t.Errorf("Resolve(%s) = %s, %v; want %s", tc.in, got, err, filepath.Join(root, tc.want))
			}
		}
	}
}

// TestResolverSeesPlantedLink is the attack the cache must not enable: a
// path is resolved (and cached) as an ordinary file, then replaced by a
// symlink to the wallet; the next resolution must follow the new link.
func TestResolverSeesPlantedLink(t *testing.T) {
	root := t.TempDir()
	mustMkdirAll(t, filepath.Join(root, "notes", "deep"))
	mustWriteFile(t, filepath.Join(root, "wallet.json"))
	target := filepath.Join(root, "notes", "deep", "plan.md")
	mustWriteFile(t, target)
	r := NewResolver()
	defer r.Close()
	if !r.Caching() {
		t.Skip("no directory watching on this platform: nothing is cached")
	}
	for i := range 3 {
		if got, _ := r.Resolve(target); got != target {
			t.Fatalf("resolve %d = %s", i, got)
		}
	}
	// Replace the file by a link, and separately swap an ancestor directory
	// for a link.
	if err := os.Remove(target); err != nil {
		t.Fatal(err)
	}
	mustLink(t, filepath.Join(root, "wallet.json"), target)
	if !eventually(t, func() bool { got, _ := r.Resolve(target); return got == filepath.Join(root, "wallet.json") }) {
		got, _ := r.Resolve(target)
		t.Fatalf("after planting a link the path still resolves to %s", got)
	}

	other := filepath.Join(root, "notes", "deep", "other.md")
	r.Resolve(other)
	if err := os.Rename(filepath.Join(root, "notes", "deep"), filepath.Join(root, "notes", "old")); err != nil {
		t.Fatal(err)
	}
	mustMkdirAll(t, filepath.Join(root, "elsewhere"))
	mustLink(t, filepath.Join(root, "elsewhere"), filepath.Join(root, "notes", "deep"))
	want := filepath.Join(root, "elsewhere", "other.md")
	if !eventually(t, func() bool { got, _ := r.Resolve(other); return got == want }) {
		got, _ := r.Resolve(other)
		t.Fatalf("after swapping an ancestor for a link: %s, want %s", got, want)
	}
}

func TestResolverCaches(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "a.txt")
	mustWriteFile(t, p)
	r := NewResolver()
	defer r.Close()
	if !r.Caching() {
		t.Skip("no directory watching on this platform")
	}
	// Other processes may keep changing the directories above root (/tmp),
	// which makes a listing stale and the resolution uncached this time:
	// caching must happen within a few resolutions, not at the first.
	cached := func() bool {
		r.Resolve(p)
		r.mu.RLock()
		defer r.mu.RUnlock()
		tab, ok := r.dirs[root]
		return ok && tab.ready && !tab.stale
	}
	if !eventually(t, cached) {
		t.Fatal("the directory of a resolved path was not cached")
	}
	// After Close the resolver still works, uncached.
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := r.Resolve(p); err != nil || got != p {
		t.Errorf("after Close: %s, %v", got, err)
	}
}

func TestNilResolver(t *testing.T) {
	var r *Resolver
	p := t.TempDir()
	if got, err := r.Resolve(p); err != nil || got == "" {
		t.Errorf("nil resolver: %s, %v", got, err)
	}
	if err := r.Close(); err != nil {
		t.Error(err)
	}
}

func mustMkdirAll(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustWriteFile(t *testing.T, p string) {
	t.Helper()
	if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
