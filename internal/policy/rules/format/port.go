package format

import "errors"

var (
	errPortRange  = errors.New("port must be from 1 to 65535")
	errPortSyntax = errors.New("port must be a decimal number without sign, spaces or leading zeros")
)

// Port validates a TCP or UDP port number: 1 to 65535.
func Port(n int64) error {
	if n < 1 || n > 65535 {
		return errPortRange
	}
	return nil
}

// PortString validates a port written in decimal: only digits, no sign,
// spaces or leading zeros, and a value from 1 to 65535.
func PortString(s string) error {
	switch {
	case !allDigits(s) || s[0] == '0' && len(s) > 1:
		return errPortSyntax
	case len(s) > 5:
		return errPortRange
	}
	var n int64
	for i := 0; i < len(s); i++ {
		n = n*10 + int64(s[i]-'0')
	}
	return Port(n)
}
