package format

import "testing"

func TestDomainMatch(t *testing.T) {
	tests := []struct {
		host, pattern string
		want          bool
	}{
		{"conway.tech", "*.conway.tech", true},
		{"api.conway.tech", "*.conway.tech", true},
		{"a.b.conway.tech", "*.conway.tech", true},
		{"API.Conway.Tech", "*.conway.tech", true},
		{"api.conway.tech.", "*.conway.tech", true},
		{"api.conway.tech", "*.CONWAY.TECH.", true},
		{"evilconway.tech", "*.conway.tech", false},
		{"xconway.tech", "*.conway.tech", false},
		{"conway.tech.evil.com", "*.conway.tech", false},
		{"api.conway.tech.evil.com", "*.conway.tech", false},
		{"conway.techx", "*.conway.tech", false},
		{"onway.tech", "*.conway.tech", false},
		{".conway.tech", "*.conway.tech", false},
		{"a..conway.tech", "*.conway.tech", false},
		{"", "*.conway.tech", false},

		{"example.com", "example.com", true},
		{"EXAMPLE.com.", "example.com", true},
		{"example.com", "example.com.", true},
		{"a.example.com", "example.com", false},
		{"evilexample.com", "example.com", false},
		{"example.com.evil", "example.com", false},
		{"example.co", "example.com", false},

		{"127.0.0.1", "127.0.0.1", true},
		{"127.0.0.2", "127.0.0.1", false},
		{"::1", "::1", true},
		{"::1", "0:0:0:0:0:0:0:1", true},
		{"::2", "::1", false},
		{"example.com", "127.0.0.1", false},
		{"127.0.0.1", "example.com", false},
		{"1.2.3.4", "*.2.3.4", false},

		{"anything.com", "*", false},
		{"anything.com", "*.com", false},
		{"a.example.com", "a.*.com", false},
		{"a.example.com", "**.example.com", false},
		{"example.com", "", false},
		{"*.example.com", "*.example.com", false},
		{"a.example.com/x", "*.example.com", false},
		{"a b.example.com", "*.example.com", false},
		{"a.example.com:443", "*.example.com", false},
		{"\u0430.example.com", "*.example.com", false},
	}
	for _, tc := range tests {
		t.Run(tc.host+"~"+tc.pattern, func(t *testing.T) {
			if got := DomainMatch(tc.host, tc.pattern); got != tc.want {
				t.Errorf("DomainMatch(%q, %q) = %v, want %v", tc.host, tc.pattern, got, tc.want)
			}
		})
	}
}

var domainPatternCases = []formatCase{
	{"exact", "example.com", nil},
	{"wildcard", "*.example.com", nil},
	{"wildcard deep", "*.api.conway.tech", nil},
	{"upper case", "*.Example.COM", nil},
	{"trailing dot", "example.com.", nil},
	{"wildcard trailing dot", "*.example.com.", nil},
	{"single label", "localhost", nil},
	{"punycode", "*.xn--80ak6aa92e.com", nil},
	{"ipv4", "10.0.0.1", nil},
	{"ipv6", "::1", nil},

	{"empty", "", errPatternEmpty},
	{"bare star", "*", errAny},
	{"star dot", "*.", errAny},
	{"tld wildcard", "*.com", errPatternTLD},
	{"inner wildcard", "a.*.com", errPatternWildcard},
	{"double wildcard", "*.*.example.com", errPatternWildcard},
	{"star star", "**.example.com", errAny},
	{"partial wildcard", "*example.com", errAny},
	{"suffix wildcard", "example.*", errPatternWildcard},
	{"trailing star", "example.com*", errPatternWildcard},
	{"empty label", "example..com", errHostLabel},
	{"leading dot", ".example.com", errHostLabel},
	{"wildcard empty label", "*..example.com", errHostLabel},
	{"two trailing dots", "example.com..", errHostLabel},
	{"underscore", "ex_ample.com", errAny},
	{"space", "example .com", errAny},
	{"scheme", "https://example.com", errAny},
	{"port", "example.com:443", errAny},
	{"path", "example.com/x", errAny},
	{"cyrillic", "\u0430pi.conway.tech", errAny},
	{"ipv6 zone", "fe80::1%eth0", errPatternIPZone},
	{"ipv6 brackets", "[::1]", errAny},
	{"wildcard ipv4", "*.1.2.3.4", errPatternIPv4},
	{"wildcard partial ipv4", "*.2.3.4", errHostIPv4},
	{"decimal ipv4", "2130706433", errHostIPv4},
	{"hyphen label", "-example.com", errHostHyphen},
	{"label too long", label63 + "a.com", errHostLabelLen},
}

func TestValidDomainPattern(t *testing.T) {
	runCases(t, ValidDomainPattern, domainPatternCases)
}
