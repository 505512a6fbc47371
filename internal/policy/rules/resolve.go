package rules

import (
	"errors"
	"os"
	"path/filepath"
)

// resolvePortable resolves symlinks with one lstat per path element.
func resolvePortable(abs string, depth int) (string, error) {
	if depth > 40 {
		return "", errSymlinkLoop
	}
	r, err := filepath.EvalSymlinks(abs)
	if err == nil {
		return r, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", errors.New("cannot resolve symbolic links")
	}
	if target, lerr := os.Readlink(abs); lerr == nil {
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(abs), target)
		}
		return resolvePortable(filepath.Clean(target), depth+1)
	}
	parent := filepath.Dir(abs)
	if parent == abs {
		return abs, nil
	}
	rp, err := resolvePortable(parent, depth+1)
	if err != nil {
		return "", err
	}
	return filepath.Join(rp, filepath.Base(abs)), nil
}
