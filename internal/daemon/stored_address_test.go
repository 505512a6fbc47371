package daemon

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/store"
)

// TestStoredAddressesRefuseDamage: a queued Safe transaction or owner
// call whose stored address is not 0x and 40 hex digits (a damaged or
// edited row) is an error naming the record and the field. Before, the
// rows were read with common.HexToAddress, which turns "" into the zero
// address and a short or non-hex string into some other address, so a
// co-signature or an observation could have been made for an address
// the record never held.
func TestStoredAddressesRefuseDamage(t *testing.T) {
	const good = "0x00000000000000000000000000000000000000aa"
	okSafe := store.SafeTx{Hash: "0x01", Safe: good, To: good, Value: "0",
		Signatures: []store.SafeSignature{{Owner: good}}}
	if p, err := proposalOf(okSafe); err != nil || p.Tx.To != common.HexToAddress(good) {
		t.Fatalf("a well-formed row: %+v, %v", p, err)
	}
	for name, mutate := range map[string]func(*store.SafeTx){
		"to":     func(s *store.SafeTx) { s.To = "0xaa" },
		"safe":   func(s *store.SafeTx) { s.Safe = "" },
		"signer": func(s *store.SafeTx) { s.Signatures = []store.SafeSignature{{Owner: "0x" + strings.Repeat("zz", 20)}} },
	} {
		row := okSafe
		mutate(&row)
		if _, err := proposalOf(row); err == nil || !strings.Contains(err.Error(), "stored "+name) || !strings.Contains(err.Error(), "0x01") {
			t.Errorf("safe tx with a damaged %s: err %v, want one naming the field and the tx", name, err)
		}
	}

	okOwner := store.OwnerTx{ID: "otx1", Account: good, Owner: good, SessionKey: good}
	if _, err := ownerCallOf(okOwner); err != nil {
		t.Fatalf("a well-formed owner call: %v", err)
	}
	for name, mutate := range map[string]func(*store.OwnerTx){
		"account":     func(o *store.OwnerTx) { o.Account = good[:41] },
		"owner":       func(o *store.OwnerTx) { o.Owner = "00" + good[2:] },
		"session key": func(o *store.OwnerTx) { o.SessionKey = "" },
	} {
		row := okOwner
		mutate(&row)
		if _, err := ownerCallOf(row); err == nil || !strings.Contains(err.Error(), "stored "+name) || !strings.Contains(err.Error(), "otx1") {
			t.Errorf("owner call with a damaged %s: err %v, want one naming the field and the record", name, err)
		}
	}
}
