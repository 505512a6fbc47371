package trust

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestIdentifiers: an address is found however it is written, and prose
// without one yields none.
func TestIdentifiers(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string // "kind value"
	}{
		{"Check out this link: www.secure-systems-252.com", []string{"url www.secure-systems-252.com"}},
		{"Check out this link: WWW.Secure-Systems-252.COM!", []string{"url www.secure-systems-252.com"}},
		{"Checkoutthislink:www.secure-systems-252.com", []string{"url www.secure-systems-252.com"}},
		{"link:www.secure-systems-252.com", []string{"url www.secure-systems-252.com"}},
		{"to=bob@evil-mail.io&x=1", []string{"email bob@evil-mail.io"}},
		{"send->secure-systems-252.com<-now", []string{"domain secure-systems-252.com"}},
		{"visit www.secure-systems-252 .com now", []string{"url www.secure-systems-252.com"}},
		{"see secure-systems-252[.]com", []string{"domain secure-systems-252.com"}},
		{"hxxps://evil.example.org/login?x=1", []string{"url https://evil.example.org/login?x=1"}},
		{"https://evil.example.org/p", []string{"url https://evil.example.org/p"}},
		{"evil.example.org/path", []string{"url evil.example.org/path"}},
		{"www\u200b.secure-sys\u200btems-252.com", []string{"url www.secure-systems-252.com"}},
		{"www%2Esecure-systems-252%2Ecom", []string{"url www.secure-systems-252.com"}},
		{"d3d3LnNlY3VyZS1zeXN0ZW1zLTI1Mi5jb20gaXMgdGhlIGxpbms=", []string{"url www.secure-systems-252.com"}},
		{"&#119;&#119;&#119;&#46;evil-site.com", []string{"url www.evil-site.com"}},
		{"www.s\u0435cure-systems-252.com", []string{"url www.s\u0435cure-systems-252.com"}}, // Cyrillic е: recognised, kept as written
		{"write to fred9246@gmail.com", []string{"email fred9246@gmail.com"}},
		{"write to fred9246 @ gmail . com", []string{"email fred9246@gmail.com"}},
		{"fred9246[at]gmail[.]com", []string{"email fred9246@gmail.com"}},
		{"IBAN GB33BUKB20201555555555", []string{"iban gb33bukb20201555555555"}},
		{"to DE89 3704 0044 0532 0130 00 please", []string{"iban de89 3704 0044 0532 0130 00"}},
		{"call +1 (555) 123-4567", []string{"phone +1 (555) 123-4567"}},
		{"or 0044 20 7946 0958", []string{"phone 0044 20 7946 0958"}},
		{"send to 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", []string{"chain address 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"}},
		{"card 4111 1111 1111 1111", []string{"account number 4111111111111111"}},
		{"account 12345678", []string{"account number 12345678"}},
		{"ping @alice_b", []string{"handle @alice_b"}},
		{"ref 123e4567-e89b-12d3-a456-426614174000", []string{"id 123e4567-e89b-12d3-a456-426614174000"}},
		{"vitalik.eth", []string{"domain vitalik.eth"}},
	} {
		ids, _ := Identifiers(tc.text)
		var got []string
		for _, id := range ids {
			got = append(got, id.Kind.String()+" "+id.Value)
		}
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("Identifiers(%q) = %q, want %q among them", tc.text, got, w)
			}
		}
	}
	for _, text := range []string{
		"The latest job report brought a mix of relief and concern as unemployment edged down to 7.2%.",
		"hobbies are hiking, swimming and painting",
		"Hi, i am a bot",
		"We met. Now the end. Apple pie. Results in report.pdf and main.go, e.g. the U.S. figures.",
		"Pay 1,000.50 on 2024-05-01 at 10:30, or 1.250,00 EUR on 01/05/2024.",
		"I've seen it in the meeting room!",
		"Congrats on being the 2-th most active user!",
		"Version 1.2.3 of the tool, section 4.5.6, 3.14 and 2500000wei.",
		"Note:the meeting is at 10:30;agenda:budget=ok",
	} {
		if ids, _ := Identifiers(text); len(ids) > 0 {
			t.Errorf("Identifiers(%q) = %v, want none", text, ids)
		}
	}
}

// TestIdentifiersBounded: a text with very many addresses reports that it
// has more than it returns, and a huge text is read within the budget.
func TestIdentifiersBounded(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		b.WriteString("user")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString(strconv.Itoa(i))
		b.WriteString("@example.com ")
	}
	ids, more := Identifiers(b.String())
	if len(ids) != MaxIdentifiers || !more {
		t.Errorf("%d identifiers, more %v; want %d and more", len(ids), more, MaxIdentifiers)
	}
	if ids, _ := Identifiers(strings.Repeat("a", 4<<20) + " www.late.example"); len(ids) != 0 {
		t.Errorf("past the budget: %v", ids)
	}
}

func FuzzIdentifiers(f *testing.F) {
	f.Add("www.example.com DE89 3704 0044 0532 0130 00 +1 (555) 123-4567")
	f.Add("d3d3LmV4YW1wbGUuY29t %77%77%77 &#46; [.] (dot) @@ 0x")
	f.Fuzz(func(t *testing.T, s string) {
		ids, _ := Identifiers(s)
		if len(ids) > MaxIdentifiers {
			t.Fatalf("%d identifiers", len(ids))
		}
		for _, id := range ids {
			if id.Value == "" || id.Kind == 0 || id.Kind >= numIdentKinds {
				t.Fatalf("bad identifier %+v", id)
			}
		}
	})
}
