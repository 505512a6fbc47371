package token

import (
	"bytes"
	"encoding/json"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

func TestPermitDigestAndRecover(t *testing.T) {
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("catalog permit test")))
	if err != nil {
		t.Fatal(err)
	}
	owner := crypto.PubkeyToAddress(key.PublicKey)
	var sep [32]byte
	copy(sep[:], crypto.Keccak256([]byte("domain")))
	spender := common.HexToAddress("0x1111111111111111111111111111111111111111")
	digest := permitDigest(sep, owner, spender, big.NewInt(5), big.NewInt(0), big.NewInt(1<<40))
	sig, err := crypto.Sign(digest, key) // v is 0 or 1
	if err != nil {
		t.Fatal(err)
	}
	sig27 := bytes.Clone(sig)
	sig27[64] += 27
	for _, c := range []struct {
		name    string
		digest  []byte
		sig     []byte
		want    common.Address
		wantErr bool
		differs bool
	}{
		{"v 0/1", digest, sig, owner, false, false},
		{"v 27/28", digest, sig27, owner, false, false},
		{"other digest", permitDigest(sep, owner, spender, big.NewInt(6), big.NewInt(0), big.NewInt(1<<40)), sig27, owner, false, true},
		{"short", digest, sig[:64], common.Address{}, true, false},
		{"bad v", digest, append(bytes.Clone(sig[:64]), 29), common.Address{}, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := recoverSigner(c.digest, c.sig)
			switch {
			case c.wantErr:
				if err == nil {
					t.Errorf("recovered %s, want an error", got)
				}
			case err != nil:
				t.Errorf("recover: %v", err)
			case (got == c.want) == c.differs:
				t.Errorf("recovered %s, owner %s, want differs=%v", got, c.want, c.differs)
			}
		})
	}
	// The digest is EIP-712's: keccak(0x1901 ‖ separator ‖ struct hash).
	structHash := crypto.Keccak256(permitTypeHash, common.LeftPadBytes(owner[:], 32), common.LeftPadBytes(spender[:], 32),
		common.LeftPadBytes([]byte{5}, 32), make([]byte, 32), common.LeftPadBytes(big.NewInt(1<<40).Bytes(), 32))
	if want := crypto.Keccak256([]byte{0x19, 0x01}, sep[:], structHash); !bytes.Equal(digest, want) {
		t.Errorf("digest %x, want %x", digest, want)
	}
}

func FuzzRecoverSigner(f *testing.F) {
	f.Add(make([]byte, 32), make([]byte, 65))
	f.Add(bytes.Repeat([]byte{0xff}, 32), bytes.Repeat([]byte{0xff}, 65))
	f.Fuzz(func(t *testing.T, digest, sig []byte) {
		if len(digest) != 32 {
			return
		}
		_, _ = recoverSigner(digest, sig) // must not panic
	})
}

func testInput(t *testing.T, args string) *registry.Input {
	t.Helper()
	a, err := tool.ParseArgs([]byte(args))
	if err != nil {
		t.Fatal(err)
	}
	return &registry.Input{Args: a, Raw: json.RawMessage(args), Now: time.Now(), Step: func(int) {}}
}

func TestPermitDeadline(t *testing.T) {
	const block = 1_000_000
	for _, c := range []struct {
		args    string
		want    int64
		wantErr bool
	}{
		{`{}`, block + 3600, false},
		{`{"valid_for_seconds":60}`, block + 60, false},
		{`{"deadline":"1000500"}`, 1_000_500, false},
		{`{"deadline":"1000000"}`, 0, true},
		{`{"deadline":"999999"}`, 0, true},
		{`{"deadline":"3592001"}`, 0, true},
		{`{"deadline":"1000500","valid_for_seconds":60}`, 0, true},
	} {
		t.Run(c.args, func(t *testing.T) {
			got, err := permitDeadline(testInput(t, c.args), block)
			if c.wantErr {
				if err == nil {
					t.Errorf("deadline %s, want an error", got)
				}
				return
			}
			if err != nil || got.Int64() != c.want {
				t.Errorf("deadline %v, %v; want %d", got, err, c.want)
			}
		})
	}
}
