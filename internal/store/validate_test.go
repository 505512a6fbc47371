package store

import (
	"strings"
	"testing"
	"time"
)

func TestCheckRecord(t *testing.T) {
	addr := "0x" + strings.Repeat("ab", 20)
	valid := &OwnerTx{ID: "t1", ChainID: 1, Account: addr, Owner: addr, SessionKey: addr, Kind: GrantSessionKey,
		Data: []byte{1, 2, 3, 4}, PermitID: "p1", Created: time.Unix(1, 0)}
	for _, tc := range []struct {
		name  string
		rec   *OwnerTx
		admit bool
	}{
		{"valid", valid, true},
		{"nil", nil, false},
		{"invalid", &OwnerTx{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckRecord("sqlite: hold owner tx", tc.rec)
			if got := err == nil; got != tc.admit {
				t.Errorf("CheckRecord admits: got %v (%v), want %v", got, err, tc.admit)
			}
		})
	}
}
