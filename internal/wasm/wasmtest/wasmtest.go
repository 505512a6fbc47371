// Package wasmtest builds Go guests for package wasm's tests and the
// tests that run WASM tools through a wired ward, with the Go toolchain
// that runs them.
package wasmtest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Build compiles the Go guest in dir (a main package) to out as a wasip1
// reactor (-buildmode=c-shared), with `go env GOROOT`'s go.
func Build(dir, out string) error {
	goBin, err := exec.LookPath("go")
	if err == nil {
		var root []byte
		if root, err = exec.Command(goBin, "env", "GOROOT").Output(); err == nil {
			goBin = filepath.Join(strings.TrimSpace(string(root)), "bin", "go")
		}
	}
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	cmd := exec.Command(goBin, "build", "-buildmode=c-shared", "-o", abs, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return errors.New("build " + dir + ": " + err.Error() + ": " + string(b))
	}
	return nil
}
