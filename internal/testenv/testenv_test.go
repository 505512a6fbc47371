package testenv

import (
	"fmt"
	"testing"
)

// recorder is a testing.TB that records how Missing ended it.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper()           {}
func (r *recorder) Fatal(args ...any) { r.fatal = fmt.Sprint(args...) }
func (r *recorder) Skip(args ...any)  { r.skip = fmt.Sprint(args...) }

func TestMissing(t *testing.T) {
	for _, tc := range []struct {
		ci       string
		wantFail bool
	}{{"", false}, {"0", false}, {"false", false}, {"1", true}, {"true", true}} {
		t.Run("CI="+tc.ci, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			r := &recorder{TB: t}
			Missing(r, "tmux is not installed")
			got := r.skip
			if tc.wantFail {
				got = r.fatal
			}
			if want := Prefix + "tmux is not installed"; len(got) < len(want) || got[:len(want)] != want {
				t.Errorf("fatal %q, skip %q; want the test ended with %q (fail %v)", r.fatal, r.skip, want, tc.wantFail)
			}
			if (r.fatal != "") != tc.wantFail || (r.skip != "") == tc.wantFail {
				t.Errorf("fatal %q, skip %q; want fail %v", r.fatal, r.skip, tc.wantFail)
			}
		})
	}
}
