//go:build unix

package archive

import "syscall"

// oNoFollow makes creating a file fail rather than follow a symlink in its
// place.
const oNoFollow = syscall.O_NOFOLLOW
