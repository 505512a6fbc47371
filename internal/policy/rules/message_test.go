package rules

import (
	"fmt"
	"testing"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/tool"
)

// TestDenyMessagesSpelled checks the messages of the denies whose text is
// built once (a path pattern's, a shell finding's) or around the call's
// amount, word for word, on the first call and on later ones.
func TestDenyMessagesSpelled(t *testing.T) {
	dir := t.TempDir()
	cfg := DefaultConfig()
	cfg.Paths.Root = dir
	snap, err := Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		tool, args string
		want       string
	}{
		{"transfer_credits", `{"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","amount_cents":1001}`, "transfer amount 1001c exceeds the per-payment limit of 1000c"},
		{"transfer_credits", `{"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","amount_cents":250000}`, "transfer amount 250000c exceeds the per-payment limit of 1000c"},
		{"transfer_credits", `{"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","amount_cents":9223372036854775807}`, "transfer amount 9223372036854775807c exceeds the per-payment limit of 1000c"},
		{"read_file", `{"path":".env"}`, "cannot read this file (matches the pattern '.env')"},
		{"read_file", `{"path":"keys/private_key.pem"}`, "cannot read this file (matches the pattern '*.pem')"},
		{"write_file", `{"path":"wallet.json","content":"x"}`, "cannot write this file (matches the pattern 'wallet.json')"},
		{"write_file", `{"path":"state.db","content":"x"}`, "cannot write this file (matches the pattern 'state.db')"},
		{"exec", `{"command":"rm -rf /"}`, "command matches the forbidden pattern 'rm -rf /' (destroy-files)"},
		{"exec", `{"command":"kill -9 1"}`, "command matches the forbidden pattern 'kill -9' (kill-process)"},
	}
	for round := range 3 {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%d/%s/%s", round, c.tool, c.args), func(t *testing.T) {
				args, err := tool.ParseArgs([]byte(c.args))
				if err != nil {
					t.Fatal(err)
				}
				d := snap.Evaluate(&policy.Request{Tool: tool.Ref{Name: c.tool}, Args: args, Workdir: dir, Turn: policy.Turn{Source: policy.Agent}})
				if d.Action() != policy.Deny || d.Message() != c.want {
					t.Errorf("got %v %q, want deny %q", d.Action(), d.Message(), c.want)
				}
			})
		}
	}
}

// TestTextMemoPastItsBound checks that a memo holding maxTextMemo texts
// still returns the right text for every other key, and keeps no more.
func TestTextMemoPastItsBound(t *testing.T) {
	var m textMemo[int]
	build := func(k int) string { return fmt.Sprint("text ", k) }
	for round := range 2 {
		for k := range 3 * maxTextMemo {
			if got, want := m.get(k, build), build(k); got != want {
				t.Fatalf("round %d: get(%d) = %q, want %q", round, k, got, want)
			}
		}
	}
	if n := len(*m.m.Load()); n != maxTextMemo {
		t.Errorf("memo holds %d texts, want %d", n, maxTextMemo)
	}
}
