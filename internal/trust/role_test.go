package trust

import (
	"slices"
	"testing"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name, desc, typ string
		want            Role
	}{
		{"recipient", "", "string", Destination},
		{"recipients", "", "array", Destination},
		{"to", "", "string", Destination},
		{"spender", "", "string", Destination},
		{"password", "", "string", Credential},
		{"api_key", "", "string", Credential},
		{"apiKey", "", "string", Credential},
		{"APIKey", "", "string", Credential},
		{"private_key", "", "string", Credential},
		{"seed_phrase", "", "string", Credential},
		{"access_token", "", "string", Credential},
		{"verification_code", "", "string", Credential},
		{"password_hint", "", "string", Credential},
		{"id", "", "string", Selector},
		{"id", "", "integer", Selector},
		{"file_id", "", "string", Selector},
		{"file_path", "", "string", Selector},
		{"filename", "", "string", Selector},
		{"key", "", "string", Selector},
		{"subject", "", "string", Content},
		{"body", "", "string", Content},
		{"amount", "", "number", Quantity},
		{"amount", "", "string", Quantity},
		{"n", "", "integer", Quantity},
		{"date", "", "string", Time},
		{"start_time", "", "string", Time},
		{"created_at", "", "string", Time},
		{"recurring", "", "boolean", Flag},
		{"password", "", "boolean", Flag},
		{"street", "", "string", Other},
		{"city", "", "string", Other},
		{"hotel", "", "string", Other},
		{"first_name", "", "string", Other},
		{"name", "", "string", Other},
		{"user_email", "", "string", Destination},
		{"userEmail", "", "string", Destination},
		{"email_subject", "", "string", Content},
		{"email_body", "", "string", Content},
		{"recipient_count", "", "integer", Quantity},
		{"recipient_id", "", "string", Destination},
		{"recipient_name", "", "string", Destination},
		{"user_id", "", "string", Destination},
		{"message_id", "", "string", Selector},
		{"url", "", "string", Destination},
		{"channel", "", "string", Destination},
		{"iban", "", "string", Destination},
		{"account_number", "", "string", Destination},
		{"phone_number", "", "string", Destination},
		{"to_address", "", "string", Destination},
		{"token_address", "", "string", Destination},
		{"token_id", "", "string", Selector},
		{"token", "", "string", Credential},
		{"amount_to_send", "", "number", Quantity},
		{"address2", "", "string", Destination},
		{"max_results", "", "integer", Quantity},
		{"page", "", "integer", Quantity},
		{"title", "", "string", Content},
		{"x", "IBAN of the recipient", "string", Destination},
		{"x", "The API key to authenticate with", "string", Credential},
		{"x", "The name of the hotel to book for the user", "string", Other},
		{"x", "The amount to pay", "string", Other},
		{"x", "", "number", Quantity},
		{"x", "ID of the file", "integer", Selector},
		{"note", "Recipient IBAN", "string", Content},
	} {
		t.Run(tc.name+"/"+tc.typ+"/"+tc.desc, func(t *testing.T) {
			if got := Classify(tc.name, tc.desc, tc.typ); got != tc.want {
				t.Errorf("Classify(%q, %q, %q) = %v, want %v", tc.name, tc.desc, tc.typ, got, tc.want)
			}
		})
	}
}

func TestRoleSensitivity(t *testing.T) {
	for _, tc := range []struct {
		r                   Role
		sensitive, critical bool
	}{
		{Other, true, true},
		{Destination, true, true},
		{Credential, true, true},
		{Selector, true, false},
		{Content, false, false},
		{Quantity, false, false},
		{Time, false, false},
		{Flag, false, false},
		{Role(200), true, true},
	} {
		if got := tc.r.Sensitive(); got != tc.sensitive {
			t.Errorf("%v.Sensitive() = %v, want %v", tc.r, got, tc.sensitive)
		}
		if got := tc.r.Critical(); got != tc.critical {
			t.Errorf("%v.Critical() = %v, want %v", tc.r, got, tc.critical)
		}
	}
}

func TestWords(t *testing.T) {
	for in, want := range map[string][]string{
		"userEmail":        {"user", "email"},
		"APIKey":           {"api", "key"},
		"file_path":        {"file", "path"},
		"to-address":       {"to", "address"},
		"address2":         {"address"},
		"HTTPServerURL":    {"http", "server", "url"},
		"2fa_code":         {"2fa", "code"},
		"":                 nil,
		"recipient.iban":   {"recipient", "iban"},
		"snake_CASE_Mixed": {"snake", "case", "mixed"},
	} {
		if got := words(in); !slices.Equal(got, want) {
			t.Errorf("words(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEnumNames(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Clean.String(), "clean"}, {Tainted.String(), "tainted"}, {Review.String(), "review"},
		{Untrusted.String(), "untrusted"}, {Unknown.String(), "unknown"}, {Trusted.String(), "trusted"},
		{Directive.String(), "directive"}, {AddressBook.String(), "address_book"}, {TrustedOutput.String(), "trusted_output"},
		{UntrustedOutput.String(), "untrusted_output"}, {Promoted.String(), "promoted"},
		{Other.String(), "other"}, {Destination.String(), "destination"}, {Credential.String(), "credential"},
		{Selector.String(), "selector"}, {Content.String(), "content"}, {Quantity.String(), "quantity"},
		{Time.String(), "time"}, {Flag.String(), "flag"},
		{Level(9).String(), "Level(9)"}, {Origin(9).String(), "Origin(9)"}, {SourceKind(9).String(), "SourceKind(9)"}, {Role(99).String(), "Role(99)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	for _, k := range []SourceKind{Directive, AddressBook, TrustedOutput, Promoted} {
		if !k.Trusted() {
			t.Errorf("%v.Trusted() = false", k)
		}
	}
	for _, k := range []SourceKind{UntrustedOutput, SourceKind(77)} {
		if k.Trusted() {
			t.Errorf("%v.Trusted() = true", k)
		}
	}
}

func TestLevelText(t *testing.T) {
	for _, l := range []Level{Clean, Tainted, Review} {
		b, err := l.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var got Level
		if err := got.UnmarshalText(b); err != nil || got != l {
			t.Errorf("round trip of %v: got %v, %v", l, got, err)
		}
	}
	if _, err := ParseLevel("dirty"); err == nil {
		t.Error("ParseLevel(dirty) succeeded")
	}
	if _, err := Level(7).MarshalText(); err == nil {
		t.Error("MarshalText of an out-of-range level succeeded")
	}
	l := Tainted
	if err := l.UnmarshalText([]byte("x")); err == nil || l != Tainted {
		t.Errorf("UnmarshalText(x) = %v and left %v, want an error and tainted", err, l)
	}
}

func TestEnumTextRoundTrip(t *testing.T) {
	for r := range numRoles {
		b, _ := r.MarshalText()
		var got Role
		if err := got.UnmarshalText(b); err != nil || got != r {
			t.Errorf("role %v: got %v, %v", r, got, err)
		}
	}
	for o := range numOrigins {
		b, _ := o.MarshalText()
		var got Origin
		if err := got.UnmarshalText(b); err != nil || got != o {
			t.Errorf("origin %v: got %v, %v", o, got, err)
		}
	}
	for k := range numKinds {
		b, _ := k.MarshalText()
		var got SourceKind
		if err := got.UnmarshalText(b); err != nil || got != k {
			t.Errorf("kind %v: got %v, %v", k, got, err)
		}
	}
	var r Role
	if err := r.UnmarshalText([]byte("boss")); err == nil {
		t.Error("UnmarshalText(boss) succeeded")
	}
}
