package format

import (
	"strings"
	"testing"
)

var gitHashCases = []formatCase{
	{"abbreviated 7", "a1b2c3d", nil},
	{"abbreviated 12", "0123456789ab", nil},
	{"full sha1", "da39a3ee5e6b4b0d3255bfef95601890afd80709", nil},
	{"upper case", "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709", nil},
	{"mixed case", "Da39a3eE", nil},
	{"full sha256", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", nil},

	{"empty", "", errGitHashLen},
	{"too short", "a1b2c3", errGitHashLen},
	{"41", strings.Repeat("a", 41), errGitHashLen},
	{"63", strings.Repeat("a", 63), errGitHashLen},
	{"65", strings.Repeat("a", 65), errGitHashLen},
	{"non-hex", "a1b2c3g", errAny},
	{"branch", "main-branch", errAny},
	{"head", "HEAD~1234", errAny},
	{"revision range", "abc1234..def5678", errAny},
	{"option", "--output=/etc/passwd", errAny},
	{"leading dash hex", "-abcdef0", errAny},
	{"space", "abc 1234", errAny},
	{"newline", "abcdef0\n", errAny},
	{"0x prefix", "0xabcdef0", errAny},
	{"fullwidth digit", "abcdef\uff10", errAny},
}

func TestGitHash(t *testing.T) {
	runCases(t, GitHash, gitHashCases)
}
