package registry

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/wardhq/ward/internal/tool"
)

// MaxToolsPerTick is how many tools Prune keeps by default (seed 002: the
// task classifier exposes 12 or fewer tools per tick).
const MaxToolsPerTick = 12

// Prune returns at most max of the view's tools (MaxToolsPerTick when max
// <= 0), the ones most relevant to task: a tool scores by the task's words
// found in its name (3 points each), its category (2) and its description
// (1); ties keep name order. With an empty task it keeps the first max
// tools by name. The result is deterministic.
func Prune(v *View, task string, max int) []*tool.Def {
	if max <= 0 {
		max = MaxToolsPerTick
	}
	words := taskWords(task)
	type scored struct {
		d     *tool.Def
		score int
	}
	var all []scored
	for _, e := range v.Entries() {
		d := e.Def
		s := 0
		name := strings.Split(d.Name, "_")
		desc := taskWords(d.Description)
		for w := range words {
			for _, n := range name {
				if n == w {
					s += 3
				}
			}
			if string(d.Category) == w {
				s += 2
			}
			if desc[w] {
				s++
			}
		}
		all = append(all, scored{d, s})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].score > all[j].score })
	if len(all) > max {
		all = all[:max]
	}
	out := make([]*tool.Def, len(all))
	for i, s := range all {
		out[i] = s.d
	}
	return out
}

var stop = map[string]bool{"the": true, "a": true, "an": true, "of": true, "to": true, "and": true,
	"or": true, "for": true, "in": true, "on": true, "my": true, "is": true, "it": true, "with": true,
	"use": true, "when": true, "this": true, "that": true, "not": true, "get": true}

func taskWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9')
	}) {
		if len(w) > 1 && !stop[w] {
			out[w] = true
		}
	}
	return out
}

// Speculator prefetches read tools that usually follow the tool just
// called (seed 002's speculation engine). It accepts only ReadTool values,
// so it cannot run a write.
type Speculator struct {
	// next maps a tool to the read tools that follow it with at least the
	// threshold probability.
	next map[string][]ReadTool
}

// CoOccurrence is one observed pair: after tool After, tool Next is called
// with probability P.
type CoOccurrence struct {
	After, Next string
	P           float64
}

// DefaultSpeculationThreshold is the minimum probability that triggers a
// prefetch.
const DefaultSpeculationThreshold = 0.7

// NewSpeculator returns a speculator over the read tools of r for the
// pairs at or above threshold. A pair whose Next is not a read tool is an
// error: speculation never reaches a write.
func NewSpeculator(r *Registry, pairs []CoOccurrence, threshold float64) (*Speculator, error) {
	s := &Speculator{next: map[string][]ReadTool{}}
	for _, p := range pairs {
		if p.P < threshold {
			continue
		}
		rt, ok := r.ReadTool(p.Next)
		if !ok {
			return nil, fmt.Errorf("registry: speculation target %q is not a registered read tool", p.Next)
		}
		s.next[p.After] = append(s.next[p.After], rt)
	}
	return s, nil
}

// Candidates returns the read tools to prefetch after tool name.
func (s *Speculator) Candidates(name string) []ReadTool { return s.next[name] }

// Prefetch runs tools concurrently with in and returns their results by
// tool name; failures are left out (a prefetch is only a guess).
func Prefetch(ctx context.Context, tools []ReadTool, in func(ReadTool) *Input) map[string]*tool.Result {
	out := map[string]*tool.Result{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, t := range tools {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, t.Def().Budget.Duration())
			defer cancel()
			r, err := t.Run(ctx, in(t))
			if err != nil || r == nil {
				return
			}
			mu.Lock()
			out[t.Def().Name] = r
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}
