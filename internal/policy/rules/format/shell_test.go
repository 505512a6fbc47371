package format

import "testing"

var shellCases = []formatCase{
	{"word", "lodash", nil},
	{"file name", "report-2024.txt", nil},
	{"path", "path/to/file", nil},
	{"key value", "key=value", nil},
	{"user at host", "user@host", nil},
	{"colon comma plus percent", "a:b,c+d%e", nil},
	{"inner dash", "a-b", nil},

	{"empty", "", errShellEmpty},
	{"option", "-rf", errShellDash},
	{"long option", "--registry=evil", errShellDash},
	{"zsh equals", "=ls", errShellEqual},
	{"semicolon", "a;b", errAny},
	{"ampersand", "a&b", errAny},
	{"pipe", "a|b", errAny},
	{"dollar", "$HOME", errAny},
	{"command substitution", "$(id)", errAny},
	{"backticks", "`id`", errAny},
	{"redirect in", "a<b", errAny},
	{"redirect out", "a>b", errAny},
	{"subshell", "(a)", errAny},
	{"brace expansion", "{a,b}", errAny},
	{"bracket glob", "[ab]", errAny},
	{"star glob", "*", errAny},
	{"question glob", "a?", errAny},
	{"history", "!1", errAny},
	{"tilde", "~root", errAny},
	{"comment", "a#b", errAny},
	{"backslash", "a\\b", errAny},
	{"single quote", "it's", errAny},
	{"double quote", "\"q\"", errAny},
	{"caret", "a^b", errAny},
	{"space", "a b", errAny},
	{"tab", "a\tb", errAny},
	{"newline", "a\nb", errAny},
	{"carriage return", "a\rb", errAny},
	{"nul", "a\x00b", errAny},
	{"del", "a\x7f", errAny},
	{"non-ASCII", "caf\u00e9", errAny},
	{"no-break space", "a\u00a0b", errAny},
	{"line separator", "a\u2028b", errAny},
	{"injection", "lodash; rm -rf /", errAny},
}

func TestShellSafe(t *testing.T) {
	runCases(t, ShellSafe, shellCases)
}
