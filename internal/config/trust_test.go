package config

import (
	"strings"
	"testing"
)

func TestTrustSection(t *testing.T) {
	f, err := Parse("t.toml", []byte("[trust]\naddress_book = [\"0x1111111111111111111111111111111111111111\"]\njudge = \"rules-reviewer\"\n"+
		"[policy.provenance.require]\nerc20_approve_token = [\"spender\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Trust.Judge != "rules-reviewer" || len(f.Trust.Reviewers) != 1 || len(f.Trust.AddressBook) != 1 ||
		len(f.Policy.Provenance.Require["erc20_approve_token"]) != 1 {
		t.Errorf("trust %+v, provenance %+v", f.Trust, f.Policy.Provenance)
	}
	// A named counterparty is in the address book too, once.
	n, err := Parse("t.toml", []byte("[trust]\naddress_book = [\"0x1111111111111111111111111111111111111111\"]\n"+
		"[trust.names]\ntreasury = \"0x1111111111111111111111111111111111111111\"\nexchange = \"0x2222222222222222222222222222222222222222\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Trust.AddressBook) != 2 || n.Trust.Names["treasury"] != "0x1111111111111111111111111111111111111111" || len(n.Trust.Names) != 2 {
		t.Errorf("named counterparties: book %v, names %v", n.Trust.AddressBook, n.Trust.Names)
	}
	d, _ := Default()
	if d.Trust.Judge != "rules-judge" || d.Trust.Reviewers[0] != "rules-reviewer" {
		t.Errorf("defaults %+v", d.Trust)
	}
	for _, c := range []struct{ in, want string }{
		{"[trust]\njudge = \"llm\"\n", "unknown judge"},
		{"[trust]\nreviewers = []\n", "at least one reviewer"},
		{"[trust]\naddress_book = [\"x\"]\n", "3 to 256"},
		{"[trust.llm]\nendpoint = \"http://x/v1\"\n", "endpoint and model"},
		{"[trust.llm]\nendpoint = \"http://x/v1\"\nmodel = \"m\"\napi_key_env = \"WARD_SURELY_UNSET_VAR\"\n", "not set"},
		{"[policy.provenance.require]\n\"Bad Tool\" = [\"x\"]\n", "invalid tool name"},
		{"[trust.names]\ntreasury = \"x\"\n", "trust.names.treasury: must be 3 to 256 characters"},
		{"[trust.names]\n\"a\\u0007b\" = \"0x1111111111111111111111111111111111111111\"\n", "at most 64 printable characters"},
		{"[trust.names]\na = \"0x1111111111111111111111111111111111111111\"\nb = \"0X1111111111111111111111111111111111111111\"\n", "names the same value as trust.names.a"},
	} {
		if _, err := Parse("t.toml", []byte(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}
