package rules

import (
	"hash/maphash"
	"strings"
	"sync/atomic"

	"github.com/wardhq/ward/internal/policy/rules/shell"
)

// Bounds of a commandCache: it holds at most commandCacheSlots analyses,
// each of a command of at most maxCachedCommand bytes, whatever the calls.
const (
	commandCacheSlots = 1024 // a power of two
	maxCachedCommand  = 512
)

// commandCache remembers the analyses of the last commands seen, keyed by
// the exact command text and the directory it runs in. Shell analysis is a
// function of those two alone for one compiled policy (the environment's
// word classifiers are lexical and fixed per base, and the rest of the
// environment is fixed when the policy is compiled), so a hit returns what
// shell.Analyze would return; the cache lives and dies with its snapshot.
//
// It is direct-mapped: a command's hash picks one slot, and a new command
// replaces whatever the slot held, so a flood of distinct commands costs a
// bounded amount of memory and only evicts. A slot holds an immutable
// entry swapped atomically, so lookups take no lock; the findings slice of
// an entry is shared by every caller that hits it and must not be changed.
// Commands longer than maxCachedCommand, and commands with standard input,
// are analysed every time.
type commandCache struct {
	seed  maphash.Seed
	slots [commandCacheSlots]atomic.Pointer[commandEntry]
}

type commandEntry struct {
	base, cmd string
	findings  []shell.Finding
	err       error
}

func newCommandCache() *commandCache {
	return &commandCache{seed: maphash.MakeSeed()}
}

// analyze returns shell.Analyze(cmd, env) for a command run in base, from
// the cache when it holds them. env must be the environment the rule
// builds for base.
func (c *commandCache) analyze(base, cmd string, env *shell.Env) ([]shell.Finding, error) {
	if len(cmd) > maxCachedCommand {
		return shell.Analyze(cmd, env)
	}
	slot := &c.slots[c.slot(base, cmd)]
	if e := slot.Load(); e != nil && e.cmd == cmd && e.base == base {
		return e.findings, e.err
	}
	findings, err := shell.Analyze(cmd, env)
	// cmd may be a slice of a call's arguments (up to their size limit):
	// the entry keeps a copy, not the arguments.
	slot.Store(&commandEntry{base: strings.Clone(base), cmd: strings.Clone(cmd), findings: findings, err: err})
	return findings, err
}

func (c *commandCache) slot(base, cmd string) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	h.WriteString(base)
	h.WriteByte(0)
	h.WriteString(cmd)
	return h.Sum64() & (commandCacheSlots - 1)
}

// len returns the number of slots in use, for tests.
func (c *commandCache) len() int {
	n := 0
	for i := range c.slots {
		if c.slots[i].Load() != nil {
			n++
		}
	}
	return n
}
