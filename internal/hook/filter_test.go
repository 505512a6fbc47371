package hook_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/tool"
)

const (
	pk       = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	mnemo12  = "abandon ability able about above absent absorb abstract absurd abuse access accident"
	mnemo24  = mnemo12 + " account accuse achieve acid acoustic acquire across act action actor actress actual"
	jwt      = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	awsKey   = "AKIAIOSFODNN7EXAMPLE"
	openAIKy = "sk-proj-abcdefghijklmnopqrstuvwx0123456789"
)

func newFilter(t testing.TB, max int) *hook.ResultFilter {
	t.Helper()
	f, err := hook.NewResultFilter(hook.FilterConfig{MaxBytes: max})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestFilterRedacts(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		want  string // the filtered data
		kinds []string
	}{
		{"clean data is kept, compacted", `{"b": [1, 2.50, true, null], "a": "é"}`, `{"b":[1,2.50,true,null],"a":"é"}`, nil},
		{"private key", `{"note":"key is ` + pk + `."}`, `{"note":"key is [redacted]."}`, []string{"private_key"}},
		{"tx hash kept", `{"tx_hash":"` + pk + `","blockHash":"` + pk + `","topics":["` + pk + `"],"stateRoot":"` + pk + `"}`,
			`{"tx_hash":"` + pk + `","blockHash":"` + pk + `","topics":["` + pk + `"],"stateRoot":"` + pk + `"}`, nil},
		{"plural and id keys kept", `{"tx_hashes":["` + pk + `"],"logsBloomRoots":["` + pk + `"],"args_digest":"` + pk[2:] + `","txid":"` + pk + `"}`,
			`{"tx_hashes":["` + pk + `"],"logsBloomRoots":["` + pk + `"],"args_digest":"` + pk[2:] + `","txid":"` + pk + `"}`, nil},
		{"private key without 0x", `{"note":"export ` + pk[2:] + `"}`, `{"note":"export [redacted]"}`, []string{"private_key"}},
		{"private key upper-case 0X", `["0X` + strings.ToUpper(pk[2:]) + `"]`, `["[redacted]"]`, []string{"private_key"}},
		{"hex inside a word is not a key", `["a` + pk[2:] + `","` + pk[2:] + `z"]`, `["a` + pk[2:] + `","` + pk[2:] + `z"]`, nil},
		{"longer hex is not a key", `{"sig":"` + pk + `ab"}`, `{"sig":"` + pk + `ab"}`, nil},
		{"secret field", `{"private_key":"hunter2","nested":{"apiKey":"x","password":["a","b"]}}`,
			`{"private_key":"[redacted]","nested":{"apiKey":"[redacted]","password":["[redacted]","[redacted]"]}}`, []string{"secret_field"}},
		{"mnemonic 12", `{"backup":"` + mnemo12 + `"}`, `{"backup":"[redacted]"}`, []string{"mnemonic"}},
		{"mnemonic 24 after a label", `["seed: ` + mnemo24 + `"]`, `["seed: [redacted]"]`, []string{"mnemonic"}},
		{"13 words are not a phrase", `["` + mnemo12 + ` actor"]`, `["` + mnemo12 + ` actor"]`, nil},
		{"prose is not a phrase", `["the pool has deep liquidity and the fee tier is low so swaps here cost little today"]`,
			`["the pool has deep liquidity and the fee tier is low so swaps here cost little today"]`, nil},
		{"bearer", `{"headers":"Authorization: Bearer abcDEF123456789.xyz"}`, `{"headers":"Authorization: Bearer [redacted]"}`, []string{"bearer_token"}},
		{"api keys", `["` + openAIKy + `","ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"]`, `["[redacted]","[redacted]"]`, []string{"api_key"}},
		{"aws", `{"id":"` + awsKey + `"}`, `{"id":"[redacted]"}`, []string{"aws_key"}},
		{"jwt", `{"t":"` + jwt + `"}`, `{"t":"[redacted]"}`, []string{"jwt"}},
		{"secret as key", `{"` + pk + `":1}`, `{"[redacted]":1}`, []string{"private_key"}},
		{"escaped secret is found", `{"k":"\u0030x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"}`, `{"k":"[redacted]"}`, []string{"private_key"}},
	}
	f := newFilter(t, 0)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &tool.Result{Data: json.RawMessage(tt.data), SchemaVersion: 1}
			out, rep := f.Filter(in)
			if string(out.Data) != tt.want {
				t.Errorf("data = %s\nwant   %s", out.Data, tt.want)
			}
			if !slices.Equal(rep.Kinds, tt.kinds) {
				t.Errorf("kinds = %v, want %v", rep.Kinds, tt.kinds)
			}
			if (rep.Redacted > 0) != (len(tt.kinds) > 0) || rep.Truncated || rep.NotJSON {
				t.Errorf("report = %+v", rep)
			}
			if string(in.Data) != tt.data {
				t.Error("Filter modified its input")
			}
		})
	}
}

func TestFilterOutcomes(t *testing.T) {
	f := newFilter(t, 0)
	in := &tool.Result{Data: json.RawMessage(`{}`), ExpectedOutcome: "sent with " + pk, ActualOutcome: "ok", GroundTruthSource: "receipt"}
	out, rep := f.Filter(in)
	if out.ExpectedOutcome != "sent with [redacted]" || out.ActualOutcome != "ok" || rep.Redacted != 1 {
		t.Errorf("outcome = %q, report %+v", out.ExpectedOutcome, rep)
	}
	if out2, _ := f.Filter(nil); out2 != nil {
		t.Error("Filter(nil) != nil")
	}
	empty, rep := f.Filter(&tool.Result{})
	if len(empty.Data) != 0 || rep.Bytes != 0 {
		t.Errorf("empty data became %q", empty.Data)
	}
}

// TestFilterKeepsOwnTxHashes: the hashes of the transactions a write sent
// are public wherever they appear (a summary, an outcome, an unnamed
// field), and knowing them exempts nothing else.
func TestFilterKeepsOwnTxHashes(t *testing.T) {
	const tx = "0x5d1e0c3b2f3a4b6c7d8e9f00112233445566778899aabbccddeeff0011223344"
	f := newFilter(t, 0)
	in := &tool.Result{
		Data:            json.RawMessage(`{"sent":["` + strings.ToUpper(tx[2:]) + `"],"note":"swap ` + tx + ` done","leak":"` + pk + `"}`),
		ExpectedOutcome: "receipt of " + tx,
		TxHashes:        []string{tx},
	}
	out, rep := f.Filter(in)
	want := `{"sent":["` + strings.ToUpper(tx[2:]) + `"],"note":"swap ` + tx + ` done","leak":"[redacted]"}`
	if string(out.Data) != want || out.ExpectedOutcome != "receipt of "+tx || rep.Redacted != 1 {
		t.Errorf("data = %s, outcome %q, report %+v\nwant %s", out.Data, out.ExpectedOutcome, rep, want)
	}
	if !slices.Equal(out.TxHashes, in.TxHashes) {
		t.Errorf("TxHashes = %v", out.TxHashes)
	}
}

func TestFilterTruncates(t *testing.T) {
	const limit = 2048
	var big strings.Builder
	big.WriteString(`{"pools":[`)
	for i := range 500 {
		if i > 0 {
			big.WriteString(",")
		}
		big.WriteString(`{"address":"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed","fee":3000,"tvl":"123456789"}`)
	}
	big.WriteString(`],"count":500}`)
	deep := strings.Repeat("[", 100) + "1" + strings.Repeat("]", 100)
	deepObj := `{"a":` + strings.Repeat(`{"a":`, 80) + "1" + strings.Repeat("}", 81)
	tests := []struct {
		name, data string
		notJSON    bool
		contains   []string
	}{
		{"long array", big.String(), false, []string{`{"pools":[{"address"`, `"[truncated]"]`}},
		{"long string", `{"page":"` + strings.Repeat("lorem ipsum ", 1000) + `"}`, false, []string{`{"page":"lorem ipsum`, `…[truncated]"`}},
		{"long top-level string", `"` + strings.Repeat(`ab\"`, 2000) + `"`, false, []string{`…[truncated]"`}},
		{"long key", `{"` + strings.Repeat("k", 5000) + `":1}`, false, []string{`{"[truncated]":true}`}},
		{"deep array", deep, false, []string{`"[truncated]"`}},
		{"deep object", deepObj, false, []string{`"[truncated]"`}},
		{"not JSON", "plain text output\x00\xff " + strings.Repeat("x", 3000), true, []string{`"plain text output\u0000`, `[truncated]"`}},
		{"trailing data", `{"a":1} {"b":2}`, true, []string{`"{\"a\":1} {\"b\":2}"`}},
		{"truncated JSON", `{"a":[1,2`, true, nil},
	}
	f := newFilter(t, limit)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, rep := f.Filter(&tool.Result{Data: json.RawMessage(tt.data)})
			if !json.Valid(out.Data) {
				t.Fatalf("invalid JSON: %.300s", out.Data)
			}
			if len(out.Data) > limit || rep.Bytes != len(out.Data) || rep.OriginalBytes != len(tt.data) {
				t.Errorf("%d bytes (report %+v), cap %d", len(out.Data), rep, limit)
			}
			if rep.NotJSON != tt.notJSON {
				t.Errorf("NotJSON = %t, want %t", rep.NotJSON, tt.notJSON)
			}
			if !rep.Truncated && len(tt.data) > limit {
				t.Error("Truncated not reported")
			}
			for _, c := range tt.contains {
				if !bytes.Contains(out.Data, []byte(c)) {
					t.Errorf("data lacks %s: %.300s … %.200s", c, out.Data, out.Data[max(0, len(out.Data)-200):])
				}
			}
		})
	}
}

func TestFilterConfig(t *testing.T) {
	if _, err := hook.NewResultFilter(hook.FilterConfig{MaxBytes: 100}); err == nil {
		t.Error("a cap below the minimum was accepted")
	}
}

// FuzzFilter: whatever a tool returns, the filtered data is valid JSON
// within the cap, and the report measures it.
func FuzzFilter(f *testing.F) {
	for _, s := range []string{`{}`, `[1,"a",{"b":null}]`, `"` + pk + `"`, `{"seed":"` + mnemo12 + `"}`, `[[[[[[]]]]]]`,
		`{"a":"\ud800"}`, `1e999`, `{"x":` + strings.Repeat("[", 70) + strings.Repeat("]", 70) + `}`, "not json", ""} {
		f.Add([]byte(s), uint16(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, cap uint16) {
		max := hook.MinResultBytes + int(cap%4096)
		filter := newFilter(t, max)
		out, rep := filter.Filter(&tool.Result{Data: data})
		if len(data) == 0 {
			return
		}
		if !json.Valid(out.Data) {
			t.Fatalf("invalid JSON out of %q: %q", data, out.Data)
		}
		if len(out.Data) > max {
			t.Fatalf("%d bytes > cap %d", len(out.Data), max)
		}
		if rep.Bytes != len(out.Data) {
			t.Fatalf("report says %d bytes, data has %d", rep.Bytes, len(out.Data))
		}
	})
}

func BenchmarkFilter(b *testing.B) {
	f := newFilter(b, 0)
	var sb strings.Builder
	sb.WriteString(`{"pools":[`)
	for i := range 100 {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`{"address":"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed","fee":3000,"name":"Wrapped Ether / USD Coin","tvl":"123456789"}`)
	}
	sb.WriteString(`]}`)
	r := &tool.Result{Data: json.RawMessage(sb.String())}
	b.SetBytes(int64(len(r.Data)))
	for b.Loop() {
		f.Filter(r)
	}
}

func TestFilterReportString(t *testing.T) {
	f := newFilter(t, 0)
	if _, rep := f.Filter(&tool.Result{Data: json.RawMessage(`{"a":1}`)}); rep.String() != "" {
		t.Errorf("clean report = %q, want empty", rep.String())
	}
	_, rep := f.Filter(&tool.Result{Data: json.RawMessage(`["` + pk + `","` + awsKey + `"]`)})
	if got, want := rep.String(), "redacted 2 secret(s): aws_key, private_key"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	small := newFilter(t, hook.MinResultBytes)
	_, rep = small.Filter(&tool.Result{Data: json.RawMessage("x" + strings.Repeat("y", 2000))})
	if got := rep.String(); !strings.Contains(got, "non-JSON data quoted") || !strings.Contains(got, "truncated from 2001 to") {
		t.Errorf("String() = %q", got)
	}
}
