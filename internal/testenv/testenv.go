// Package testenv is how a test says that it needs something the machine
// may not have: a tool on PATH, the npm packages of testdata/npm, a
// service. Outside CI such a test is skipped with a message that starts
// with Prefix, so that a run's skips can be told apart and counted (.ci/run
// prints them in one summary line); under CI, whose .ci/run installs every
// dependency, it fails instead.
package testenv

import (
	"os"
	"testing"
)

// Prefix starts the message of every skip for a missing dependency.
const Prefix = "missing dependency: "

// CI reports whether the tests run under CI: the CI variable is set to
// anything but "", "0" or "false" (.ci/run sets CI=1; CI services set
// CI=true).
func CI() bool {
	switch os.Getenv("CI") {
	case "", "0", "false":
		return false
	}
	return true
}

// Missing ends t for want of what, which says what is missing and how to
// install it: it fails t under CI and skips it elsewhere.
func Missing(t testing.TB, what string) {
	t.Helper()
	if CI() {
		t.Fatal(Prefix + what + " (CI installs it: see .ci/run)")
		return
	}
	t.Skip(Prefix + what)
}
