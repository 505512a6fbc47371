//go:build !unix

package daemon

// lockData does not lock on systems without flock; ward is built and
// tested on Linux, where it does (lock_unix.go).
func lockData(dir string) (release func() error, err error) {
	return func() error { return nil }, nil
}
