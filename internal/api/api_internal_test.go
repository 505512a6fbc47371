package api

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/reason"
)

// checkCase is one line of testdata/check.jsonl: a what-if request (or a
// raw body) and the decision ("action REASON") or error code it gets.
type checkCase struct {
	Name    string          `json:"name"`
	Want    string          `json:"want"`
	Request json.RawMessage `json:"request"`
	Raw     string          `json:"raw"`
}

func (c *checkCase) body() []byte {
	if c.Raw != "" {
		return []byte(c.Raw)
	}
	return c.Request
}

func checkCorpus(t testing.TB) []checkCase {
	f, err := os.Open("testdata/check.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []checkCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c checkCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("corpus line %q: %v", sc.Text(), err)
		}
		out = append(out, c)
	}
	return out
}

// check runs a what-if body as POST /v1/policy/check does, with an empty
// tracked state.
func check(snap *policy.Snapshot, body []byte) (policy.Decision, error) {
	var cr policy.CheckRequest
	if err := decode(body, &cr); err != nil {
		return policy.Decision{}, err
	}
	return evaluateCheck(snap, policy.NewTracker(), &cr, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
}

func defaultSnapshot(t testing.TB) *policy.Snapshot {
	snap, err := rules.Compile(rules.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func TestCheckCorpus(t *testing.T) {
	snap := defaultSnapshot(t)
	for _, c := range checkCorpus(t) {
		t.Run(c.Name, func(t *testing.T) {
			d, err := check(snap, c.body())
			var got string
			if err != nil {
				var e *Error
				if !errors.As(err, &e) || e.Status != 400 {
					t.Fatalf("error %v is not a 400 API error", err)
				}
				got = e.Code
			} else {
				got = d.Action().String() + " " + string(d.Code())
			}
			if got != c.Want {
				t.Errorf("got %s, want %s", got, c.Want)
			}
		})
	}
}

// FuzzCheck: any body is a decision or a 400, never a panic or another
// error.
func FuzzCheck(f *testing.F) {
	for _, c := range checkCorpus(f) {
		f.Add(c.body())
	}
	snap := defaultSnapshot(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		d, err := check(snap, body)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Status != 400 || (e.Code != CodeBadJSON && e.Code != CodeBadRequest) {
				t.Fatalf("error %v", err)
			}
			return
		}
		if !json.Valid(d.AppendJSON(nil)) {
			t.Fatalf("decision JSON %s", d.AppendJSON(nil))
		}
	})
}

func TestRing(t *testing.T) {
	r := newRing(4)
	if got, missing := r.since(0); len(got) != 0 || missing {
		t.Errorf("empty ring: %v, %v", got, missing)
	}
	for i := uint64(1); i <= 6; i++ {
		r.add(event.Event{Seq: i})
	}
	for _, tc := range []struct {
		since   uint64
		want    []uint64
		missing bool
	}{
		{0, []uint64{3, 4, 5, 6}, true},
		{1, []uint64{3, 4, 5, 6}, true},
		{2, []uint64{3, 4, 5, 6}, false},
		{4, []uint64{5, 6}, false},
		{6, nil, false},
		{99, nil, false},
	} {
		got, missing := r.since(tc.since)
		var seqs []uint64
		for _, e := range got {
			seqs = append(seqs, e.Seq)
		}
		if !slicesEqual(seqs, tc.want) || missing != tc.missing {
			t.Errorf("since(%d) = %v, missing %v; want %v, %v", tc.since, seqs, missing, tc.want, tc.missing)
		}
	}
}

func slicesEqual(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestLastEventID(t *testing.T) {
	a := &Server{epoch: "abc"}
	for _, tc := range []struct {
		id            string
		seq           uint64
		replay, reset bool
	}{
		{"abc-42", 42, true, false},
		{"42", 42, true, false},
		{" abc-7 ", 7, true, false},
		{"old-42", 0, true, true},
		{"abc-x", 0, false, false},
		{"abc--1", 0, false, false},
		{"", 0, false, false},
		{strings.Repeat("9", 40), 0, false, false},
	} {
		seq, replay, reset := a.lastEventID(tc.id)
		if seq != tc.seq || replay != tc.replay || reset != tc.reset {
			t.Errorf("lastEventID(%q) = %d, %v, %v; want %d, %v, %v", tc.id, seq, replay, reset, tc.seq, tc.replay, tc.reset)
		}
	}
}

func FuzzLastEventID(f *testing.F) {
	for _, s := range []string{"abc-1", "1", "x-1", "", "-", "abc-18446744073709551615"} {
		f.Add(s)
	}
	a := &Server{epoch: "abc"}
	f.Fuzz(func(t *testing.T, s string) {
		seq, replay, reset := a.lastEventID(s)
		if reset && (!replay || seq != 0) {
			t.Fatalf("%q: reset without a full replay", s)
		}
		if !replay && seq != 0 {
			t.Fatalf("%q: a sequence number without a replay", s)
		}
	})
}

func TestRefusalStatus(t *testing.T) {
	for code, want := range map[string]int{
		"SCHEMA_VIOLATION": 400, "TOOL_NOT_AVAILABLE": 404, "PERMIT_ALREADY_CONSUMED": 409, "EMERGENCY_HALT": 423,
		"WRITE_RATE_LIMIT_EXCEEDED": 429, "AUDIT_UNAVAILABLE": 503, "EXECUTION_FAILED": 502, "TICK_BUDGET_EXCEEDED": 504,
		"AMOUNT_EXCEEDS_PER_PAYMENT_LIMIT": 403, "CUSTOM_RULE_VIOLATION": 403, "QUARANTINE_NOT_FOUND": 404, "TX_IN_FLIGHT": 409,
	} {
		if got := refusalStatus(reason.Code(code)); got != want {
			t.Errorf("%s: %d, want %d", code, got, want)
		}
	}
}
