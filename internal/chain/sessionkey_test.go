package chain

import (
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// TestPrepareSessionKeyRefuses: what the account cannot express or would
// refuse is an ErrSessionKeyChange naming it, and nothing is prepared.
func TestPrepareSessionKeyRefuses(t *testing.T) {
	f := newAccountFixture(t)
	p := f.d.Provider()
	head, err := p.HeaderLatest(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(int64(head.Time), 0)
	key := common.HexToAddress("0x00000000000000000000000000000000005e5501")
	sel, _ := ERC20ABI().Selector("transfer")
	scope := func() SessionScope {
		return SessionScope{ValidUntil: now.Add(time.Hour), ValueCap: new(big.Int), Targets: []common.Address{f.c.USDC}, Selectors: [][4]byte{sel}}
	}
	grant := func(key common.Address, s SessionScope) SessionKeyChange {
		return SessionKeyChange{Account: f.dep.Account, Key: key, Scope: s}
	}
	with := func(edit func(*SessionScope)) SessionScope { s := scope(); edit(&s); return s }
	for _, c := range []struct {
		name string
		c    SessionKeyChange
		want string
	}{
		{"no account", SessionKeyChange{Key: key, Scope: scope()}, "no ERC-4337 account"},
		{"zero key", grant(common.Address{}, scope()), "zero or the account"},
		{"the account as key", grant(f.dep.Account, scope()), "zero or the account"},
		{"the owner as key", grant(f.d.OperatorAddress(), scope()), "the account's owner"},
		{"no pairs", grant(key, with(func(s *SessionScope) { s.Targets, s.Selectors = nil, nil })), "at least one"},
		{"uneven pairs", grant(key, with(func(s *SessionScope) { s.Selectors = append(s.Selectors, sel) })), "differ in length"},
		{"the account as target", grant(key, with(func(s *SessionScope) { s.Targets[0] = f.dep.Account })), "cannot call the account"},
		{"repeated pair", grant(key, with(func(s *SessionScope) {
			s.Targets, s.Selectors = append(s.Targets, f.c.USDC), append(s.Selectors, sel)
		})), "repeats"},
		{"past expiry", grant(key, with(func(s *SessionScope) { s.ValidUntil = now.Add(-time.Minute) })), "not in the future"},
		{"expiry past uint48", grant(key, with(func(s *SessionScope) { s.ValidUntil = time.Unix(1<<48, 0) })), "uint48"},
		{"cap past uint128", grant(key, with(func(s *SessionScope) { s.ValueCap = new(big.Int).Lsh(big.NewInt(1), 128) })), "2^128"},
		{"no cap", grant(key, with(func(s *SessionScope) { s.ValueCap = nil })), "value cap"},
		{"revoke a key never granted", SessionKeyChange{Account: f.dep.Account, Key: key, Revoke: true}, "not a session key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			call, err := PrepareSessionKey(t.Context(), p, c.c, now)
			if !errors.Is(err, ErrSessionKeyChange) || !strings.Contains(err.Error(), c.want) || call != nil {
				t.Errorf("got %v, %v; want an ErrSessionKeyChange saying %q", call, err, c.want)
			}
		})
	}

	// A valid grant is prepared for the EOA owner, and not observed done
	// until the owner sends it.
	call, err := PrepareSessionKey(t.Context(), p, grant(key, scope()), now)
	if err != nil {
		t.Fatal(err)
	}
	if call.Owner != f.d.OperatorAddress() || call.Tx == nil || *call.Tx.To() != f.dep.Account || call.Tx.Value().Sign() != 0 {
		t.Fatalf("prepared %+v", call)
	}
	if _, ok, err := SessionKeyObserved(t.Context(), p, f.dep.Account, call.Data, call.Block); err != nil || ok {
		t.Errorf("observed before the owner sent it: %t %v", ok, err)
	}
	if _, ok, err := SessionKeyObserved(t.Context(), p, f.dep.Account, pack(t, ERC20ABI(), "transfer", key, big.NewInt(1)), call.Block); err == nil || ok {
		t.Errorf("other call data observed: %t %v", ok, err)
	}
	// A grant of another scope by the owner is not this grant.
	other := scope()
	other.ValueCap = big.NewInt(1)
	if err := f.d.GrantSessionKey(t.Context(), f.dep.Account, key, other); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := SessionKeyObserved(t.Context(), p, f.dep.Account, call.Data, call.Block); err != nil || ok {
		t.Errorf("another scope's grant observed as this one: %t %v", ok, err)
	}
	if err := f.d.GrantSessionKey(t.Context(), f.dep.Account, key, scope()); err != nil {
		t.Fatal(err)
	}
	if tx, ok, err := SessionKeyObserved(t.Context(), p, f.dep.Account, call.Data, call.Block); err != nil || !ok || tx == (common.Hash{}) {
		t.Errorf("the owner's grant not observed: %s %t %v", tx.Hex(), ok, err)
	}
}

// TestPrepareSessionKeyContractOwner: an account owned by a contract (a
// Safe, say) gets the call to send its own way and no transaction to
// sign, since no key signs for a contract.
func TestPrepareSessionKeyContractOwner(t *testing.T) {
	f := newAccountFixture(t)
	p := f.d.Provider()
	owner := f.c.WETH // any address with code
	b, err := newBatch(t.Context(), f.d, f.d.operator)
	if err != nil {
		t.Fatal(err)
	}
	b.call("set owner", f.dep.Account, nil, sessionAccountABI(), "setOwner", owner)
	if err := b.run(t.Context()); err != nil {
		t.Fatal(err)
	}
	call, err := PrepareSessionKey(t.Context(), p, SessionKeyChange{Account: f.dep.Account, Key: f.key, Revoke: true}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if call.Owner != owner || call.Tx != nil || len(call.Data) < 4 {
		t.Errorf("prepared %+v, want the call for the contract owner %s and no transaction", call, owner.Hex())
	}
}
