//go:build !linux

package sqlite

import "os"

// fdatasync syncs f; elsewhere than Linux, with the portable os.File.Sync.
func fdatasync(f *os.File) error { return f.Sync() }
