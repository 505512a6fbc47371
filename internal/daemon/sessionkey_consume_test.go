package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/capability/mint"
	"github.com/wardhq/ward/internal/catalog/privileged"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store/sqlite"
	"github.com/wardhq/ward/internal/tool"
)

// heldKeys is a SessionKeys whose record cannot be written; it notes
// whether the capability was already used up when it was asked to hold.
type heldKeys struct {
	c            *capability.Capability
	args         [32]byte
	consumedWhen []bool
}

func (h *heldKeys) PrepareSessionKey(_ context.Context, c chain.SessionKeyChange) (*chain.OwnerCall, error) {
	return &chain.OwnerCall{ChainID: 1337, Account: common.HexToAddress("0xa1"), Owner: common.HexToAddress("0xa2"), Key: c.Key,
		Revoke: c.Revoke, Data: []byte{1, 2, 3, 4}}, nil
}

func (h *heldKeys) HoldOwnerCall(context.Context, string, *chain.OwnerCall) (string, error) {
	err := h.c.Consume("wallet_revoke_session_key", h.args, 1, time.Now())
	h.consumedWhen = append(h.consumedWhen, err != nil)
	return "", errors.New("the store cannot be written")
}

// TestSessionKeyToolConsumesBeforeRecording: the revocation's handler
// uses up its capability before it asks for the owner's transaction to be
// recorded, so a record that cannot be written leaves no capability to
// try again with; without the owner's approval nothing is asked at all.
func TestSessionKeyToolConsumesBeforeRecording(t *testing.T) {
	raw := json.RawMessage(`{"session_key":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}`)
	args, err := tool.ParseArgs(raw)
	if err != nil {
		t.Fatal(err)
	}
	keys := &heldKeys{args: args.Hash()}
	// The token tools' store is not used by the session-key tools.
	tools, err := privileged.Tools(privileged.Config{Gate: &ownerOps{}, Principals: (*sqlite.Store)(nil), SessionKeys: keys})
	if err != nil {
		t.Fatal(err)
	}
	var revoke registry.Tool
	for _, tl := range tools {
		if tl.Def.Name == "wallet_revoke_session_key" {
			revoke = tl
		}
	}
	if revoke.Privileged == nil || !revoke.Def.Unhalted {
		t.Fatalf("wallet_revoke_session_key: %+v", revoke.Def)
	}
	in := &registry.Input{Args: args, Raw: raw, Tick: 1, Now: time.Now(), Step: func(int) {}}
	plan, err := revoke.Plan(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Txs) != 0 || plan.ValueCents != 0 {
		t.Errorf("the plan sends %d transactions worth %d cents, want none", len(plan.Txs), plan.ValueCents)
	}
	newCap := func(id string) *capability.Capability {
		return mint.Capability(mint.Fields{PermitID: id, Tool: "wallet_revoke_session_key", ArgsHash: args.Hash(), ExpiresAt: time.Now().Add(time.Minute), ExpiryTick: 10})
	}

	keys.c = newCap("permit-unapproved")
	if _, err := revoke.Privileged(t.Context(), in, plan, keys.c, mint.Approval("permit-other", "0xowner", time.Now())); err == nil {
		t.Fatal("committed with an approval of another permit")
	}
	if len(keys.consumedWhen) != 0 {
		t.Fatal("an unapproved commit asked for a record")
	}

	keys.c = newCap("permit-1")
	_, err = revoke.Privileged(t.Context(), in, plan, keys.c, mint.Approval("permit-1", "0xowner", time.Now()))
	if err == nil {
		t.Fatal("the commit succeeded without its record")
	}
	if len(keys.consumedWhen) != 1 || !keys.consumedWhen[0] {
		t.Fatalf("asked to record with the capability consumed: %v, want [true]", keys.consumedWhen)
	}
	if _, err := revoke.Privileged(t.Context(), in, plan, keys.c, mint.Approval("permit-1", "0xowner", time.Now())); err == nil {
		t.Error("the used capability committed again")
	}
	if len(keys.consumedWhen) != 1 {
		t.Error("the used capability reached the record again")
	}
}
