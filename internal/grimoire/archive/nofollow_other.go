//go:build !unix

package archive

// oNoFollow is 0 where the system has no O_NOFOLLOW; os.Root and O_EXCL
// still refuse a symlink in the way.
const oNoFollow = 0
