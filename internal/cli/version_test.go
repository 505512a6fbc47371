package cli

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestBuildOf reads build information in the form 'go version -m' prints
// it (parsed by the standard library, so the keys are the ones Go stamps).
func TestBuildOf(t *testing.T) {
	const stamped = "go\tgo1.26.8\npath\tgithub.com/wardhq/ward/cmd/ward\nmod\tgithub.com/wardhq/ward\tv0.4.1-0.20261127215546-74b50489a820+dirty\t\n" +
		"build\t-buildmode=exe\nbuild\tvcs=git\nbuild\tvcs.revision=74b50489a820b15cf50f6af9f2d0f9285b989d0e\n" +
		"build\tvcs.time=2026-11-27T21:55:46Z\nbuild\tvcs.modified=true\n"
	const unstamped = "go\tgo1.26.8\npath\tgithub.com/wardhq/ward/cmd/ward\nmod\tgithub.com/wardhq/ward\t(devel)\t\nbuild\t-buildmode=exe\n"
	for _, tc := range []struct {
		name, info string
		want       build
		line       string
	}{
		{"stamped", stamped, build{Version: "v0.4.1-0.20261127215546-74b50489a820+dirty", Module: "github.com/wardhq/ward",
			Commit: "74b50489a820b15cf50f6af9f2d0f9285b989d0e", Time: "2026-11-27T21:55:46Z", Modified: true, Go: "go1.26.8"},
			"ward v0.4.1-0.20261127215546-74b50489a820+dirty (commit 74b50489a820b15cf50f6af9f2d0f9285b989d0e, modified) go1.26.8"},
		{"no VCS", unstamped, build{Version: "dev", Module: "github.com/wardhq/ward", Go: "go1.26.8"}, "ward dev go1.26.8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bi, err := debug.ParseBuildInfo(tc.info)
			if err != nil {
				t.Fatal(err)
			}
			got := buildOf(bi, true)
			if got != tc.want {
				t.Errorf("buildOf = %+v, want %+v", got, tc.want)
			}
			if got.String() != tc.line {
				t.Errorf("line = %q, want %q", got.String(), tc.line)
			}
		})
	}
	if got := buildOf(nil, false); got.Version != "dev" || got.Go != runtime.Version() {
		t.Errorf("no build information: %+v", got)
	}
}

// TestVersionCommand: ward version, ward --version and --json agree with
// the binary's own build information.
func TestVersionCommand(t *testing.T) {
	want := buildInfo()
	out, errOut, code := run(t, "", "version")
	if code != 0 || strings.TrimSpace(out) != want.String() {
		t.Fatalf("ward version: exit %d, %q (stderr %q), want %q", code, out, errOut, want.String())
	}
	if out2, _, code := run(t, "", "--version"); code != 0 || out2 != out {
		t.Errorf("ward --version: exit %d, %q, want %q", code, out2, out)
	}
	out, _, code = run(t, "", "version", "--json")
	var got build
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("ward version --json: exit %d, %q: %v", code, out, err)
	}
	if got != want || got.Go != runtime.Version() || !strings.HasPrefix(got.Module, "github.com/wardhq/ward") {
		t.Errorf("ward version --json = %+v, want %+v (go %s)", got, want, runtime.Version())
	}
	if _, errOut, code := run(t, "", "version", "extra"); code != 2 || !strings.Contains(errOut, "no arguments") {
		t.Errorf("ward version extra: exit %d, %q", code, errOut)
	}
}
