package format

import (
	"errors"
	"fmt"
)

var errGitHashLen = errors.New("git object name must be 7 to 40 hex digits (SHA-1) or 64 (SHA-256)")

// GitHash validates a git object name: 7 to 40 hex digits (an abbreviated
// or full SHA-1 name) or exactly 64 (a SHA-256 repository's full name), in
// either case. Refs, revision expressions ("HEAD~1") and anything starting
// with '-' are rejected.
func GitHash(s string) error {
	if n := len(s); n < 7 || n > 40 && n != 64 {
		return errGitHashLen
	}
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return fmt.Errorf("git object name has a non-hex character at offset %d", i)
		}
	}
	return nil
}
