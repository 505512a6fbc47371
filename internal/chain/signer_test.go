package chain

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// testKey is a throwaway key (never funded anywhere).
const testKey = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"

func TestLocalSignerRedacts(t *testing.T) {
	s, err := NewLocalSigner("0x" + testKey)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
	if s.Address().Hex() != want {
		t.Fatalf("address = %s, want %s", s.Address().Hex(), want)
	}
	holder := struct {
		Signer *LocalSigner
		Value  LocalSigner
	}{s, *s}
	var outs []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%X", "%q", "%d"} {
		outs = append(outs, fmt.Sprintf(verb, s), fmt.Sprintf(verb, *s), fmt.Sprintf(verb, holder))
	}
	j, err := json.Marshal(holder)
	if err != nil {
		t.Fatal(err)
	}
	outs = append(outs, string(j))
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("signer", "s", s, "v", *s)
	slog.New(slog.NewTextHandler(&logged, nil)).Info("signer", "s", s)
	outs = append(outs, logged.String())

	key := strings.ToLower(testKey)
	keyUpper := strings.ToUpper(testKey)
	keyDec := new(big.Int).SetBytes(common.FromHex(testKey)).String()
	for _, o := range outs {
		for _, secret := range []string{key, keyUpper, keyDec, key[:16], keyUpper[:16]} {
			if strings.Contains(o, secret) {
				t.Errorf("output leaks the key: %s", o)
			}
		}
	}
	if !strings.Contains(outs[0], want) {
		t.Errorf("%%v = %q, want the address", outs[0])
	}
}

func TestLocalSignerSigns(t *testing.T) {
	s, err := NewLocalSigner(testKey)
	if err != nil {
		t.Fatal(err)
	}
	digest := crypto.Keccak256Hash([]byte("hello"))
	sig, err := s.SignHash(t.Context(), digest)
	if err != nil {
		t.Fatal(err)
	}
	if len(sig) != 65 || (sig[64] != 27 && sig[64] != 28) {
		t.Fatalf("signature %x: want 65 bytes with v 27/28", sig)
	}
	rec := bytes.Clone(sig)
	rec[64] -= 27
	pub, err := crypto.SigToPub(digest[:], rec)
	if err != nil || crypto.PubkeyToAddress(*pub) != s.Address() {
		t.Errorf("signature recovers to %v (%v), want %s", pub, err, s.Address())
	}

	to := common.Address{1}
	tx := types.NewTx(&types.DynamicFeeTx{ChainID: big.NewInt(1), Nonce: 3, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(2), Gas: 21000, To: &to, Value: big.NewInt(5)})
	signed, err := s.SignTx(t.Context(), big.NewInt(1), tx)
	if err != nil {
		t.Fatal(err)
	}
	if from, err := types.Sender(types.LatestSignerForChainID(big.NewInt(1)), signed); err != nil || from != s.Address() {
		t.Errorf("tx sender = %s, %v", from, err)
	}
	if _, err := s.SignTx(t.Context(), nil, tx); err == nil {
		t.Error("signing without a chain id succeeded")
	}

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SignHash(t.Context(), digest); !errors.Is(err, ErrSignerClosed) {
		t.Errorf("sign after Close: err = %v, want ErrSignerClosed", err)
	}
	if _, err := s.SignTx(t.Context(), big.NewInt(1), tx); !errors.Is(err, ErrSignerClosed) {
		t.Errorf("sign tx after Close: err = %v", err)
	}
	if s.Close() != nil {
		t.Error("second Close failed")
	}
}

func TestLocalSignerCloseZeroesKey(t *testing.T) {
	s, err := NewLocalSigner(testKey)
	if err != nil {
		t.Fatal(err)
	}
	d := s.k.key.D
	s.Close()
	if d.Sign() != 0 {
		t.Error("key scalar not zero after Close")
	}
	for _, w := range d.Bits()[:cap(d.Bits())] {
		if w != 0 {
			t.Fatal("key words not wiped")
		}
	}
}

func TestLoadLocalSigner(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name, content string
		mode          os.FileMode
		wantErr       string
	}{
		{"ok", testKey + "\n", 0o600, ""},
		{"ok with 0x", "0x" + testKey, 0o400, ""},
		{"group readable", testKey, 0o640, "accessible by group or others"},
		{"world readable", testKey, 0o644, "accessible by group or others"},
		{"short", testKey[:60], 0o600, "64 hex digits"},
		{"not hex", strings.Repeat("z", 64), 0o600, "not hex"},
		{"zero scalar", strings.Repeat("0", 64), 0o600, "not a valid secp256k1 scalar"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := LoadLocalSigner(write(strings.ReplaceAll(tc.name, " ", "_"), tc.content, tc.mode))
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				if s.Address() != common.HexToAddress("0x2c7536E3605D9C16a7a3D7b1898e529396a65c23") {
					t.Errorf("address = %s", s.Address())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("err = %v, want %q", err, tc.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), tc.content) {
				t.Errorf("error echoes the file's content: %v", err)
			}
		})
	}
	if _, err := LoadLocalSigner(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing file accepted")
	}
}
