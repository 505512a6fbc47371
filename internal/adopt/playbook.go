package adopt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// ErrPlaybookLocked is returned by OpenPlaybook when another writer holds
// the PLAYBOOK's lock.
var ErrPlaybookLocked = errors.New("playbook is locked by another writer")

// ErrPlaybookClosed is returned by Write after Close.
var ErrPlaybookClosed = errors.New("playbook closed")

// Playbook is the single writer of a PLAYBOOK file: the promoted lessons as
// human-readable Markdown. It holds an exclusive lock on the file PATH.lock
// from OpenPlaybook to Close (an advisory flock on Unix, released by the
// kernel if the process dies; elsewhere the lock file's exclusive
// creation), and replaces the file atomically on each Write, so a reader
// sees the old PLAYBOOK or the new one, never a mix. Its methods are safe
// for concurrent use.
type Playbook struct {
	path string
	mu   sync.Mutex
	lock *os.File // nil once closed
}

// OpenPlaybook takes the writer's lock of the PLAYBOOK at path. A second
// writer, in this process or another, gets an error wrapping
// ErrPlaybookLocked that names the lock file.
func OpenPlaybook(ctx context.Context, path string) (*Playbook, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("adopt: playbook %s: %w", path, err)
	}
	if path == "" {
		return nil, fmt.Errorf("adopt: playbook: %w: empty path", ErrInvalid)
	}
	lockPath := path + ".lock"
	f, err := lockFile(lockPath)
	if err != nil {
		return nil, fmt.Errorf("adopt: playbook %s: lock %s: %w", path, lockPath, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0) // for whoever wonders who holds it
	}
	return &Playbook{path: path, lock: f}, nil
}

// Path returns the PLAYBOOK's path.
func (p *Playbook) Path() string { return p.path }

// Write replaces the PLAYBOOK with RenderPlaybook(lessons): written to a
// temporary file in the same directory, synced, and renamed over the old
// one. On error the old PLAYBOOK is left as it was.
func (p *Playbook) Write(ctx context.Context, lessons []Lesson) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("adopt: playbook %s: %w", p.path, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lock == nil {
		return fmt.Errorf("adopt: playbook %s: %w", p.path, ErrPlaybookClosed)
	}
	if err := writeAtomic(p.path, RenderPlaybook(lessons)); err != nil {
		return fmt.Errorf("adopt: playbook %s: %w", p.path, err)
	}
	return nil
}

func writeAtomic(path string, b []byte) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(b); err == nil {
		err = tmp.Sync()
	}
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil { // make the rename durable where the OS allows
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// Close releases the lock; later Writes fail with ErrPlaybookClosed.
// Closing twice is a no-op.
func (p *Playbook) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lock == nil {
		return nil
	}
	err := unlockFile(p.lock)
	p.lock = nil
	if err != nil {
		return fmt.Errorf("adopt: playbook %s: unlock: %w", p.path, err)
	}
	return nil
}

// RenderPlaybook returns the PLAYBOOK's Markdown for lessons, in their
// order: one section per heuristic with its advice, the conditions and
// keywords it applies under, its confidence and when it was promoted. Text
// from lessons (which may derive from hostile entries) is flattened to one
// line with control characters removed, so it cannot add headings or
// sections of its own. The output depends only on lessons.
func RenderPlaybook(lessons []Lesson) []byte {
	var b bytes.Buffer
	b.WriteString("# PLAYBOOK\n\n")
	b.WriteString("Heuristics ward promoted from its lessons store: each lesson matched more than 10 times in 7 days.\n")
	b.WriteString("This file is written by ward alone (one writer, atomic replace); edits are overwritten.\n")
	if len(lessons) == 0 {
		b.WriteString("\nNo heuristics yet.\n")
	}
	for i := range lessons {
		l := &lessons[i]
		title := line(l.Summary)
		if title == "" {
			title = line(l.ID)
		}
		fmt.Fprintf(&b, "\n## %s\n\n", title)
		if a := line(l.Advice); a != "" {
			fmt.Fprintf(&b, "%s\n\n", a)
		}
		fmt.Fprintf(&b, "- id: %s\n", line(l.ID))
		if len(l.Conditions) > 0 {
			fmt.Fprintf(&b, "- when: %s\n", lines(l.Conditions, "; "))
		}
		if len(l.Keywords) > 0 {
			fmt.Fprintf(&b, "- keywords: %s\n", lines(l.Keywords, ", "))
		}
		if r := line(l.Reason); r != "" {
			fmt.Fprintf(&b, "- learned from: %s\n", r)
		}
		fmt.Fprintf(&b, "- confidence: %.2f\n", l.Confidence)
		if !l.Promoted.IsZero() {
			fmt.Fprintf(&b, "- promoted: %s\n", l.Promoted.UTC().Format(time.RFC3339))
		}
	}
	return b.Bytes()
}

func lines(ss []string, sep string) string {
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		out = append(out, line(s))
	}
	return strings.Join(out, sep)
}

// line flattens s to one line: control characters and runs of white space
// become one space, and Markdown's heading, emphasis and code characters are
// escaped.
func line(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "#", `\#`, "<", "&lt;", "[", `\[`).Replace(s)
}
