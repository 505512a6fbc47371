package format

import (
	"errors"
	"strings"
	"testing"
)

// fuzzMinEcho is the input length from which fuzz targets check that an
// error message does not echo the input.
const fuzzMinEcho = 17

// errAny marks a case that must fail without naming which error.
var errAny = errors.New("any error")

// formatCase is one table case for a string validator: want nil means the
// input is valid, errAny that it is invalid, anything else the error it
// must wrap.
type formatCase struct {
	name string
	in   string
	want error
}

// runCases runs a table of cases against validate.
func runCases(t *testing.T, validate func(string) error, cases []formatCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := validate(tc.in)
			switch {
			case tc.want == nil && err != nil:
				t.Fatalf("got error %q, want nil", err)
			case tc.want != nil && err == nil:
				t.Fatalf("got nil, want an error")
			case tc.want != nil && tc.want != errAny && !errors.Is(err, tc.want):
				t.Fatalf("got error %q, want %q", err, tc.want)
			}
			checkMessage(t, tc.in, err, 6)
		})
	}
}

// checkMessage checks that err is fit to show a hostile agent: short,
// printable ASCII, not starting with an upper-case letter, and not echoing
// an input of minEcho bytes or more. (Fuzz targets pass a larger minEcho:
// the fuzzer learns the short keywords the validators compare against,
// such as "@scope", and those legitimately appear in messages.)
func checkMessage(t *testing.T, in string, err error, minEcho int) {
	t.Helper()
	if err == nil {
		return
	}
	msg := err.Error()
	if msg == "" || len(msg) > 200 {
		t.Fatalf("error message has length %d, want 1 to 200", len(msg))
	}
	if isUpper(msg[0]) {
		t.Errorf("error message %q starts with an upper-case letter", msg)
	}
	for i := 0; i < len(msg); i++ {
		if msg[i] < ' ' || msg[i] > '~' {
			t.Fatalf("error message %q has a non-printable byte at offset %d", msg, i)
		}
	}
	if len(in) >= minEcho && strings.Contains(msg, in) {
		t.Errorf("error message %q echoes the input", msg)
	}
}

// seedCases adds every case input to a fuzz corpus.
func seedCases(f *testing.F, tables ...[]formatCase) {
	for _, cases := range tables {
		for _, tc := range cases {
			f.Add(tc.in)
		}
	}
}
