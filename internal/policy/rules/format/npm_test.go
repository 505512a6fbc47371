package format

import (
	"strings"
	"testing"
)

var npmCases = []formatCase{
	{"plain", "lodash", nil},
	{"scoped", "@types/node", nil},
	{"scoped babel", "@babel/core", nil},
	{"exact version", "lodash@4.17.21", nil},
	{"caret range", "react@^18.2.0", nil},
	{"tilde range", "@babel/core@~7.0.0", nil},
	{"star range", "express@*", nil},
	{"x range", "express@4.x", nil},
	{"major only", "react@18", nil},
	{"prerelease and build", "pkg@1.2.3-beta.1+build.5", nil},
	{"upper-case in prerelease", "pkg@1.0.0-RC1", nil},
	{"tag", "left-pad@latest", nil},
	{"tag next", "typescript@next", nil},
	{"tag with underscore", "pkg@my_tag", nil},
	{"scoped with version", "@types/node@20.1.0", nil},
	{"scoped with tag", "@scope/pkg@beta", nil},
	{"dots hyphens underscores", "a.b-c_d", nil},
	{"inner tilde", "abc~def", nil},
	{"single char", "a", nil},
	{"digits", "123", nil},
	{"max length name", strings.Repeat("a", 214), nil},
	{"max length scoped", "@s/" + strings.Repeat("a", 211), nil},
	{"max length version", "a@" + strings.Repeat("1", 256), nil},

	{"empty", "", errNPMEmpty},
	{"upper case", "Lodash", errAny},
	{"upper case scope", "@Types/node", errAny},
	{"leading dot", ".hidden", errAny},
	{"leading underscore", "_private", errAny},
	{"leading tilde", "~pkg", errAny},
	{"scoped leading dot", "@scope/.x", errAny},
	{"scope leading dot", "@.scope/x", errAny},
	{"scoped leading underscore", "@scope/_x", errAny},
	{"scoped leading dash", "@scope/-x", errAny},
	{"option injection", "--registry=https://evil", errNPMDash},
	{"option injection short", "-g", errNPMDash},
	{"option injection no url", "--ignore-scripts=false", errNPMDash},
	{"shell injection", "lodash; rm -rf /", errAny},
	{"command substitution in version", "lodash@$(id)", errAny},
	{"backticks in version", "lodash@`id`", errAny},
	{"space", "lodash express", errAny},
	{"newline", "lodash\n", errAny},
	{"nul", "lodash\x00", errAny},
	{"cyrillic o", "l\u043edash", errAny},
	{"git url", "git+https://x/y.git", errNPMURL},
	{"git ssh", "git@github.com:user/repo.git", errNPMURL},
	{"https tarball", "https://evil.example/x.tgz", errNPMURL},
	{"http", "http://evil.example/pkg", errNPMURL},
	{"file", "file:../x", errNPMURL},
	{"alias", "npm:lodash@1", errNPMURL},
	{"alias in version", "lodash@npm:evil@1.0.0", errNPMURL},
	{"github prefix", "github:user/repo", errNPMURL},
	{"windows drive", "c:evil", errNPMURL},
	{"parent path", "../../evil", errNPMPath},
	{"relative path", "./local", errNPMPath},
	{"absolute path", "/abs/path", errNPMPath},
	{"home path", "~/pkg", errNPMPath},
	{"backslash path", "\\evil", errNPMPath},
	{"dot dot", "..", errNPMPath},
	{"user repo shorthand", "acme/widget", errNPMShortcut},
	{"user repo with ref", "user/repo#main", errNPMShortcut},
	{"tarball name", "foo.tgz", errNPMTarball},
	{"tarball tar.gz", "foo.tar.gz", errNPMTarball},
	{"tarball tar upper", "foo.TAR", errAny},
	{"tarball as version", "lodash@foo.tgz", errNPMTarball},
	{"tarball upper as version", "lodash@FOO.TGZ", errNPMTarball},
	{"node_modules", "node_modules", errNPMReserved},
	{"favicon", "favicon.ico", errNPMReserved},
	{"scope only", "@types", errNPMScope},
	{"empty scope", "@/node", errAny},
	{"empty scoped name", "@types/", errAny},
	{"bare at", "@", errNPMScope},
	{"second slash", "@types/node/extra", errAny},
	{"double slash", "@types//node", errAny},
	{"empty version", "lodash@", errNPMVerEmpty},
	{"scoped empty version", "@types/node@", errNPMVerEmpty},
	{"two versions", "lodash@1.0.0@2", errAny},
	{"version leading dot", "lodash@.evil", errNPMVersion},
	{"version leading dash", "lodash@-1", errNPMVersion},
	{"version leading plus", "lodash@+1", errNPMVersion},
	{"range comparator", "lodash@>=1.0.0", errAny},
	{"range union", "lodash@1 || 2", errAny},
	{"range hyphen spaces", "lodash@1 - 2", errAny},
	{"tag leading underscore", "lodash@_tag", errNPMVersion},
	{"underscore and caret", "lodash@^1.2.3_x", errNPMVersion},
	{"version slash", "lodash@user/repo", errAny},
	{"version hash", "lodash@1#x", errAny},
	{"trailing space", "lodash@1.0.0 ", errAny},
	{"name too long", strings.Repeat("a", 215), errNPMNameLen},
	{"version too long", "a@" + strings.Repeat("1", 257), errNPMVerLen},
	{"specifier too long", strings.Repeat("a", 500), errNPMTooLong},
}

func TestNPMPackage(t *testing.T) {
	runCases(t, NPMPackage, npmCases)
}

func FuzzNPMPackage(f *testing.F) {
	seedCases(f, npmCases)
	f.Fuzz(func(t *testing.T, s string) {
		err := NPMPackage(s)
		checkMessage(t, s, err, fuzzMinEcho)
		if err != nil {
			return
		}
		if s[0] == '-' || s[0] == '.' || s[0] == '_' || s[0] == '~' {
			t.Fatalf("NPMPackage(%q) = nil for a value with a forbidden first byte", s)
		}
		if len(s) > maxNPMName+1+maxNPMVersion {
			t.Fatalf("NPMPackage accepted %d bytes, want at most %d", len(s), maxNPMName+1+maxNPMVersion)
		}
		for i := 0; i < len(s); i++ {
			if c := s[i]; !isAlnum(c) && strings.IndexByte("@/._~+^*-", c) < 0 {
				t.Fatalf("NPMPackage(%q) = nil with byte %q at offset %d", s, c, i)
			}
		}
		if isTarballName(s) {
			t.Fatalf("NPMPackage(%q) = nil for a tarball name", s)
		}
		name := s
		if at := strings.LastIndexByte(s, '@'); at > 0 {
			name = s[:at]
		}
		if strings.ToLower(name) != name {
			t.Fatalf("NPMPackage(%q) = nil for an upper-case name", s)
		}
		if strings.Count(name, "/") != strings.Count(name[:1], "@") {
			t.Fatalf("NPMPackage(%q) = nil, but its name is not exactly @scope/name or name", s)
		}
	})
}
