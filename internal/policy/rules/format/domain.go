package format

import (
	"errors"
	"net/netip"
	"strings"
)

var (
	errPatternEmpty    = errors.New("domain pattern is empty")
	errPatternWildcard = errors.New("domain pattern may only have a wildcard as a leading \"*.\" label")
	errPatternTLD      = errors.New("wildcard domain pattern needs at least two labels after \"*.\"")
	errPatternIPZone   = errors.New("domain pattern must not be an ipv6 address with a zone")
	errPatternIPv4     = errors.New("wildcard domain pattern must not be an ipv4 address")
)

// DomainMatch reports whether host, as returned by Host, matches the
// allowlist pattern. "example.com" matches exactly example.com;
// "*.example.com" matches example.com and any name below it
// (a.example.com, a.b.example.com) but never evilexample.com or
// example.com.evil. An IP address pattern matches that address only.
// Matching is ASCII case-insensitive and ignores one trailing dot on
// either side.
//
// DomainMatch fails closed: it reports false when the pattern does not pass
// ValidDomainPattern or the host is not a valid DNS name or IP address.
func DomainMatch(host, pattern string) bool {
	if ValidDomainPattern(pattern) != nil {
		return false
	}
	pattern = strings.TrimSuffix(pattern, ".")
	if ip, ok := parseIP(pattern); ok {
		h, ok := parseIP(host)
		return ok && h == ip
	}
	if hostName(host) != nil {
		return false
	}
	host = strings.TrimSuffix(host, ".")
	suffix, wild := strings.CutPrefix(pattern, "*.")
	if !wild {
		return strings.EqualFold(host, pattern)
	}
	if len(host) == len(suffix) {
		return strings.EqualFold(host, suffix)
	}
	cut := len(host) - len(suffix) - 1
	return cut > 0 && host[cut] == '.' && strings.EqualFold(host[cut+1:], suffix)
}

// ValidDomainPattern reports whether p is usable in a domain allowlist: a
// DNS name ("example.com"), a wildcard "*." followed by a DNS name of at
// least two labels ("*.example.com"; "*.com" is refused as too broad), or
// an IP address without a zone, which matches exactly. Letters may be of
// either case and one trailing dot is allowed. A '*' anywhere else, an
// empty label or an invalid DNS name is an error.
func ValidDomainPattern(p string) error {
	if p == "" {
		return errPatternEmpty
	}
	if ip, ok := parseIP(p); ok {
		if ip.Zone() != "" {
			return errPatternIPZone
		}
		return nil
	}
	suffix, wild := strings.CutPrefix(p, "*.")
	if strings.IndexByte(suffix, '*') >= 0 {
		return errPatternWildcard
	}
	if err := hostName(suffix); err != nil {
		return err
	}
	if !wild {
		return nil
	}
	name := strings.TrimSuffix(suffix, ".")
	if dot := strings.LastIndexByte(name, '.'); dot < 0 {
		return errPatternTLD
	} else if isNumericLabel(name[dot+1:]) {
		return errPatternIPv4
	}
	return nil
}

// parseIP parses s as an IP address, skipping the parser (and its
// allocated error) for what cannot be one: a string without ':' that has
// a byte other than a digit or '.'.
func parseIP(s string) (netip.Addr, bool) {
	if strings.IndexByte(s, ':') < 0 {
		for i := 0; i < len(s); i++ {
			if !isDigit(s[i]) && s[i] != '.' {
				return netip.Addr{}, false
			}
		}
	}
	ip, err := netip.ParseAddr(s)
	return ip, err == nil
}
