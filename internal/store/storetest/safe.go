package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/store"
)

const (
	safeAddr   = "0x00000000000000000000000000000000000000c3"
	safeOwnerA = "0x00000000000000000000000000000000000000a1"
	safeOwnerB = "0x00000000000000000000000000000000000000b2"
)

func safeSig(b byte) []byte { return bytes.Repeat([]byte{b}, 65) }

// safeTxOf is a pending Safe transaction at nonce n signed by owner A.
func safeTxOf(n uint64) *store.SafeTx {
	return &store.SafeTx{
		Hash: fmt.Sprintf("0x%064x", 0x5afe00+n), ChainID: 1, Safe: safeAddr, Nonce: n,
		To: "0x00000000000000000000000000000000000000d4", Value: "0", Data: []byte{0xa9, 0x05, 0x9c, 0xbb, 1},
		PermitID: "permit-safe", Index: 0, PlanLen: 1, Label: "transfer", Created: t0,
		Signatures: []store.SafeSignature{{Owner: safeOwnerA, Sig: safeSig(1), At: t0}},
	}
}

// testSafeQueue: a Safe transaction round-trips with its signatures
// across a reopen, takes each owner's signature once, is executed once,
// and leaves the pending list when executed; invalid records, unknown
// hashes and duplicates are refused with nothing written.
func testSafeQueue(t *testing.T, h *harness) {
	ctx := t.Context()
	q, ok := h.s.(store.SafeTxs)
	if !ok {
		t.Fatalf("%T does not keep Safe transactions (store.SafeTxs)", h.s)
	}
	tx := safeTxOf(7)
	if err := q.ProposeSafeTx(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if err := q.ProposeSafeTx(ctx, tx); err == nil {
		t.Error("the same hash was proposed twice")
	}
	for name, bad := range map[string]func(*store.SafeTx){
		"upper-case hash": func(x *store.SafeTx) { x.Hash = "0x" + fmt.Sprintf("%064X", 0xABC) },
		"no permit":       func(x *store.SafeTx) { x.PermitID = "" },
		"negative value":  func(x *store.SafeTx) { x.Value = "-1" },
		"short signature": func(x *store.SafeTx) { x.Signatures[0].Sig = []byte{1} },
		"executed":        func(x *store.SafeTx) { x.Executed = "0x01" },
	} {
		x := safeTxOf(8)
		bad(x)
		if err := q.ProposeSafeTx(ctx, x); err == nil {
			t.Errorf("%s: proposed", name)
		}
	}
	if p, err := q.PendingSafeTxs(ctx, 1, safeAddr); err != nil || len(p) != 1 {
		t.Fatalf("pending after the refusals: %d, %v; want the one proposal", len(p), err)
	}

	h.reopen()
	q = h.s.(store.SafeTxs)
	got, err := q.SafeTx(ctx, tx.Hash)
	if err != nil {
		t.Fatal(err)
	}
	if got.Safe != tx.Safe || got.Nonce != 7 || got.To != tx.To || got.Value != "0" || !bytes.Equal(got.Data, tx.Data) ||
		got.PermitID != tx.PermitID || got.PlanLen != 1 || got.Label != "transfer" || !got.Created.Equal(t0) || got.Executed != "" ||
		len(got.Signatures) != 1 || got.Signatures[0].Owner != safeOwnerA || !bytes.Equal(got.Signatures[0].Sig, safeSig(1)) {
		t.Errorf("after reopen: %+v", got)
	}

	at := t0.Add(time.Minute)
	if err := q.AddSafeSignature(ctx, tx.Hash, store.SafeSignature{Owner: safeOwnerA, Sig: safeSig(2), At: at}); !errors.Is(err, store.ErrSafeSignedTwice) {
		t.Errorf("owner A again: %v, want ErrSafeSignedTwice", err)
	}
	if err := q.AddSafeSignature(ctx, "0x"+fmt.Sprintf("%064x", 1), store.SafeSignature{Owner: safeOwnerB, Sig: safeSig(3), At: at}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown hash: %v, want ErrNotFound", err)
	}
	if err := q.AddSafeSignature(ctx, tx.Hash, store.SafeSignature{Owner: safeOwnerB, Sig: safeSig(3), At: at}); err != nil {
		t.Fatal(err)
	}
	if got, _ := q.SafeTx(ctx, tx.Hash); len(got.Signatures) != 2 || got.Signatures[1].Owner != safeOwnerB {
		t.Errorf("signatures %+v, want A then B", got.Signatures)
	}

	const exec = "0x00000000000000000000000000000000000000000000000000000000000000e1"
	if err := q.SafeTxExecuted(ctx, tx.Hash, exec, at); err != nil {
		t.Fatal(err)
	}
	if err := q.SafeTxExecuted(ctx, tx.Hash, exec, at); !errors.Is(err, store.ErrSafeTxExecuted) {
		t.Errorf("executed twice: %v, want ErrSafeTxExecuted", err)
	}
	if err := q.AddSafeSignature(ctx, tx.Hash, store.SafeSignature{Owner: "0x00000000000000000000000000000000000000e5", Sig: safeSig(4), At: at}); !errors.Is(err, store.ErrSafeTxExecuted) {
		t.Errorf("signature after execution: %v, want ErrSafeTxExecuted", err)
	}
	if p, err := q.PendingSafeTxs(ctx, 1, safeAddr); err != nil || len(p) != 0 {
		t.Errorf("pending after execution: %d, %v; want none", len(p), err)
	}
	if got, _ := q.SafeTx(ctx, tx.Hash); got.Executed != exec || !got.ExecutedAt.Equal(at) {
		t.Errorf("executed record %q at %v", got.Executed, got.ExecutedAt)
	}
}
