package policy

import "testing"

// TestMemoKinds: Memo and MemoInt each find only their own results, so a
// path and an amount key spelled alike do not read each other's, and a
// key is computed once per kind while a slot is free.
func TestMemoKinds(t *testing.T) {
	var r Request
	ints, strs := 0, 0
	memoInt := func() int64 {
		n, _, _ := r.MemoInt("transfer", func() (int64, bool, error) { ints++; return 700, true, nil })
		return n
	}
	memoStr := func() string {
		a, _, _ := r.Memo("transfer", func() (string, string, error) { strs++; return "/root/transfer", "/root/transfer", nil })
		return a
	}
	if got := memoInt(); got != 700 {
		t.Fatalf("MemoInt = %d, want 700", got)
	}
	if got := memoStr(); got != "/root/transfer" {
		t.Errorf("Memo after MemoInt of the same key = %q, want /root/transfer (not the int slot's empty strings)", got)
	}
	if got := memoInt(); got != 700 {
		t.Errorf("MemoInt again = %d, want 700", got)
	}
	memoStr()
	if ints != 1 || strs != 1 {
		t.Errorf("computed %d ints, %d strings; want each once", ints, strs)
	}
	// Both slots are taken: a third key is computed on every call.
	third := 0
	for range 2 {
		r.Memo("other", func() (string, string, error) { third++; return "", "", nil })
	}
	if third != 2 {
		t.Errorf("a key beyond the slots computed %d times, want 2", third)
	}
}

// TestEvaluateStartsWithoutMemo passes Evaluate requests whose memo is
// already filled (as the request a rule is given is): the rules of the
// evaluation must compute their keys afresh, and the memo of one
// evaluation must not reach the next.
func TestEvaluateStartsWithoutMemo(t *testing.T) {
	computed := 0
	s, err := NewSnapshot([]Rule{{ID: "memo", Eval: func(r *Request) (Result, error) {
		n, _, _ := r.MemoInt("amount", func() (int64, bool, error) { computed++; return 1, true, nil })
		if n != 1 {
			return Denies("STALE", "stale memo"), nil
		}
		return NoOpinion, nil
	}}}, SnapshotConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for _, filled := range []int{0, 1, 2} {
		var req Request
		for i := range filled {
			req.MemoInt([]string{"amount", "other"}[i], func() (int64, bool, error) { return 99, true, nil })
		}
		computed = 0
		if d := s.Evaluate(&req); d.Action() != Allow {
			t.Errorf("%d slots filled: %v (%s), want allow", filled, d.Action(), d.Message())
		}
		if computed != 1 {
			t.Errorf("%d slots filled: the rule computed its key %d times, want 1", filled, computed)
		}
	}
}
