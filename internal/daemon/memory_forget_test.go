package daemon_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
)

// Forgetting adopted memory through the gate: the agent previews
// memory_forget_entry, and only the owner's signature of that permit
// forgets the entry; a commit without it or with a signature of other
// arguments changes nothing.
func TestForgetMemoryNeedsTheOwner(t *testing.T) {
	ctx := t.Context()
	ownerKey, _ := crypto.GenerateKey()
	st := privStack(t, daemon.DefaultDB(t.TempDir()), ownerKey)
	s, err := st.Session(ctx, "agent", policy.Agent, "dev")
	if err != nil {
		t.Fatal(err)
	}
	insight := json.RawMessage(`{"content":"Compound III USDC supply rates move with utilisation; the kink is at 90 percent."}`)
	pv, err := st.Tools.Preview(ctx, s, "memory_propose_insight", insight)
	if err != nil {
		t.Fatal(err)
	}
	res, err := st.Tools.Commit(ctx, s, gate.CommitRequest{PermitID: pv.PermitID})
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		EntryID string `json:"entry_id"`
	}
	if err := json.Unmarshal(res.Data, &out); err != nil {
		t.Fatal(err)
	}
	r, err := st.Ingest.Validate(ctx, out.EntryID)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("consensus on the insight: %s %s %v", r.Verdict, r.Code, r.Reasons)
	if r.Verdict != ingest.Adopted {
		t.Fatalf("the default consensus did not adopt the insight: %s", r.Verdict)
	}

	raw := json.RawMessage(`{"entry_id":"` + out.EntryID + `","reason":"superseded"}`)
	pv, err = st.Tools.Preview(ctx, s, "memory_forget_entry", raw)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Tools.Commit(ctx, s, gate.CommitRequest{PermitID: pv.PermitID})
	wantCode(t, "forget without the owner's signature", err, reason.ApprovalRequired)
	_, err = st.Tools.Commit(ctx, s, gate.CommitRequest{PermitID: pv.PermitID, Approval: approve(t, ownerKey, pv.PermitID, "memory_forget_entry", json.RawMessage(`{"entry_id":"other","reason":"superseded"}`))})
	wantCode(t, "forget with a signature of other arguments", err, reason.ApprovalInvalid)
	if _, ok := st.Ingest.Grimoire().Get(out.EntryID); !ok {
		t.Fatal("a refused commit forgot the entry")
	}
	if _, err := st.Tools.Commit(ctx, s, gate.CommitRequest{PermitID: pv.PermitID, Approval: approve(t, ownerKey, pv.PermitID, "memory_forget_entry", raw)}); err != nil {
		t.Fatal(err)
	}
	if _, ok := st.Ingest.Grimoire().Get(out.EntryID); ok {
		t.Error("the entry is still retrieved")
	}
	if _, err := st.Store.Entry(ctx, out.EntryID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the entry is still stored: %v", err)
	}
}
