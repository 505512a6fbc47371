package rules

import (
	"github.com/wardhq/ward/internal/policy/rules/shell"
	"github.com/wardhq/ward/internal/policy/slot"
)

// maxCachedCommand bounds the commands a commandCache keeps.
const maxCachedCommand = 512

// commandCache remembers the analyses of the last commands seen, keyed by
// the exact command text and the directory it runs in. Shell analysis is a
// function of those two alone for one compiled policy (the environment's
// word classifiers are lexical and fixed per base, and the rest of the
// environment is fixed when the policy is compiled), so a hit returns what
// shell.Analyze would return; the cache lives and dies with its snapshot.
// It is a slot.Cache: bounded, lock-free, and a flood only evicts. The
// findings slice of an entry is shared by every caller that hits it and
// must not be changed. Commands longer than maxCachedCommand, and
// commands with standard input, are analysed every time.
type commandCache struct {
	*slot.Cache[slotKey, analysis]
}

// analysis is what shell.Analyze returned for one command.
type analysis struct {
	findings []shell.Finding
	err      error
}

func newCommandCache() *commandCache {
	return &commandCache{slot.New[slotKey, analysis](slotKey.clone)}
}

// analyze returns shell.Analyze(cmd, env) for a command run in base, from
// the cache when it holds them. env must be the environment the rule
// builds for base.
func (c *commandCache) analyze(base, cmd string, env *shell.Env) ([]shell.Finding, error) {
	if len(cmd) > maxCachedCommand {
		return shell.Analyze(cmd, env)
	}
	k := slotKey{dir: base, s: cmd}
	if a, ok := c.Get(k); ok {
		return a.findings, a.err
	}
	findings, err := shell.Analyze(cmd, env)
	c.Put(k, analysis{findings, err})
	return findings, err
}
