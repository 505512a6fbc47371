package format

import (
	"errors"
	"fmt"
)

var (
	errShellEmpty = errors.New("value is empty")
	errShellDash  = errors.New("value must not start with '-' (it would be read as an option)")
	errShellEqual = errors.New("value must not start with '=' (zsh expands it to a command path)")
)

// ShellSafe validates a value that will be interpolated into a shell
// command line as one word. It rejects the empty value; any of
// ; & | $ ` < > ( ) { } [ ] * ? ! ~ # \ ' " and ^ (a pipe in the Bourne
// shell, negation in zsh globs); whitespace, control characters including
// NUL, CR and newline, and non-ASCII bytes (Unicode spaces, and multi-byte
// encodings whose trailing bytes can look like a quote or backslash); a
// leading '-', which the command would read as an option
// ("--registry=https://evil"); and a leading '=', which zsh expands.
//
// ShellSafe is a last line of defence: passing arguments as an argument
// vector, without a shell, is always better.
func ShellSafe(s string) error {
	switch {
	case s == "":
		return errShellEmpty
	case s[0] == '-':
		return errShellDash
	case s[0] == '=':
		return errShellEqual
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ';', '&', '|', '$', '`', '<', '>', '(', ')', '{', '}', '[', ']',
			'*', '?', '!', '~', '#', '\\', '\'', '"', '^':
			return fmt.Errorf("value has a shell metacharacter at offset %d", i)
		default:
			if isControl(c) {
				return fmt.Errorf("value has whitespace or a control character at offset %d", i)
			}
			if c >= 0x80 {
				return fmt.Errorf("value has a non-ASCII character at offset %d", i)
			}
		}
	}
	return nil
}
