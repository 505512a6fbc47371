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
