package shell

import (
	"errors"
	"slices"
	"testing"
)

// FuzzAnalyze checks that Analyze never panics, fails only with its
// sentinel errors, reports only valid findings, and is deterministic; and
// that AnalyzeInput, given the same text as input, fails only with them.
func FuzzAnalyze(f *testing.F) {
	for _, tc := range forbidden {
		f.Add(tc.cmd)
	}
	for _, cmd := range benign {
		f.Add(cmd)
	}
	for _, cmd := range []string{
		"echo 'abc", "echo $(ls", "${", "$((", "<<EOF", "a <<A <<B\n", "case x in", "f() ( a )",
		"x=${y:-$(z)}", "echo ${x//a/b} ${x/#a} ${!x} ${x@Q}", "[[ ( a ) ]]", "for ((;;)); do :; done",
		"`echo \\`echo x\\``", "$'\\x'", "echo {a..}", "echo {1..1000000}",
	} {
		f.Add(cmd)
	}
	env := testEnv()
	f.Fuzz(func(t *testing.T, cmd string) {
		got, err := Analyze(cmd, env)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrTooLong) && !errors.Is(err, ErrTooDeep) {
				t.Fatalf("Analyze(%q) error = %v, want a sentinel error", cmd, err)
			}
			if got != nil {
				t.Fatalf("Analyze(%q) = %v with error %v, want no findings", cmd, got, err)
			}
		}
		if len(cmd) > MaxLen && !errors.Is(err, ErrTooLong) {
			t.Fatalf("Analyze of %d bytes error = %v, want ErrTooLong", len(cmd), err)
		}
		for i, fd := range got {
			if _, err := fd.Kind.MarshalText(); err != nil || fd.Pattern == "" {
				t.Fatalf("Analyze(%q) finding %d = %+v, want a valid kind and pattern", cmd, i, fd)
			}
			if slices.Contains(got[:i], fd) {
				t.Fatalf("Analyze(%q) reports %v twice", cmd, fd)
			}
		}
		again, err2 := Analyze(cmd, env)
		if !slices.Equal(got, again) || (err == nil) != (err2 == nil) {
			t.Fatalf("Analyze(%q) not deterministic: %v, %v then %v, %v", cmd, got, err, again, err2)
		}
		if _, err := Parse(cmd); err != nil && !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrTooLong) && !errors.Is(err, ErrTooDeep) {
			t.Fatalf("Parse(%q) error = %v, want a sentinel error", cmd, err)
		}
		// The same text as the standard input of a shell, of a database
		// client (SQL) and of xargs.
		for _, prog := range []string{"sh", "sqlite3 x.db", "xargs rm -rf"} {
			got, err := AnalyzeInput(prog, cmd, env)
			if err != nil && (got != nil || !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrTooLong) && !errors.Is(err, ErrTooDeep)) {
				t.Fatalf("AnalyzeInput(%q, %q) = %v, %v, want no findings and a sentinel error", prog, cmd, got, err)
			}
		}
	})
}
