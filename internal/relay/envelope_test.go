package relay

import (
	"bytes"
	"crypto/ecdsa"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

func testKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func sealed(t testing.TB, key *ecdsa.PrivateKey, e envelope) []byte {
	t.Helper()
	e.from = crypto.PubkeyToAddress(key.PublicKey)
	wire, _, err := e.seal(key)
	if err != nil {
		t.Fatal(err)
	}
	return wire
}

func good(now time.Time) envelope {
	return envelope{kind: KindVerdict, scope: scopeClade, clade: "tide", seq: 7, time: now, body: []byte("reject")}
}

func TestOpenEnvelope(t *testing.T) {
	key := testKey(t)
	wire := sealed(t, key, good(time.Now()))
	e, id, signer, err := open(wire)
	if err != nil {
		t.Fatalf("open(sealed) = %v", err)
	}
	if signer != crypto.PubkeyToAddress(key.PublicKey) || e.from != signer || e.seq != 7 || !bytes.Equal(e.body, []byte("reject")) || len(id) != 32 {
		t.Fatalf("open(sealed) = %+v, %q, %s", e, id, signer)
	}

	// The malleated twin of the signature: s → N - s, v flipped.
	malleated := bytes.Clone(wire)
	sig := malleated[len(malleated)-sigLen:]
	s := new(big.Int).Sub(crypto.S256().Params().N, new(big.Int).SetBytes(sig[32:64]))
	s.FillBytes(sig[32:64])
	sig[64] ^= 1

	mutate := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(wire)) }
	for name, b := range map[string][]byte{
		"empty":          nil,
		"truncated":      wire[:len(wire)-1],
		"trailing":       append(bytes.Clone(wire), 0),
		"bad magic":      mutate(func(b []byte) []byte { b[0] = 'X'; return b }),
		"bad version":    mutate(func(b []byte) []byte { b[4] = 2; return b }),
		"scope zero":     mutate(func(b []byte) []byte { b[6] = 0; return b }),
		"clade too long": mutate(func(b []byte) []byte { b[7] = 200; return b }),
		"high s":         malleated,
		"bad v":          mutate(func(b []byte) []byte { b[len(b)-1] = 27; return b }),
		"seq zero":       sealed(t, key, func() envelope { e := good(time.Now()); e.seq = 0; return e }()),
		"clade dotted":   sealed(t, key, func() envelope { e := good(time.Now()); e.clade = "a.b"; return e }()),
	} {
		t.Run(name, func(t *testing.T) {
			if _, _, _, err := open(b); err != errMalformed {
				t.Errorf("open = %v, want errMalformed", err)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	key, stranger := testKey(t), testKey(t)
	memberAddr := crypto.PubkeyToAddress(key.PublicKey)
	self := testKey(t)
	r := &Relay{
		cfg: Config{
			Clade: "tide", Key: self, DataDir: t.TempDir(),
			Members: func(a common.Address) bool { return a == memberAddr },
		},
		self: crypto.PubkeyToAddress(self.PublicKey),
		recv: receiverState{Highest: map[common.Address]uint64{memberAddr: 5}},
	}
	if err := r.cfg.validate(); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	with := func(f func(*envelope)) envelope { e := good(now); f(&e); return e }
	const subj = "ward.relay.clade.tide.verdict"
	for _, tc := range []struct {
		name    string
		key     *ecdsa.PrivateKey
		e       envelope
		subject string
		want    Cause
		ok      bool
	}{
		{"accepted", key, good(now), subj, 0, true},
		{"unknown kind", key, with(func(e *envelope) { e.kind = kindEnd }), "ward.relay.clade.tide." + kindEnd.String(), CauseKind, false},
		{"member with body", key, with(func(e *envelope) { e.kind = KindMember }), "ward.relay.clade.tide.member", CauseKind, false},
		{"not a member", stranger, good(now), subj, CauseMember, false},
		{"other subject", key, good(now), "ward.relay.clade.tide.filter", CauseClade, false},
		{"other clade", key, with(func(e *envelope) { e.clade = "reef" }), "ward.relay.clade.reef.verdict", CauseClade, false},
		{"commons not configured", key, with(func(e *envelope) { e.scope = scopeCommons }), "ward.relay.commons.verdict", CauseClade, false},
		{"future", key, with(func(e *envelope) { e.time = now.Add(11 * time.Minute) }), subj, CauseTime, false},
		{"older than retention", key, with(func(e *envelope) { e.time = now.Add(-8 * 24 * time.Hour) }), subj, CauseTime, false},
		{"replay", key, with(func(e *envelope) { e.seq = 5 }), subj, CauseReplay, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg, cause, ok := r.check(tc.subject, sealed(t, tc.key, tc.e))
			if ok != tc.ok || !ok && cause != tc.want {
				t.Fatalf("check = %v, %v; want %v, %v", cause, ok, tc.want, tc.ok)
			}
			if ok && (msg.From != memberAddr || msg.Seq != 7 || msg.Kind != KindVerdict) {
				t.Fatalf("check = %+v", msg)
			}
		})
	}
	if _, cause, _ := r.check(subj, make([]byte, MaxEnvelope+1)); cause != CauseOversized {
		t.Errorf("oversized: cause %v, want %v", cause, CauseOversized)
	}
	r.cfg.Commons = func(a common.Address) bool { return a == memberAddr }
	e := with(func(e *envelope) { e.scope = scopeCommons })
	if msg, cause, ok := r.check("ward.relay.commons.verdict", sealed(t, key, e)); !ok || !msg.Commons {
		t.Errorf("commons: %v %v, want accepted", cause, ok)
	}
}

// FuzzOpen: open never panics, and what it accepts is canonical: the
// decoded fields re-encode to exactly the input.
func FuzzOpen(f *testing.F) {
	key := testKey(f)
	f.Add(sealed(f, key, good(time.Unix(1_800_000_000, 0))))
	f.Add(sealed(f, key, envelope{kind: KindMember, scope: scopeCommons, seq: 1, time: time.Unix(0, 1)}))
	f.Add([]byte("WRLY"))
	f.Fuzz(func(t *testing.T, b []byte) {
		e, _, _, err := open(b)
		if err != nil {
			return
		}
		if got := append(e.signed(), b[len(b)-sigLen:]...); !bytes.Equal(got, b) {
			t.Fatalf("accepted a non-canonical envelope:\n got %x\nwant %x", got, b)
		}
	})
}
