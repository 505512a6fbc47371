package archive

import (
	"bytes"
	"regexp"
)

// Secret patterns. Each matches within a few hundred bytes, so scanning a
// stream in windows that overlap by scanOverlap misses none. The cheap
// literal or hex-run search before each regexp keeps the scan near memory
// speed.
var (
	pemRE = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----`)
	// A JWT (and so an OIDC id or access token): a base64url JSON header,
	// a dot, a base64url JSON payload.
	jwtRE = regexp.MustCompile(`eyJ[A-Za-z0-9_-]{8,1000}\.eyJ[A-Za-z0-9_-]{8}`)
	// A ward bearer token: ward_ and 32 bytes in unpadded base64url.
	wardRE = regexp.MustCompile(`(?:^|[^A-Za-z0-9_-])ward_[A-Za-z0-9_-]{43}(?:$|[^A-Za-z0-9_-])`)
	// A 32-byte hex value where a key, seed or signer is named before it.
	hexKeyRE = regexp.MustCompile(`(?i)(?:priv|secret|mnemonic|seed|signer|signing|wallet_?key|session_?key)[a-z0-9_ -]{0,24}"?\s*[:=]\s*"?(?:0x)?[0-9a-f]{64}(?:[^0-9a-f]|$)`)
	// A JSON field named for key material or tokens, whatever its value
	// (matched on lower-cased bytes).
	keyFieldRE = regexp.MustCompile(`"(?:private_?key|priv_?key|secret_?key|signing_?key|signer_?key|session_?key|wallet_?key|mnemonic|seed_?phrase|keystore|id_?token|access_?token|refresh_?token|client_?secret)"\s*:`)
	// keyFieldHints are literals every keyFieldRE match contains.
	keyFieldHints = [][]byte{[]byte(`key"`), []byte(`mnemonic"`), []byte(`phrase"`), []byte(`keystore"`), []byte(`token"`), []byte(`secret"`)}
)

const (
	scanWindow  = 1 << 20 // bytes scanned at once
	scanOverlap = 4 << 10 // bytes carried into the next window
)

// scanner finds secrets in a stream written to it in chunks.
type scanner struct {
	buf []byte
}

func newScanner() *scanner { return &scanner{} }

// scan adds p to the stream and returns the kind of a secret found so
// far, or "".
func (s *scanner) scan(p []byte) string {
	s.buf = append(s.buf, p...)
	if len(s.buf) < scanWindow {
		return ""
	}
	kind := findSecret(s.buf)
	s.buf = append(s.buf[:0], s.buf[len(s.buf)-scanOverlap:]...)
	return kind
}

// finish scans what is left.
func (s *scanner) finish() string {
	kind := findSecret(s.buf)
	s.buf = s.buf[:0]
	return kind
}

// findSecret returns the kind of the first secret in b, or "".
func findSecret(b []byte) string {
	if bytes.Contains(b, []byte("PRIVATE KEY")) && pemRE.Match(b) {
		return "pem_private_key"
	}
	if bytes.Contains(b, []byte("eyJ")) && jwtRE.Match(b) {
		return "jwt"
	}
	if bytes.Contains(b, []byte("ward_")) && wardRE.Match(b) {
		return "ward_token"
	}
	for i := 0; i < len(b); {
		if !isHexDigit(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && isHexDigit(b[j]) {
			j++
		}
		if j-i == 64 && hexKeyRE.Match(b[max(0, i-96):min(len(b), j+1)]) {
			return "wallet_private_key"
		}
		i = j
	}
	lower := bytes.ToLower(b)
	for _, h := range keyFieldHints {
		for off := 0; ; {
			k := bytes.Index(lower[off:], h)
			if k < 0 {
				break
			}
			at := off + k
			if keyFieldRE.Match(lower[max(0, at-24):min(len(lower), at+len(h)+64)]) {
				return "key_field"
			}
			off = at + len(h)
		}
	}
	return ""
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// ScanSecrets returns the kind of secret b contains (pem_private_key, jwt,
// ward_token, wallet_private_key, key_field), or "": the check Extract
// applies to every member, for an exporter to apply before writing.
func ScanSecrets(b []byte) string {
	s := newScanner()
	for len(b) > 0 {
		n := min(len(b), scanWindow)
		if k := s.scan(b[:n]); k != "" {
			return k
		}
		b = b[n:]
	}
	return s.finish()
}
