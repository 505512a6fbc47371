//go:build !unix

package adopt

import (
	"errors"
	"os"
)

// lockFile creates path exclusively; it fails while another writer holds
// it. A writer that dies leaves it behind: remove it by hand once no ward
// runs.
func lockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil, ErrPlaybookLocked
	}
	return f, err
}

// unlockFile closes and removes the lock file.
func unlockFile(f *os.File) error {
	err := f.Close()
	if rerr := os.Remove(f.Name()); err == nil {
		err = rerr
	}
	return err
}
