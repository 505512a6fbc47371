package rules

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
)

// Built-in protected and sensitive files. Writes to the agent's own state,
// database, wallet, policy and audit files are refused; reads of key
// material and secrets are refused.
var (
	builtinWriteProtected = []string{
		// the seed's list
		"constitution.md", "wallet.json", "state.db", "automaton.json", "soul.md",
		// the agent's database and its WAL companions, ward's own files
		"state.db-wal", "state.db-shm", "state.db-journal",
		"ward.db", "ward.db-wal", "ward.db-shm", "ward.db-journal",
		"ward.toml", "policy.toml", "*.policy.toml",
		"audit.log", "*.audit", "audit.jsonl", "heartbeat.yml",
		// secrets and key material are never rewritten by the agent either
		".env", ".env.*", "*.pem", "*.key", "id_rsa*", "id_ed25519*", "id_ecdsa*", "id_dsa*",
		"**/.ssh/**", "**/.gnupg/**", "**/.git/hooks/**",
	}
	builtinReadSensitive = []string{
		// the seed's list
		"wallet.json", ".env", "api-key", "*private*key*",
		// more of the same kind
		".env.*", "api_key", "*.api-key", "*secret*key*", "*mnemonic*", "*seed-phrase*", "*seed_phrase*",
		"id_rsa*", "id_ed25519*", "id_ecdsa*", "id_dsa*", "*.pem", "*.key", "*.p12", "*.pfx",
		"*.keystore", "*.jks", ".netrc", ".pgpass", "credentials.json", "service-account*.json",
		"**/.ssh/**", "**/.gnupg/**", "**/.aws/**", "**/keystore/**", "**/*private*key*/**",
		"/proc/*/environ", "/proc/*/mem", "/proc/*/cmdline",
		// tokens of developer tools, in the home directory
		".git-credentials", "~/.docker/config.json", "~/.kube/config", "~/.config/gh/hosts.yml", "~/.npmrc",
		"~/.pypirc", "~/.config/gcloud/**", "~/.azure/**", "~/.terraform.d/credentials.tfrc.json",
	}
)

type pathSet struct {
	resolver  *Resolver
	root      string // resolved absolute root
	home      string
	allowed   []string
	protected *matcher
	sensitive *matcher
	// own and secret are ward's own files and the agent's (Env.Own) and
	// ward's secret directories (Env.Secret), for command safety.
	own    []string
	secret []string

	mu      sync.RWMutex
	workdir map[string]string // resolved request workdirs
	words   map[wordKey]uint8 // classification of shell words, see wordClass
}

// wordKey is a word of a shell command and the directory it is relative to.
type wordKey struct{ base, word string }

// Bits of a cached word classification.
const (
	wordKnown     = 1 << iota
	wordProtected // names a write-protected file
	wordSensitive // names a read-sensitive file
)

const maxWordCache = 16384

const maxWorkdirCache = 1024

func (b *builder) compilePaths() *pathSet {
	c := b.cfg.Paths
	ps := &pathSet{workdir: make(map[string]string), words: make(map[wordKey]uint8), resolver: b.cfg.Resolver}
	ps.home = c.Home
	if ps.home == "" {
		ps.home, _ = os.UserHomeDir()
	}
	if ps.home != "" {
		ps.home = filepath.Clean(ps.home)
		if !filepath.IsAbs(ps.home) {
			b.errorf("paths.home", "must be an absolute path")
		}
	}
	root := c.Root
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			b.errorf("paths.root", "no root configured and the working directory is unknown: %v", err)
		}
		root = wd
	}
	if !filepath.IsAbs(root) {
		b.errorf("paths.root", "must be an absolute path")
	}
	ps.root = resolveDir(root)
	for i, r := range c.AllowedRoots {
		if !filepath.IsAbs(r) {
			b.errorf(fmt.Sprintf("paths.allowed_roots.%d", i), "must be an absolute path")
			continue
		}
		ps.allowed = append(ps.allowed, resolveDir(r))
	}
	compile := func(key string, builtin, extra []string) []pathPattern {
		var out []pathPattern
		for _, src := range builtin {
			if pp, err := compilePattern(src, ps.home); err == nil {
				out = append(out, pp)
			}
		}
		for i, src := range extra {
			pp, err := compilePattern(src, ps.home)
			if err != nil {
				b.errorf(fmt.Sprintf("paths.%s.%d", key, i), "%v", err)
				continue
			}
			out = append(out, pp)
		}
		return out
	}
	protected := compile("write_protected", builtinWriteProtected, c.WriteProtected)
	sensitive := compile("read_sensitive", builtinReadSensitive, c.ReadSensitive)
	p, s := b.selfPaths(ps)
	ps.protected = newMatcher(append(protected, p...))
	ps.sensitive = newMatcher(append(sensitive, s...))
	return ps
}

// resolveDir resolves a configured directory's symlinks if it exists.
func resolveDir(dir string) string {
	dir = filepath.Clean(dir)
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return dir
}

var (
	errEmptyPath = errors.New("empty path")
	errNUL       = errors.New("path contains a NUL byte")
	errTilde     = errors.New("~user paths are not supported")
	errNoHome    = errors.New("~ used but no home directory is known")
	errLongPath  = errors.New("path longer than 4096 bytes")
	errWorkdir   = errors.New("the working directory must be an absolute path")
)

// lexical makes p absolute against base, expanding ~ and resolving . and
// .. without touching the file system.
func (ps *pathSet) lexical(p, base string) (string, error) {
	switch {
	case p == "":
		return "", errEmptyPath
	case len(p) > 4096:
		return "", errLongPath
	case strings.IndexByte(p, 0) >= 0:
		return "", errNUL
	}
	if p[0] == '~' {
		switch {
		case p == "~" || strings.HasPrefix(p, "~/"):
			if ps.home == "" {
				return "", errNoHome
			}
			p = ps.home + p[1:]
		default:
			return "", errTilde
		}
	}
	if !filepath.IsAbs(p) {
		if filepath.Separator == '/' && cleanRel(p) {
			if base == "/" {
				return "/" + p, nil
			}
			return base + "/" + p, nil // base is clean and absolute
		}
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p), nil
}

// cleanRel reports whether p is a relative slash-separated path that
// filepath.Clean would not change: no empty, "." or ".." elements and no
// trailing slash.
func cleanRel(p string) bool {
	if p == "" || p[0] == '/' || p[len(p)-1] == '/' {
		return false
	}
	start := 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		switch e := p[start:i]; e {
		case "", ".", "..":
			return false
		}
		start = i + 1
	}
	return true
}

// base returns the directory relative paths of a request resolve against.
func (ps *pathSet) base(r *policy.Request) (string, error) {
	if r.Workdir == "" {
		return ps.root, nil
	}
	if !filepath.IsAbs(r.Workdir) || strings.IndexByte(r.Workdir, 0) >= 0 {
		return "", errWorkdir
	}
	ps.mu.RLock()
	dir, ok := ps.workdir[r.Workdir]
	ps.mu.RUnlock()
	if ok {
		return dir, nil
	}
	dir = resolveDir(r.Workdir)
	ps.mu.Lock()
	if len(ps.workdir) < maxWorkdirCache {
		ps.workdir[r.Workdir] = dir
	}
	ps.mu.Unlock()
	return dir, nil
}

// resolve returns the path p names as given (absolute, ~ expanded, . and
// .. resolved) and the path a file tool would reach (symlinks followed,
// including a dangling final symlink, which a write would create the target
// of). Both are memoised for the evaluation.
func (ps *pathSet) resolve(r *policy.Request, p string) (lexical, resolved string, err error) {
	return r.Memo(p, func() (string, string, error) {
		base, err := ps.base(r)
		if err != nil {
			return "", "", err
		}
		abs, err := ps.lexical(p, base)
		if err != nil {
			return "", "", err
		}
		res, err := ps.resolver.Resolve(abs)
		return abs, res, err
	})
}

// inside reports whether p is within the call's root (its working
// directory, or the policy's root) or one of the allowed roots.
func (ps *pathSet) inside(p, root string) bool {
	return within(p, root) || containsFunc(ps.allowed, func(r string) bool { return within(p, r) })
}

func within(p, root string) bool {
	if root == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == root || strings.HasPrefix(p, root) && p[len(root)] == filepath.Separator
}

func containsFunc(list []string, fn func(string) bool) bool {
	for _, s := range list {
		if fn(s) {
			return true
		}
	}
	return false
}

// protectedWord and sensitiveWord classify a word of a shell command
// lexically (commands are not resolved on the file system). The analyser
// asks about every word of every command, so classifications are cached:
// they depend only on the word, its directory and the compiled patterns.
func (ps *pathSet) protectedWord(base string) func(string) bool {
	return func(w string) bool { return ps.wordClass(base, w)&wordProtected != 0 }
}

func (ps *pathSet) sensitiveWord(base string) func(string) bool {
	return func(w string) bool { return ps.wordClass(base, w)&wordSensitive != 0 }
}

func (ps *pathSet) wordClass(base, w string) uint8 {
	k := wordKey{base, w}
	ps.mu.RLock()
	c := ps.words[k]
	ps.mu.RUnlock()
	if c&wordKnown != 0 {
		return c
	}
	c = wordKnown
	if abs, err := ps.lexical(w, base); err == nil && w != "" {
		if _, hit := ps.protected.match(abs); hit {
			c |= wordProtected
		}
		if _, hit := ps.sensitive.match(abs); hit {
			c |= wordSensitive
		}
	}
	if len(w) <= 256 {
		ps.mu.Lock()
		if len(ps.words) >= maxWordCache {
			clear(ps.words)
		}
		ps.words[k] = c
		ps.mu.Unlock()
	}
	return c
}

// pathRules builds path protection: read-sensitive files (priority 10),
// traversal out of the agent's root (12) and write-protected files (15).
// Each checks both the path as given and the path symlinks resolve to.
func (b *builder) pathRules() {
	ps := b.paths
	names := b.cfg.Args.Path
	check := func(r *policy.Request, what string) (raw, resolved string, res policy.Result) {
		p, ok, res := stringArg(r.Args, names)
		if res.Opinion {
			return "", "", res
		}
		if !ok {
			return "", "", policy.Denies(reason.MissingArgument, what+" needs a path")
		}
		raw, resolved, err := ps.resolve(r, p)
		if err != nil {
			return "", "", policy.Denies(reason.InvalidPath, "the path cannot be resolved safely: "+err.Error())
		}
		return raw, resolved, policy.NoOpinion
	}
	classify := func(m *matcher, code reason.Code, verb string) func(*policy.Request) (policy.Result, error) {
		return func(r *policy.Request) (policy.Result, error) {
			raw, resolved, res := check(r, "this tool")
			if res.Opinion {
				return res, nil
			}
			pat, hit := m.match(resolved)
			if !hit && raw != resolved {
				pat, hit = m.match(raw)
			}
			if hit {
				return policy.Denies(code, "cannot "+verb+" this file (matches the pattern '"+pat+"')"), nil
			}
			return policy.NoOpinion, nil
		}
	}
	if len(b.cfg.Paths.ReadTools) > 0 {
		b.add(policy.Rule{
			ID: "path-protection.read-sensitive", Priority: 10, Applies: policy.Names(b.cfg.Paths.ReadTools...),
			Eval: classify(ps.sensitive, reason.SensitiveFile, "read"),
		})
	}
	if len(b.cfg.Paths.RootTools) > 0 {
		b.add(policy.Rule{
			ID: "path-protection.traversal", Priority: 12, Applies: policy.Names(b.cfg.Paths.RootTools...),
			Eval: func(r *policy.Request) (policy.Result, error) {
				raw, resolved, res := check(r, "this tool")
				if res.Opinion {
					return res, nil
				}
				root, err := ps.base(r)
				if err != nil {
					return policy.Denies(reason.InvalidPath, "the working directory is invalid: "+err.Error()), nil
				}
				if !ps.inside(resolved, root) || !ps.inside(raw, root) {
					return policy.Denies(reason.PathTraversal, "the path leads outside the agent's root directory"), nil
				}
				return policy.NoOpinion, nil
			},
		})
	}
	if len(b.cfg.Paths.WriteTools) > 0 {
		b.add(policy.Rule{
			ID: "path-protection.write-protected", Priority: 15, Applies: policy.Names(b.cfg.Paths.WriteTools...),
			Eval: classify(ps.protected, reason.ProtectedFile, "write"),
		})
	}
}
