package format

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

const (
	maxURL      = 2048
	maxHostName = 253
	maxLabel    = 63
)

var (
	errURLEmpty     = errors.New("url is empty")
	errURLTooLong   = errors.New("url is longer than 2048 bytes")
	errURLAbsolute  = errors.New("url must be absolute, starting with http:// or https://")
	errURLScheme    = errors.New("url scheme must be http or https")
	errURLSlashes   = errors.New("url must have exactly \"//\" and a host after the scheme")
	errURLUserinfo  = errors.New("url must not contain user info (user:pass@host)")
	errURLPort      = errors.New("url port must be a decimal number from 1 to 65535 without leading zeros")
	errURLBracket   = errors.New("url has an unterminated or misplaced ipv6 bracket")
	errURLIPv6      = errors.New("url host in brackets must be a valid ipv6 address")
	errURLZone      = errors.New("url ipv6 host must not have a zone")
	errHostEmpty    = errors.New("host is empty")
	errHostTooLong  = errors.New("host name is longer than 253 bytes")
	errHostLabel    = errors.New("host name has an empty label")
	errHostLabelLen = errors.New("host name has a label longer than 63 bytes")
	errHostHyphen   = errors.New("host name label must not start or end with '-'")
	errHostIPv4     = errors.New("host ending in a number must be a dotted-decimal ipv4 address a.b.c.d")
	errHostIPv4Dot  = errors.New("ipv4 host must not end with '.'")
)

// URL validates an absolute http or https URL as an agent would pass it to
// a fetching tool. It accepts only the part of URL syntax on which RFC 3986
// parsers (Go's net/url) and WHATWG parsers (browsers, Node) agree on the
// host, so the host ward checks is the host that is contacted:
//
//   - at most 2048 bytes of printable ASCII: no whitespace, control or
//     non-ASCII bytes (hosts must be ASCII letters, digits and hyphens, or
//     punycode "xn--", so Unicode homoglyphs cannot pass), no backslash
//     (WHATWG reads it as '/'), none of " < > ^ ` { | } (which must be
//     percent-encoded), and every '%' followed by two hex digits;
//   - the scheme http or https (any case), then exactly "//";
//   - no user info: an '@' before the path is rejected, since
//     "https://trusted@evil/" goes to evil;
//   - a host that is a DNS name (labels of 1 to 63 letters, digits and
//     hyphens, not starting or ending with '-', at most 253 bytes, one
//     optional trailing dot), a dotted-decimal IPv4 address (a host whose
//     last label is numeric or 0x-hex must be one, since WHATWG parsers read
//     "2130706433" and "0x7f.1" as 127.0.0.1), or an IPv6 address in
//     brackets without a zone;
//   - an optional port from 1 to 65535, written without leading zeros.
//
// URL checks format only: it does not resolve names or judge whether an
// address is private; allowlists do that with Host and DomainMatch.
func URL(s string) error {
	_, err := parseURL(s)
	return err
}

// Host returns the normalised host of a URL that passes URL: lower case,
// without port or trailing dot, and an IPv6 address without brackets in
// its canonical (RFC 5952) form. It returns URL's error otherwise.
func Host(s string) (string, error) {
	u, err := parseURL(s)
	if err != nil {
		return "", err
	}
	if u.ip.IsValid() {
		return u.ip.String(), nil
	}
	return strings.ToLower(strings.TrimSuffix(u.host, ".")), nil
}

// parsedURL is what parseURL extracts from a valid URL.
type parsedURL struct {
	host string     // host as written, without brackets or port
	ip   netip.Addr // the address, for an IPv6 literal only
}

func parseURL(s string) (parsedURL, error) {
	switch {
	case s == "":
		return parsedURL{}, errURLEmpty
	case len(s) > maxURL:
		return parsedURL{}, errURLTooLong
	}
	if err := urlChars(s); err != nil {
		return parsedURL{}, err
	}

	colon := strings.IndexByte(s, ':')
	if colon < 0 || !isScheme(s[:colon]) {
		return parsedURL{}, errURLAbsolute
	}
	if scheme := s[:colon]; !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") {
		return parsedURL{}, errURLScheme
	}
	rest, ok := strings.CutPrefix(s[colon+1:], "//")
	if !ok || rest == "" || rest[0] == '/' {
		return parsedURL{}, errURLSlashes
	}
	auth := rest
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		auth = rest[:end]
	}
	if strings.IndexByte(auth, '@') >= 0 {
		return parsedURL{}, errURLUserinfo
	}

	var u parsedURL
	var port string
	hasPort := false
	if strings.HasPrefix(auth, "[") {
		end := strings.IndexByte(auth, ']')
		if end < 0 {
			return parsedURL{}, errURLBracket
		}
		u.host = auth[1:end]
		switch after := auth[end+1:]; {
		case after == "":
		case after[0] == ':':
			port, hasPort = after[1:], true
		default:
			return parsedURL{}, errURLBracket
		}
		if strings.IndexByte(u.host, '%') >= 0 {
			return parsedURL{}, errURLZone
		}
		ip, err := netip.ParseAddr(u.host)
		if err != nil || !ip.Is6() {
			return parsedURL{}, errURLIPv6
		}
		u.ip = ip
	} else {
		u.host = auth
		if c := strings.IndexByte(auth, ':'); c >= 0 {
			u.host, port, hasPort = auth[:c], auth[c+1:], true
		}
		if strings.IndexAny(u.host, "[]") >= 0 {
			return parsedURL{}, errURLBracket
		}
		if err := hostName(u.host); err != nil {
			return parsedURL{}, err
		}
	}
	if hasPort && PortString(port) != nil {
		return parsedURL{}, errURLPort
	}
	return u, nil
}

// urlChars checks every byte of s against the characters a URL may hold
// unencoded.
func urlChars(s string) error {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case isControl(c):
			return fmt.Errorf("url has whitespace or a control character at offset %d", i)
		case c >= 0x80:
			return fmt.Errorf("url has a non-ASCII character at offset %d; hosts must be ASCII or punycode and paths percent-encoded", i)
		case c == '\\':
			return fmt.Errorf("url has a backslash at offset %d", i)
		case c == '"' || c == '<' || c == '>' || c == '^' || c == '`' || c == '{' || c == '|' || c == '}':
			return fmt.Errorf("url has a character at offset %d that must be percent-encoded", i)
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return fmt.Errorf("url has a malformed percent-encoding at offset %d", i)
			}
		}
	}
	return nil
}

// isScheme reports whether s is RFC 3986 scheme syntax.
func isScheme(s string) bool {
	if s == "" || !isLower(s[0]|0x20) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// hostName validates a host that is not an IPv6 literal: a DNS name with
// at most one trailing dot, or a dotted-decimal IPv4 address.
func hostName(h string) error {
	if h == "" {
		return errHostEmpty
	}
	name, dot := strings.CutSuffix(h, ".")
	if name == "" {
		return errHostLabel
	}
	if len(name) > maxHostName {
		return errHostTooLong
	}
	last := 0
	for i := 0; i <= len(name); i++ {
		if i < len(name) && name[i] != '.' {
			c := name[i]
			if !isAlnum(c) && c != '-' {
				return fmt.Errorf("host name has %s at offset %d; allowed are letters, digits, '-' and '.'", charKind(c), i)
			}
			continue
		}
		label := name[last:i]
		switch {
		case label == "":
			return errHostLabel
		case len(label) > maxLabel:
			return errHostLabelLen
		case label[0] == '-' || label[len(label)-1] == '-':
			return errHostHyphen
		}
		last = i + 1
	}
	if !isNumericLabel(name[strings.LastIndexByte(name, '.')+1:]) {
		return nil
	}
	if ip, err := netip.ParseAddr(name); err != nil || !ip.Is4() {
		return errHostIPv4
	}
	if dot {
		return errHostIPv4Dot
	}
	return nil
}

// isNumericLabel reports whether a WHATWG URL parser would read label as a
// number and so the host ending in it as IPv4: all decimal digits, or "0x"
// followed by zero or more hex digits.
func isNumericLabel(label string) bool {
	if allDigits(label) {
		return true
	}
	if len(label) < 2 || label[0] != '0' || label[1]|0x20 != 'x' {
		return false
	}
	return len(label) == 2 || allHex(label[2:])
}
