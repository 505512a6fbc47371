package format

import (
	"errors"
	"fmt"
	"strings"
)

const (
	maxNPMName    = 214 // npm's limit on a package name, scope included
	maxNPMVersion = 256 // ward's limit on the version, range or tag after '@'
)

var (
	errNPMEmpty    = errors.New("package specifier is empty")
	errNPMTooLong  = errors.New("package specifier is too long")
	errNPMDash     = errors.New("package specifier must not start with '-'")
	errNPMURL      = errors.New("url, git, file and alias specifiers are not allowed; give a registry package name")
	errNPMPath     = errors.New("path specifiers are not allowed; give a registry package name")
	errNPMTarball  = errors.New("tarball specifiers are not allowed; give a registry package name")
	errNPMShortcut = errors.New("user/repo shorthand is not allowed; scoped names start with '@'")
	errNPMScope    = errors.New("scoped package name must have the form @scope/name")
	errNPMNameLen  = errors.New("package name is longer than 214 characters")
	errNPMReserved = errors.New("package name is reserved")
	errNPMVerEmpty = errors.New("version or tag after '@' is empty")
	errNPMVerLen   = errors.New("version or tag after '@' is too long")
	errNPMVersion  = errors.New("version must be a version or range of [0-9A-Za-z.+-^~*] starting with a letter, digit, '^', '~' or '*', or a tag matching [a-z0-9][a-z0-9-._]*")
)

// NPMPackage validates an npm package specifier as an agent would pass it
// to `npm install`: a registry package name, unscoped ("lodash") or scoped
// ("@types/node"), optionally followed by "@" and a version or range
// ("4.17.21", "^18.2.0") or a dist-tag ("latest").
//
// A name follows npm's rules for new packages: lower case, at most 214
// bytes including the scope, made of [a-z0-9-._~], neither it nor its scope
// starting with '.', '_', '-' or '~', and not "node_modules" or
// "favicon.ico". A version or range is made of [0-9A-Za-z.+-^~*] and starts
// with a letter, digit, '^', '~' or '*'; a tag matches [a-z0-9][a-z0-9-._]*.
//
// Everything npm would not resolve from the registry is rejected: git,
// URL, file and alias specifiers (anything with ':'), paths ("./x",
// "../x", "/x", "~/x"), tarball names ("x.tgz"), GitHub "user/repo"
// shorthand, and a leading '-' (option injection such as
// "--registry=https://evil"). Note that '*' is a shell glob character: run
// npm with an argument vector, not through a shell.
func NPMPackage(s string) error {
	switch {
	case s == "":
		return errNPMEmpty
	case len(s) > maxNPMName+1+maxNPMVersion:
		return errNPMTooLong
	case s[0] == '-':
		return errNPMDash
	case strings.IndexByte(s, ':') >= 0:
		return errNPMURL
	case s[0] == '/' || s[0] == '\\' || s[0] == '.' && len(s) > 1 && (s[1] == '/' || s[1] == '\\' || s[1] == '.') || s[0] == '~' && len(s) > 1 && s[1] == '/':
		return errNPMPath
	}

	var at int
	if s[0] == '@' {
		if at = strings.IndexByte(s[1:], '@'); at >= 0 {
			at++
		}
	} else {
		at = strings.IndexByte(s, '@')
	}
	name, version, hasVersion := s, "", false
	if at >= 0 {
		name, version, hasVersion = s[:at], s[at+1:], true
	}

	if err := npmName(name); err != nil {
		return err
	}
	if hasVersion {
		return npmVersion(version, at+1)
	}
	return nil
}

// npmName validates the name part of a specifier; offsets in its errors
// are relative to the specifier, whose first byte is name's first byte.
func npmName(name string) error {
	if len(name) > maxNPMName {
		return errNPMNameLen
	}
	if name[0] != '@' {
		if strings.IndexByte(name, '/') >= 0 || strings.IndexByte(name, '\\') >= 0 {
			return errNPMShortcut
		}
		if isTarballName(name) {
			return errNPMTarball
		}
		if name == "node_modules" || name == "favicon.ico" {
			return errNPMReserved
		}
		return npmNamePart(name, "package name", 0)
	}
	slash := strings.IndexByte(name, '/')
	if slash < 0 {
		return errNPMScope
	}
	if err := npmNamePart(name[1:slash], "scope", 1); err != nil {
		return err
	}
	return npmNamePart(name[slash+1:], "package name", slash+1)
}

// npmNamePart validates a scope or an unscoped name starting at offset off
// of the specifier.
func npmNamePart(p, what string, off int) error {
	if p == "" {
		return fmt.Errorf("%s is empty", what)
	}
	switch p[0] {
	case '.', '_', '-', '~':
		return fmt.Errorf("%s must not start with '.', '_', '-' or '~'", what)
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case isLower(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~':
		case isUpper(c):
			return fmt.Errorf("%s must be lower case", what)
		case c == '/':
			return fmt.Errorf("%s has a second '/' at offset %d", what, off+i)
		default:
			return fmt.Errorf("%s has %s at offset %d; allowed are a-z 0-9 - . _ ~", what, charKind(c), off+i)
		}
	}
	return nil
}

// npmVersion validates the version, range or tag after '@', which starts
// at offset off of the specifier.
func npmVersion(v string, off int) error {
	switch {
	case v == "":
		return errNPMVerEmpty
	case len(v) > maxNPMVersion:
		return errNPMVerLen
	case isTarballName(v):
		return errNPMTarball
	}
	tag := isLower(v[0]) || isDigit(v[0])
	version := isAlnum(v[0]) || v[0] == '^' || v[0] == '~' || v[0] == '*'
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case isLower(c) || isDigit(c) || c == '-' || c == '.':
		case c == '_':
			version = false
		case isUpper(c) || c == '+' || c == '^' || c == '~' || c == '*':
			tag = false
		default:
			return fmt.Errorf("version or tag has %s at offset %d; allowed are 0-9 A-Z a-z . + - ^ ~ * _", charKind(c), off+i)
		}
	}
	if !tag && !version {
		return errNPMVersion
	}
	return nil
}

// isTarballName reports whether npm would read s as a local tarball file
// (npm-package-arg's /[.](?:tgz|tar.gz|tar)$/i).
func isTarballName(s string) bool {
	for _, ext := range [...]string{".tgz", ".tar.gz", ".tar"} {
		if len(s) >= len(ext) && strings.EqualFold(s[len(s)-len(ext):], ext) {
			return true
		}
	}
	return false
}

// charKind names the kind of a disallowed byte without echoing it.
func charKind(c byte) string {
	switch {
	case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
		return "whitespace"
	case c < ' ' || c == 0x7f:
		return "a control character"
	case c >= 0x80:
		return "a non-ASCII character"
	case isUpper(c):
		return "an upper-case letter"
	default:
		return "a disallowed character"
	}
}
