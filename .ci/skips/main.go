// Command skips reads `go test -json` on its standard input, prints what
// `go test` would (each package's summary line, and all the output of a
// package that fails), then one summary line of the skipped tests, and
// fails when a test failed, or skipped for a missing dependency (see
// internal/testenv), or skipped where the expected list (its argument;
// each line a package, a test and the reason, # comments) does not name
// it. A listed test covers its subtests.
//
//	go test -json ./... | go run ./.ci/skips .ci/skips/expected
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

type event struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
}

type skip struct{ pkg, test, why string }

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go test -json ./... | skips EXPECTED")
		os.Exit(2)
	}
	expected, err := readExpected(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "skips:", err)
		os.Exit(2)
	}
	skips, failed, err := run(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "skips:", err)
		os.Exit(2)
	}
	var unexpected []skip
	missing := 0
	for _, s := range skips {
		dependency := strings.Contains(s.why, "missing dependency: ")
		if dependency {
			missing++
		}
		if dependency || !isExpected(expected, s) {
			unexpected = append(unexpected, s)
		}
	}
	fmt.Printf("skipped: %d tests, %d expected, %d for a missing dependency, %d unexpected\n",
		len(skips), len(skips)-len(unexpected), missing, len(unexpected))
	for _, s := range unexpected {
		fmt.Printf("  unexpected skip: %s %s: %s\n", s.pkg, s.test, s.why)
	}
	if failed || len(unexpected) > 0 {
		os.Exit(1)
	}
}

// run copies the test output as go test prints it and returns the skips
// and whether anything failed.
func run(r io.Reader, w io.Writer) (skips []skip, failed bool, err error) {
	buffered := map[string][]string{}           // a package's output, printed if it fails
	testOut := map[string]map[string][]string{} // a test's output, for the reason of its skip
	dec := json.NewDecoder(bufio.NewReader(r))
	for {
		var e event
		if err := dec.Decode(&e); err == io.EOF {
			break
		} else if err != nil {
			return nil, true, fmt.Errorf("not go test -json output: %w", err)
		}
		switch e.Action {
		case "build-output":
			fmt.Fprint(w, e.Output)
		case "build-fail":
			failed = true
		case "output":
			buffered[e.Package] = append(buffered[e.Package], e.Output)
			if e.Test != "" {
				if testOut[e.Package] == nil {
					testOut[e.Package] = map[string][]string{}
				}
				testOut[e.Package][e.Test] = append(testOut[e.Package][e.Test], e.Output)
			}
		case "skip":
			if e.Test != "" {
				skips = append(skips, skip{e.Package, e.Test, reason(testOut[e.Package][e.Test])})
			}
		case "fail":
			if e.Test == "" {
				failed = true
				for _, l := range buffered[e.Package] {
					fmt.Fprint(w, l)
				}
				delete(buffered, e.Package)
				delete(testOut, e.Package)
			}
		case "pass":
			if e.Test == "" {
				for _, l := range buffered[e.Package] {
					if strings.HasPrefix(l, "ok  ") || strings.HasPrefix(l, "?   ") {
						fmt.Fprint(w, l)
					}
				}
				delete(buffered, e.Package)
				delete(testOut, e.Package)
			}
		}
	}
	return skips, failed, nil
}

// reason is what a skipped test said, without the framework's lines.
func reason(out []string) string {
	var parts []string
	for _, l := range out {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- ") {
			continue
		}
		parts = append(parts, l)
	}
	return strings.Join(parts, " ")
}

func readExpected(name string) (map[string]map[string]bool, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]bool{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 3 {
			return nil, fmt.Errorf("%s:%d: want a package, a test and the reason it skips", name, i+1)
		}
		if out[f[0]] == nil {
			out[f[0]] = map[string]bool{}
		}
		out[f[0]][f[1]] = true
	}
	return out, nil
}

// isExpected reports whether s's test, or a test it is a subtest of, is
// listed for its package.
func isExpected(expected map[string]map[string]bool, s skip) bool {
	for name := s.test; ; {
		if expected[s.pkg][name] {
			return true
		}
		i := strings.LastIndex(name, "/")
		if i < 0 {
			return false
		}
		name = name[:i]
	}
}
