package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
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

	abs *lexicalCache // lexical's results of the last paths

	mu      sync.RWMutex
	workdir map[string]*workdirEntry // resolved request workdirs
	// lastDir is the entry of workdir base found last (an agent's calls
	// share their working directory): found again without the lock and
	// the map.
	lastDir atomic.Pointer[workdirEntry]
	words   map[wordKey]uint8 // classification of shell words, see wordClass
	// lastWords are the word classifiers of the last base a command was
	// checked under (see wordFuncsFor).
	lastWords atomic.Pointer[wordFuncs]
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
	ps := &pathSet{workdir: make(map[string]*workdirEntry), words: make(map[wordKey]uint8), resolver: b.cfg.Resolver, abs: newLexicalCache()}
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
	if e := ps.lastDir.Load(); e != nil && e.workdir == r.Workdir {
		return e.dir, nil
	}
	ps.mu.RLock()
	e, ok := ps.workdir[r.Workdir]
	ps.mu.RUnlock()
	if ok {
		ps.lastDir.Store(e)
		return e.dir, nil
	}
	dir := resolveDir(r.Workdir)
	ps.mu.Lock()
	if len(ps.workdir) < maxWorkdirCache {
		ps.workdir[r.Workdir] = &workdirEntry{workdir: r.Workdir, dir: dir}
	}
	ps.mu.Unlock()
	return dir, nil
}

// workdirEntry is a request workdir and its resolution, as ps.workdir
// holds them.
type workdirEntry struct{ workdir, dir string }

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
		abs, err := ps.abs.lexical(ps, p, base)
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

// wordFuncs are protectedWord and sensitiveWord of one base.
type wordFuncs struct {
	base                 string
	protected, sensitive func(string) bool
}

// wordFuncsFor returns the word classifiers of base, reusing those of the
// last command when it had the same base (an agent's commands share their
// working directory): making them is two allocations per command. The
// classifiers are functions of the base alone, so which command made
// them does not matter.
func (ps *pathSet) wordFuncsFor(base string) *wordFuncs {
	if w := ps.lastWords.Load(); w != nil && w.base == base {
		return w
	}
	w := &wordFuncs{base: base, protected: ps.protectedWord(base), sensitive: ps.sensitiveWord(base)}
	ps.lastWords.Store(w)
	return w
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

// pathRules adds path protection: read-sensitive files (priority 10),
// traversal out of the agent's root (12) and write-protected files (15).
// Each checks both the path as given and the path symlinks resolve to.
// Each applies to the tools it is configured with (Paths.ReadTools,
// RootTools, WriteTools), whose path argument (ArgNames.Path) is required.
// A tool none of those lists names is checked when its parameters carry a
// path, found by their role (pathParams): the tool's schema from
// Config.ToolParams or, when it is unknown, the call's argument names (and
// the name of an argument the schema does not declare: an unclassified
// argument is never skipped). Every path it is given must not be
// read-sensitive, nor, unless the tool only reads, write-protected. The
// root is not imposed on such a tool: an upstream server reads its paths
// in its own file system (a shell server's working directory, a file
// server's share), which the agent's root does not describe, while a
// secret or ward's own files are what they are wherever they are named.
func (b *builder) pathRules() {
	ps := b.paths
	discovered := pathScope{
		names:      b.cfg.Args.Path,
		params:     &pathParamCache{schema: b.cfg.ToolParams, names: b.cfg.Args.Path},
		configured: slices.Concat(b.cfg.Paths.ReadTools, b.cfg.Paths.RootTools, b.cfg.Paths.WriteTools),
		discover:   true,
	}
	read := discovered
	read.tools = slices.Clone(b.cfg.Paths.ReadTools)
	b.add(policy.Rule{
		ID: "path-protection.read-sensitive", Priority: 10, Applies: policy.All(),
		Eval: ps.eachPath(b.scoped("path-protection.read-sensitive", read), ps.sensitive.deny(reason.SensitiveFile, "read")),
	})
	if len(b.cfg.Paths.RootTools) > 0 {
		b.add(policy.Rule{
			ID: "path-protection.traversal", Priority: 12, Applies: policy.Names(b.cfg.Paths.RootTools...),
			Eval: ps.eachPath(pathScope{names: b.cfg.Args.Path, every: true}, ps.outsideRoot),
		})
	}
	write := discovered
	write.tools, write.writes = slices.Clone(b.cfg.Paths.WriteTools), true
	b.add(policy.Rule{
		ID: "path-protection.write-protected", Priority: 15, Applies: policy.All(),
		Eval: ps.eachPath(b.scoped("path-protection.write-protected", write), ps.protected.deny(reason.ProtectedFile, "write")),
	})
}

// pathScope says which calls a path rule checks, and finds their paths.
type pathScope struct {
	every    bool     // every call the rule's selector lets through is listed
	tools    []string // listed: their path argument is required
	discover bool     // also tools no list names, by their path parameters
	writes   bool     // of those, only tools that do not just read

	names      []string // ArgNames.Path
	configured []string // the tools some list names
	params     *pathParamCache
}

// scoped is sc unless the operator set applies_to for the rule id: then it
// names the tools the rule watches, as the lists do: their path argument
// is required, and nothing is discovered.
func (b *builder) scoped(id string, sc pathScope) pathScope {
	if o, ok := b.cfg.Builtin[id]; ok && o.AppliesTo != nil {
		return pathScope{names: sc.names, every: true}
	}
	return sc
}

// paths returns the paths of a call that sc checks: the path argument of
// a listed tool (one, returned as such: a slice of it would be an
// allocation per rule and call) or those its parameters carry (list).
func (sc *pathScope) paths(r *policy.Request) (one string, isOne bool, list []string, res policy.Result) {
	switch {
	case sc.every || slices.Contains(sc.tools, r.Tool.Name):
		p, ok, res := stringArg(r.Args, sc.names)
		if res.Opinion {
			return "", false, nil, res
		}
		if !ok {
			return "", false, nil, policy.Denies(reason.MissingArgument, "this tool needs a path")
		}
		return p, true, nil, policy.NoOpinion
	case !sc.discover, slices.Contains(sc.configured, r.Tool.Name), sc.writes && r.Tool.Tier.Effective() == tool.Read:
		return "", false, nil, policy.NoOpinion
	}
	list, res = sc.params.discover(r)
	return "", false, list, res
}

// eachPath returns a rule's evaluation: fn on every path sc checks, as
// given (raw) and resolved; the first opinion is the result.
func (ps *pathSet) eachPath(sc pathScope, fn func(r *policy.Request, raw, resolved string) policy.Result) func(*policy.Request) (policy.Result, error) {
	check := func(r *policy.Request, p string) policy.Result {
		raw, resolved, err := ps.resolve(r, p)
		if err != nil {
			return policy.Denies(reason.InvalidPath, "the path cannot be resolved safely: "+err.Error())
		}
		return fn(r, raw, resolved)
	}
	return func(r *policy.Request) (policy.Result, error) {
		one, isOne, list, res := sc.paths(r)
		if res.Opinion {
			return res, nil
		}
		if isOne {
			return check(r, one), nil
		}
		for _, p := range list {
			if res := check(r, p); res.Opinion {
				return res, nil
			}
		}
		return policy.NoOpinion, nil
	}
}

// deny returns a path check that denies with code a path, resolved or as
// given, that m matches: the agent cannot verb the file.
func (m *matcher) deny(code reason.Code, verb string) func(r *policy.Request, raw, resolved string) policy.Result {
	var messages textMemo[string] // pat is one of m's patterns
	message := func(pat string) string { return "cannot " + verb + " this file (matches the pattern '" + pat + "')" }
	return func(r *policy.Request, raw, resolved string) policy.Result {
		pat, hit := m.match(resolved)
		if !hit && raw != resolved {
			pat, hit = m.match(raw)
		}
		if hit {
			return policy.Denies(code, messages.get(pat, message))
		}
		return policy.NoOpinion
	}
}

// outsideRoot is the path check of traversal: a path, resolved or as
// given, outside the agent's root is denied.
func (ps *pathSet) outsideRoot(r *policy.Request, raw, resolved string) policy.Result {
	root, err := ps.base(r)
	if err != nil {
		return policy.Denies(reason.InvalidPath, "the working directory is invalid: "+err.Error())
	}
	if !ps.inside(resolved, root) || !ps.inside(raw, root) {
		return policy.Denies(reason.PathTraversal, "the path leads outside the agent's root directory")
	}
	return policy.NoOpinion
}

// pathParamCache finds the parameters of each tool that carry a path: from
// the tool's schema, classified once, or from the call's argument names.
type pathParamCache struct {
	schema func(string) json.RawMessage
	names  []string // ArgNames.Path
	known  sync.Map // tool name → *schemaPaths, for tools with a schema
}

// schemaPaths is what a tool's schema says of its parameters: those that
// carry a path, and every one it declares (sorted).
type schemaPaths struct {
	paths, declared []string
}

// discoveredKey memoises, for one evaluation, how many paths discover
// found (a spend category, the other memo key, has no NUL byte).
const discoveredKey = "\x00path-params"

// discover is values for r's tool and arguments. Both path rules discover,
// and most calls of a tool no list names carry no path: that the call
// carries none is memoised for the evaluation, so the second rule does not
// walk the arguments again. A call that carries paths, or whose path
// parameter is a deny, is walked by each rule (its paths are not kept).
func (pc *pathParamCache) discover(r *policy.Request) ([]string, policy.Result) {
	var list []string
	res := policy.NoOpinion
	walked := false
	n, _, _ := r.MemoInt(discoveredKey, func() (int64, bool, error) {
		list, res = pc.values(r.Tool.Name, r.Args)
		walked = true
		if res.Opinion {
			return -1, false, nil
		}
		return int64(len(list)), true, nil
	})
	if walked || n == 0 {
		return list, res
	}
	return pc.values(r.Tool.Name, r.Args)
}

// values returns the paths a call's path parameters carry (a string, or
// each string of an array). A path parameter holding anything else is a
// deny: a handler might read it as a path all the same.
func (pc *pathParamCache) values(name string, a *tool.Args) ([]string, policy.Result) {
	if a == nil || a.Len() == 0 {
		return nil, policy.NoOpinion
	}
	var sch *schemaPaths
	if pc.schema != nil {
		if v, ok := pc.known.Load(name); ok {
			sch = v.(*schemaPaths)
		} else if raw := pc.schema(name); raw != nil {
			paths, declared := pathParams(raw, pc.names)
			v, _ := pc.known.LoadOrStore(name, &schemaPaths{paths: paths, declared: declared})
			sch = v.(*schemaPaths)
		}
	}
	var out []string
	for i := range a.Len() {
		k := a.Key(i) // most names are not paths: their values are not read
		// A parameter the schema declares is a path by its role there;
		// one it does not declare (the schema allows more, or the caller
		// sent it anyway) is judged by its name, as without a schema.
		if sch != nil && slices.Contains(sch.declared, k) {
			if !slices.Contains(sch.paths, k) {
				continue
			}
		} else if !pathName(k, pc.names) {
			continue
		}
		f := a.Field(i)
		switch f.Value.Kind() {
		case tool.String:
			s, _ := f.Value.Str()
			out = append(out, s)
		case tool.Array:
			for _, e := range f.Value.Elems() {
				s, ok := e.Str()
				if !ok {
					return nil, policy.Denies(reason.BadInput, fmt.Sprintf("argument %q carries paths, which must be strings", f.Key))
				}
				out = append(out, s)
			}
		case tool.Null:
		default:
			return nil, policy.Denies(reason.BadInput, fmt.Sprintf("argument %q carries a path, which must be a string", f.Key))
		}
	}
	return out, policy.NoOpinion
}

// pathParams returns, sorted, the top-level parameters of a tool's
// parameter schema that carry a file-system path: those annotated "format": "path"
// (tool.FormatPath, the role a tool declares), and, for schemas that
// declare no role, those whose name says so (pathName) and whose type is a
// string or an array. Only the parameter's name is read, never its
// description: "the path of the request" or "file a ticket" would make
// every text a path. declared is every parameter the schema names, sorted:
// a call's argument outside it is judged by its name (a schema that does
// not decode declares none).
func pathParams(schema json.RawMessage, names []string) (paths, declared []string) {
	var sch struct {
		Properties map[string]struct {
			Type   json.RawMessage `json:"type"`
			Format string          `json:"format"`
			Items  *struct {
				Format string `json:"format"`
			} `json:"items"`
		} `json:"properties"`
	}
	if json.Unmarshal(schema, &sch) != nil {
		return nil, nil
	}
	for n, p := range sch.Properties {
		declared = append(declared, n)
		isDeclared := p.Format == tool.FormatPath || p.Items != nil && p.Items.Format == tool.FormatPath
		typ := string(p.Type)
		stringish := typ == "" || strings.Contains(typ, `"string"`) || strings.Contains(typ, `"array"`)
		if isDeclared || stringish && pathName(n, names) {
			paths = append(paths, n)
		}
	}
	slices.Sort(paths)
	slices.Sort(declared)
	return paths, declared
}

// separators drops the word separators of a parameter name (a Replacer
// is safe for concurrent use; building one per call cost 37 KB).
var separators = strings.NewReplacer("_", "", "-", "")

// pathName reports whether a parameter name names a file-system path: one
// of names (ArgNames.Path), or, ignoring case, "_" and "-", "file",
// "filename", "dir", "directory", "folder", or a word ending in "path" or
// "paths" (source_path, destinationPath, paths).
func pathName(n string, names []string) bool {
	if slices.Contains(names, n) {
		return true
	}
	// n lower-cased without separators, in place for the usual short
	// names (this runs for every argument of every call of a tool no list
	// names).
	var buf [64]byte
	var k []byte
	if len(n) <= len(buf) {
		k = buf[:0]
	}
	for i := range len(n) {
		c := n[i]
		switch {
		case c == '_' || c == '-':
			continue
		case c >= 0x80:
			return pathNameSlow(n)
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		k = append(k, c)
	}
	switch string(k) {
	case "file", "filename", "dir", "directory", "folder":
		return true
	}
	return bytes.HasSuffix(k, []byte("path")) || bytes.HasSuffix(k, []byte("paths"))
}

// pathNameSlow is pathName's test for a name that is not ASCII.
func pathNameSlow(n string) bool {
	k := strings.ToLower(separators.Replace(n))
	switch k {
	case "file", "filename", "dir", "directory", "folder":
		return true
	}
	return strings.HasSuffix(k, "path") || strings.HasSuffix(k, "paths")
}
