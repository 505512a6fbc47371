package format

import (
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

var (
	label63 = strings.Repeat("a", 63)
	// host253 is four labels of 63 bytes minus one byte: 253 bytes.
	host253 = label63 + "." + label63 + "." + label63 + "." + label63[:61]
)

var urlCases = []formatCase{
	{"https", "https://api.conway.tech", nil},
	{"https root", "https://api.conway.tech/", nil},
	{"http with port path query fragment", "http://example.com:8080/path?q=1&r=2#frag", nil},
	{"upper case scheme and host", "HTTPS://EXAMPLE.COM/", nil},
	{"trailing dot", "https://example.com./", nil},
	{"punycode", "https://xn--80ak6aa92e.com/", nil},
	{"ipv6", "https://[::1]/", nil},
	{"ipv6 with port", "https://[2001:db8::1]:443/x", nil},
	{"ipv4 mapped ipv6", "https://[::ffff:1.2.3.4]/", nil},
	{"ipv4 with port", "https://127.0.0.1:8443/", nil},
	{"single label", "https://localhost/", nil},
	{"digit first label", "https://3com.com/", nil},
	{"percent-encoded path", "https://a.b-c.d/%20x%2F", nil},
	{"query without path", "https://example.com?x=1", nil},
	{"fragment without path", "https://example.com#f", nil},
	{"at in path", "https://example.com/@user", nil},
	{"at and colon in path", "https://example.com/a:b@c", nil},
	{"url in query", "https://example.com/?redirect=https://evil.com/", nil},
	{"at after fragment", "https://evil.com#@api.conway.tech", nil},
	{"at after query", "https://evil.com?@api.conway.tech", nil},
	{"lookalike suffix is a valid url", "https://api.conway.tech.evil.com", nil},
	{"max port", "https://example.com:65535", nil},
	{"max label", "https://" + label63 + ".com/", nil},
	{"max host", "https://" + host253 + "/", nil},
	{"max length", "https://example.com/" + strings.Repeat("a", 2048-len("https://example.com/")), nil},

	{"empty", "", errURLEmpty},
	{"javascript", "javascript:alert(1)", errURLScheme},
	{"data", "data:text/html,<script>", errAny},
	{"file", "file:///etc/passwd", errURLScheme},
	{"ftp", "ftp://example.com/", errURLScheme},
	{"scheme relative", "//example.com/", errURLAbsolute},
	{"no scheme", "example.com", errURLAbsolute},
	{"no scheme with port", "example.com:443", errURLScheme},
	{"bad scheme syntax", "ht tp://example.com", errAny},
	{"scheme with underscore", "h_tp://example.com", errURLAbsolute},
	{"scheme starting with digit", "1http://example.com", errURLAbsolute},
	{"scheme look-alike", "https+evil://example.com", errURLScheme},
	{"no slashes", "https:example.com", errURLSlashes},
	{"one slash", "https:/example.com", errURLSlashes},
	{"three slashes", "https:///example.com", errURLSlashes},
	{"nothing after slashes", "https://", errURLSlashes},
	{"userinfo confusion", "https://api.conway.tech@evil.com/", errURLUserinfo},
	{"user and password", "https://user:pass@example.com/", errURLUserinfo},
	{"empty userinfo", "https://@example.com/", errURLUserinfo},
	{"port then userinfo", "http://example.com:8080@evil.com/", errURLUserinfo},
	{"encoded slash then userinfo", "https://api.conway.tech%2F@evil.com/", errURLUserinfo},
	{"backslash confusion", "https://evil.com\\@api.conway.tech", errAny},
	{"backslash as slash", "https:\\\\evil.com", errAny},
	{"backslash in path", "https://example.com/a\\b", errAny},
	{"space in host", "https://exa mple.com", errAny},
	{"leading space", " https://example.com", errAny},
	{"tab", "https://example.com/\tx", errAny},
	{"newline", "https://example.com/\n", errAny},
	{"carriage return", "https://example.com/\rx", errAny},
	{"nul", "https://example.com\x00.evil.com/", errAny},
	{"del", "https://example.com/\x7f", errAny},
	{"cyrillic homoglyph", "https://\u0430pi.conway.tech", errAny},
	{"unicode host", "https://b\u00fccher.de/", errAny},
	{"fullwidth dot", "https://example\uff0ecom/", errAny},
	{"unicode in path", "https://example.com/caf\u00e9", errAny},
	{"bidi override", "https://example.com/\u202egpj.exe", errAny},
	{"angle brackets", "https://example.com/<script>", errAny},
	{"double quote", "https://example.com/\"x", errAny},
	{"backtick", "https://example.com/`id`", errAny},
	{"pipe", "https://example.com/?a|b", errAny},
	{"braces", "https://example.com/{x}", errAny},
	{"caret", "https://example.com/^", errAny},
	{"malformed percent", "https://example.com/%zz", errAny},
	{"truncated percent", "https://example.com/%4", errAny},
	{"trailing percent", "https://example.com/%", errAny},
	{"percent in host", "https://exa%6dple.com/", errAny},
	{"encoded nul in host", "https://api.conway.tech%00.evil.com/", errAny},
	{"port too large", "http://[::1]:99999", errURLPort},
	{"port zero", "https://example.com:0/", errURLPort},
	{"port leading zero", "https://example.com:080/", errURLPort},
	{"empty port", "https://example.com:/", errURLPort},
	{"negative port", "https://example.com:-1/", errURLPort},
	{"plus port", "https://example.com:+80/", errURLPort},
	{"two ports", "https://example.com:80:80/", errURLPort},
	{"port only", "https://:443/", errHostEmpty},
	{"decimal ipv4", "https://2130706433/", errHostIPv4},
	{"hex ipv4", "https://0x7f.1/", errHostIPv4},
	{"hex last label", "https://1.2.3.0x4/", errHostIPv4},
	{"bare 0x label", "https://example.0x/", errHostIPv4},
	{"octal ipv4", "https://0177.0.0.1/", errHostIPv4},
	{"short ipv4", "https://127.1/", errHostIPv4},
	{"ipv4 out of range", "https://256.0.0.1/", errHostIPv4},
	{"ipv4 five parts", "https://1.2.3.4.5/", errHostIPv4},
	{"ipv4 trailing dot", "https://1.2.3.4./", errHostIPv4Dot},
	{"ipv4 in brackets", "https://[1.2.3.4]/", errURLIPv6},
	{"ipv6 zone", "https://[fe80::1%25eth0]/", errAny},
	{"ipv6 bad", "https://[::g]/", errURLIPv6},
	{"ipv6 empty", "https://[]/", errURLIPv6},
	{"ipv6 unclosed", "https://[::1/", errURLBracket},
	{"ipv6 junk after", "https://[::1]x/", errURLBracket},
	{"ipv6 unbracketed", "https://::1/", errAny},
	{"bracket in name", "https://exa]mple.com/", errURLBracket},
	{"underscore", "https://ex_ample.com/", errAny},
	{"leading hyphen label", "https://-example.com/", errHostHyphen},
	{"trailing hyphen label", "https://example-.com/", errHostHyphen},
	{"empty label", "https://example..com/", errHostLabel},
	{"leading dot", "https://.example.com/", errHostLabel},
	{"two trailing dots", "https://example.com../", errHostLabel},
	{"only dot", "https://./", errHostLabel},
	{"wildcard host", "https://*.example.com/", errAny},
	{"label too long", "https://" + label63 + "a.com/", errHostLabelLen},
	{"host too long", "https://" + host253 + "a/", errHostTooLong},
	{"too long", "https://example.com/" + strings.Repeat("a", 2049-len("https://example.com/")), errURLTooLong},
}

func TestURL(t *testing.T) {
	runCases(t, URL, urlCases)
}

func TestHost(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"lower case", "https://api.conway.tech/x", "api.conway.tech"},
		{"upper case and trailing dot", "HTTPS://API.Conway.Tech.:8443/x", "api.conway.tech"},
		{"port removed", "http://example.com:8080", "example.com"},
		{"ipv4", "https://127.0.0.1:8443/", "127.0.0.1"},
		{"ipv6 canonical", "https://[2001:DB8:0:0::1]:443/", "2001:db8::1"},
		{"ipv6 loopback", "https://[0:0:0:0:0:0:0:1]/", "::1"},
		{"ipv4 mapped", "https://[::ffff:1.2.3.4]/", "::ffff:1.2.3.4"},
		{"at after fragment", "https://evil.com#@api.conway.tech", "evil.com"},
		{"at after query", "https://evil.com?@api.conway.tech", "evil.com"},
		{"at in path", "https://evil.com/@api.conway.tech", "evil.com"},
		{"lookalike suffix", "https://api.conway.tech.evil.com/", "api.conway.tech.evil.com"},
		{"punycode", "https://XN--80AK6AA92E.com/", "xn--80ak6aa92e.com"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Host(tc.in)
			if err != nil {
				t.Fatalf("Host(%q) error %q, want %q", tc.in, err, tc.want)
			}
			if got != tc.want {
				t.Errorf("Host(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
	for _, tc := range urlCases {
		if tc.want == nil {
			continue
		}
		t.Run("invalid/"+tc.name, func(t *testing.T) {
			if got, err := Host(tc.in); err == nil {
				t.Errorf("Host(%q) = %q, nil; want an error", tc.in, got)
			}
		})
	}
}

func FuzzURL(f *testing.F) {
	seedCases(f, urlCases)
	f.Fuzz(func(t *testing.T, s string) {
		err := URL(s)
		checkMessage(t, s, err, fuzzMinEcho)
		host, herr := Host(s)
		if (err == nil) != (herr == nil) {
			t.Fatalf("URL(%q) = %v but Host = %q, %v", s, err, host, herr)
		}
		if err != nil {
			return
		}
		if host == "" || strings.ToLower(host) != host || strings.HasSuffix(host, ".") {
			t.Fatalf("Host(%q) = %q, not normalised", s, host)
		}
		if !DomainMatch(host, host) {
			t.Fatalf("DomainMatch(%q, itself) = false", host)
		}
		if ValidDomainPattern("*."+host) == nil && !DomainMatch(host, "*."+host) {
			t.Fatalf("DomainMatch(%q, %q) = false", host, "*."+host)
		}

		// Go's RFC 3986 parser must see the same URL: a scheme, no user
		// info, and the same host.
		u, perr := url.Parse(s)
		if perr != nil {
			t.Fatalf("URL(%q) = nil but url.Parse: %v", s, perr)
		}
		if u.Scheme != "http" && u.Scheme != "https" || u.User != nil || u.Opaque != "" {
			t.Fatalf("URL(%q) = nil but url.Parse gives scheme %q, user %v, opaque %q", s, u.Scheme, u.User, u.Opaque)
		}
		goHost := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
		if ip, err := netip.ParseAddr(goHost); err == nil {
			goHost = ip.String()
		}
		if goHost != host {
			t.Fatalf("Host(%q) = %q but url.Parse gives %q", s, host, goHost)
		}
		if p := u.Port(); p != "" && PortString(p) != nil {
			t.Fatalf("URL(%q) = nil but url.Parse gives port %q", s, p)
		}
	})
}
