// Package shell finds what a POSIX or bash command line would do, so that the
// policy rule command-safety.forbidden-patterns can deny a tool call that
// runs a destructive command. CommandParams finds, in a tool's parameter
// schema, the parameters that carry a command (by their role, not by the
// tool's name), so that any tool that runs commands is checked.
//
// Analyze parses the command the way bash would: quoting and escapes, ANSI-C
// strings, parameter, command, process and brace substitution, redirections,
// here-documents, compound commands and function definitions. It looks through
// the wrappers used to hide a command (sudo, env, xargs, find -exec, busybox,
// timeout, …) and into inline scripts (sh -c, eval, here-documents fed to a
// shell, python -c, perl -e, …), and checks every command it finds against the
// kinds of damage listed by Kind. The seed's forbidden regular expressions are
// also matched against the raw text and a normalised form of it, so that
// everything the seed denied is still denied.
//
// The agent's own files (ward's data directory and configuration, files the
// operator lists: Env.Own) are found however a command names them: relative
// to the directory it has changed to, through "..", "~", globs and the
// variables the analysis can fold, and as a directory holding them. SQL given
// to a database client is read statement by statement; archiving a protected
// path and uploading in the same command line is exfiltration.
//
// The analysis is static and over-approximates: nothing is executed and no
// file is read. Values known only at run time (unassigned variables, the
// output of arbitrary commands) are opaque; values that can be known
// (literal assignments earlier in the command, echo/printf/base64 output in a
// command substitution or a pipe) are computed. A command that might do
// something forbidden is reported, and a command that cannot be parsed safely
// yields ErrMalformed, ErrTooLong or ErrTooDeep, which the caller must treat as
// a deny. Work is bounded by MaxLen, MaxDepth and an internal expansion budget.
//
// Analyze and Parse are safe for concurrent use; Env is only read.
package shell

import (
	"errors"
	"fmt"
	"slices"
)

// Limits: longer or deeper commands are refused as malformed (fail closed).
const (
	MaxLen   = 64 << 10 // bytes
	MaxDepth = 8        // nesting of $( ), backticks, sh -c "...", eval, subshells
)

// Errors returned by Analyze and Parse. Each is wrapped with detail that never
// quotes the command itself; test with errors.Is.
var (
	// ErrMalformed reports a command bash would reject or that cannot be read
	// unambiguously: an unterminated quote or substitution, unbalanced parens,
	// a missing command or redirection target.
	ErrMalformed = errors.New("malformed command")
	// ErrTooLong reports a command longer than MaxLen, or one whose expansions
	// (brace expansion, variables, nested scripts) exceed the work budget.
	ErrTooLong = errors.New("command too long")
	// ErrTooDeep reports nesting deeper than MaxDepth.
	ErrTooDeep = errors.New("command nested too deeply")
)

// Kind is a kind of forbidden effect. The zero value is not a valid kind.
type Kind uint8

// Kinds of forbidden effects.
const (
	// DestroyFiles is recursive deletion or wiping of /, the home directory,
	// system directories or the agent's root.
	DestroyFiles Kind = iota + 1
	// DestroyState is deleting, modifying, overwriting or truncating the
	// agent's own protected files (database, wallet, policy, audit log).
	DestroyState
	// KillProcess is kill -9 in any spelling, killing pid 1, -1, 0, $$ or
	// $PPID, or stopping the agent's own processes.
	KillProcess
	// Shutdown is shutting down, rebooting or halting the machine.
	Shutdown
	// RawDisk is formatting or writing a block device.
	RawDisk
	// ReadSecrets is reading key material or secrets: sensitive files,
	// the environment, secret-looking variables, /proc/*/environ.
	ReadSecrets
	// SQLDrop is DROP TABLE, DROP DATABASE, DROP SCHEMA or TRUNCATE TABLE.
	SQLDrop
	// ForkBomb is a function that spawns copies of itself.
	ForkBomb
	// OpaqueExec is running code that cannot be seen before it runs: data
	// piped into a shell or interpreter, eval of a command substitution,
	// sh <(curl …).
	OpaqueExec
	// SQLDestroy is SQL given to a database client (psql, mysql, sqlite3,
	// …) that destroys rows without dropping a table: DELETE with no WHERE
	// or one that is always true, UPDATE likewise, TRUNCATE.
	SQLDestroy
	// Exfiltrate is sending the agent's protected or secret files out:
	// uploading one, or archiving or copying one (or a directory holding
	// one) and uploading anything in the same command line.
	Exfiltrate
)

var kindNames = [...]string{
	DestroyFiles: "destroy-files",
	DestroyState: "destroy-state",
	KillProcess:  "kill-process",
	Shutdown:     "shutdown",
	RawDisk:      "raw-disk",
	ReadSecrets:  "read-secrets",
	SQLDrop:      "sql-drop",
	ForkBomb:     "fork-bomb",
	OpaqueExec:   "opaque-exec",
	SQLDestroy:   "sql-destroy",
	Exfiltrate:   "exfiltrate",
}

// String returns the kind's stable lower-case name, such as "destroy-files".
func (k Kind) String() string {
	if k != 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// MarshalText implements encoding.TextMarshaler. It fails for invalid kinds.
func (k Kind) MarshalText() ([]byte, error) {
	if k == 0 || int(k) >= len(kindNames) {
		return nil, fmt.Errorf("invalid shell finding kind %d", uint8(k))
	}
	return []byte(kindNames[k]), nil
}

// ParseKind parses a name returned by Kind.String.
func ParseKind(s string) (Kind, error) {
	for k, n := range kindNames {
		if n != "" && n == s {
			return Kind(k), nil
		}
	}
	return 0, fmt.Errorf("unknown shell finding kind %q", s)
}

// Finding is one forbidden effect found in a command.
type Finding struct {
	Kind Kind
	// Pattern is a short description from a fixed set, such as "rm -rf /",
	// "kill -9" or "dd of=/dev/*". It never contains text from the command
	// beyond those fixed forms, so it may be shown to the agent.
	Pattern string
}

// String returns "kind: pattern".
func (f Finding) String() string { return f.Kind.String() + ": " + f.Pattern }

// Env tells Analyze about the agent's environment. Nil funcs mean "nothing is
// protected/sensitive". Analyze only reads it; the funcs must be safe for
// concurrent use if Analyze is called concurrently.
type Env struct {
	// Protected reports whether a path (as written in the command after quote
	// removal; "~" and "$HOME"/"${HOME}" prefixes are given to it as "~") is one
	// of the agent's own write-protected files (its database, wallet, policy,
	// audit log...).
	Protected func(path string) bool
	// Sensitive reports whether a path names key material or secrets.
	Sensitive func(path string) bool
	// ProcessNames are the agent's own process names (pkill/killall/systemctl targets).
	ProcessNames []string
	// Root is the agent's working root directory; recursive deletion of it is
	// DestroyFiles. Commands are assumed to start in Root when it is set.
	Root string
	// Home is the directory "~" stands for, if known: paths in Own and
	// Secret under it are also matched by words written with "~" or $HOME.
	Home string
	// Own are the absolute, cleaned paths of the agent's own state and
	// safety configuration (ward's data directory, the configuration and
	// policy files it loaded, files the operator listed), matched as the
	// command resolves them: relative to the directory it is in, through
	// ".." and globs. Deleting, moving, overwriting, truncating, editing or
	// changing the permissions of one of them or of anything inside one is
	// DestroyState, and so is deleting, moving or recursively changing a
	// directory that holds one.
	Own []string
	// Secret are the absolute, cleaned paths of directories whose files
	// hold secrets (ward's data directory: its keys and database): reading
	// a file inside one, or archiving or copying one whole, is ReadSecrets.
	Secret []string
}

// Analyze parses cmd and returns what it finds, in order of appearance. A non-nil
// error means the command could not be parsed safely and must be refused.
//
// Findings from the structure of the command come first, in the order the
// commands appear (a command substitution before the command using it);
// matches of the seed's raw patterns that add nothing new follow. Each
// (Kind, Pattern) pair is reported once. A nil env protects nothing.
func Analyze(cmd string, env *Env) ([]Finding, error) {
	return analyze(cmd, env, false)
}

// AnalyzeInput is Analyze for a command line that runs with stdin as its
// standard input: the commands that would read it (those first in a
// pipeline of the top-level script, without an input redirection of their
// own) are analysed as reading stdin, so that a shell or interpreter given
// a script there, or a database client given SQL, is seen through. This is
// how a tool that takes a command and the text to pipe into it is checked.
func AnalyzeInput(cmd, stdin string, env *Env) ([]Finding, error) {
	if len(stdin) > MaxLen {
		return nil, fmt.Errorf("%w: standard input of %d bytes, limit %d", ErrTooLong, len(stdin), MaxLen)
	}
	return analyzeWith(cmd, env, false, true, &stdin)
}

// analyze is Analyze, optionally without the raw patterns so that tests
// can check the structural analysis alone.
func analyze(cmd string, env *Env, noRaw bool) ([]Finding, error) {
	return analyzeWith(cmd, env, noRaw, true, nil)
}

// analyzeWith is analyze, optionally without the fast path for plain
// command lines so that tests can check that it changes nothing, and with
// the command line's standard input if it is given.
func analyzeWith(cmd string, env *Env, noRaw, fast bool, input *string) ([]Finding, error) {
	if len(cmd) > MaxLen {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLong, len(cmd), MaxLen)
	}
	sc := getScratch()
	defer putScratch(sc)
	var a analyzer // not a composite literal, which would be built in a copy
	a.st, a.first, a.findings, a.raw, a.noRaw, a.fast = &sc.st, sc, sc.found[:0], sc.raw[:0], noRaw, fast
	if env != nil {
		a.env = *env
	}
	a.root = a.home(a.env.Root)
	if a.root != "" && a.root[0] != '/' {
		a.root = ""
	} else if a.root != "" {
		a.root = clean(a.root)
	}
	a.cwd = a.root
	a.input = input
	if err := a.text(cmd, 0, nil); err != nil {
		return nil, err
	}
	if a.upload && a.packedAny() {
		a.add(Exfiltrate, "archive and upload protected files")
	}
	for _, f := range a.raw {
		if !slices.Contains(a.findings, f) {
			a.findings = append(a.findings, f)
		}
	}
	if len(a.findings) == 0 {
		return nil, nil
	}
	return slices.Clone(a.findings), nil
}
