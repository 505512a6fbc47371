package chain

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/taint"
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
	// fmt cannot call methods on unexported fields, so it reaches these by
	// reflection.
	hidden := struct {
		signer *LocalSigner
		value  LocalSigner
	}{s, *s}
	outs := map[string]string{}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%X", "%q", "%d"} {
		outs[verb+" pointer"] = fmt.Sprintf(verb, s)
		outs[verb+" value"] = fmt.Sprintf(verb, *s)
		outs[verb+" holder"] = fmt.Sprintf(verb, holder)
		outs[verb+" hidden"] = fmt.Sprintf(verb, hidden)
	}
	j, err := json.Marshal(holder)
	if err != nil {
		t.Fatal(err)
	}
	outs["json"] = string(j)
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("signer", "s", s, "v", *s, "h", hidden)
	slog.New(slog.NewTextHandler(&logged, nil)).Info("signer", "s", s, "h", hidden)
	outs["slog"] = logged.String()
	wrapped := fmt.Errorf("sign with %v (%+v): %w", s, hidden, ErrSignerClosed)
	outs["error"] = wrapped.Error()
	outs["joined error"] = errors.Join(wrapped, fmt.Errorf("%#v", s)).Error()
	outs["error %+v"] = fmt.Sprintf("%+v", wrapped)

	raw := common.FromHex(testKey)
	d := new(big.Int).SetBytes(raw)
	secrets := []string{
		strings.ToLower(testKey), strings.ToUpper(testKey), testKey[:16], strings.ToUpper(testKey[:16]),
		d.String(),
		base64.StdEncoding.EncodeToString(raw), base64.RawURLEncoding.EncodeToString(raw),
		string(raw),
		strings.Trim(fmt.Sprint(raw[:8]), "[]"), // "76 8 131 ..."
		strings.Trim(fmt.Sprintf("%#v", raw[:8]), "[]byte{}"), // "0x4c, 0x8, ..."
	}
	for _, w := range d.Bits() { // the scalar's machine words, as fmt would print a []big.Word
		secrets = append(secrets, fmt.Sprint(uint64(w)), fmt.Sprintf("%x", uint64(w)))
	}
	for name, o := range outs {
		for _, secret := range secrets {
			if strings.Contains(o, secret) {
				t.Errorf("%s leaks the key (%q): %s", name, secret, o)
			}
		}
	}
	if !strings.Contains(outs["%v pointer"], want) {
		t.Errorf("%%v = %q, want the address", outs["%v pointer"])
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

func TestLocalSignerCloseReleasesKey(t *testing.T) {
	s, err := NewLocalSigner(testKey)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.key.Labels(); got != taint.Labels(0).With(taint.WalletSecret) {
		t.Errorf("key labels = %v, want wallet-secret", got)
	}
	if s.key.Len() != 32 {
		t.Errorf("key length = %d, want 32", s.key.Len())
	}
	for _, sink := range []taint.Sink{taint.LLMContext, taint.EventStream, taint.Relay, taint.Audit, taint.Logs} {
		if _, err := s.key.Reveal(sink); !errors.Is(err, taint.ErrForbidden) {
			t.Errorf("Reveal(%v): err = %v, want ErrForbidden", sink, err)
		}
	}
	s.Close()
	if s.key.Len() != 0 {
		t.Error("key not zeroed after Close")
	}
	if err := s.key.Use(func([]byte) error { return nil }); !errors.Is(err, taint.ErrReleased) {
		t.Errorf("Use after Close: err = %v, want ErrReleased", err)
	}
	_, err = s.SignHash(t.Context(), [32]byte{1})
	if !errors.Is(err, ErrSignerClosed) || !strings.Contains(err.Error(), "closed") {
		t.Errorf("sign after Close: err = %v, want a clear ErrSignerClosed", err)
	}
	if _, err := s.SignTypedData(t.Context(), permitTypedData("T", "1", big.NewInt(1), common.Address{1}, s.Address(), common.Address{2}, big.NewInt(1), big.NewInt(0), big.NewInt(1))); !errors.Is(err, ErrSignerClosed) {
		t.Errorf("sign typed data after Close: err = %v, want ErrSignerClosed", err)
	}
	var zero LocalSigner
	if _, err := zero.SignHash(t.Context(), [32]byte{1}); !errors.Is(err, ErrSignerClosed) {
		t.Errorf("zero LocalSigner: err = %v, want ErrSignerClosed", err)
	}
}

// The ecdsa key made for one signature is wiped when the signature is made.
func TestLocalSignerWipesScalarAfterSigning(t *testing.T) {
	s, err := NewLocalSigner(testKey)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var lent *ecdsa.PrivateKey
	err = s.with(func(k *ecdsa.PrivateKey) error {
		lent = k
		if k.D.Sign() == 0 {
			t.Error("lent key is zero while signing")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if lent.D.Sign() != 0 {
		t.Error("scalar not zero after signing")
	}
	for _, w := range lent.D.Bits()[:cap(lent.D.Bits())] {
		if w != 0 {
			t.Fatal("scalar words not wiped after signing")
		}
	}
	// The key is still usable for the next signature.
	if _, err := s.SignHash(t.Context(), [32]byte{1}); err != nil {
		t.Errorf("second signature: %v", err)
	}
}

// LocalSigner keeps no key material outside its taint.String.
func TestLocalSignerHoldsKeyOnlyAsTaintString(t *testing.T) {
	secretTypes := map[reflect.Type]bool{
		reflect.TypeFor[*ecdsa.PrivateKey](): true,
		reflect.TypeFor[ecdsa.PrivateKey]():  true,
		reflect.TypeFor[*big.Int]():          true,
		reflect.TypeFor[[]byte]():            true,
		reflect.TypeFor[string]():            true,
		reflect.TypeFor[[32]byte]():          true,
	}
	typ := reflect.TypeFor[LocalSigner]()
	for i := range typ.NumField() {
		if f := typ.Field(i); secretTypes[f.Type] {
			t.Errorf("LocalSigner.%s has type %v, which could hold the key outside a taint.String", f.Name, f.Type)
		}
	}
}

// Signing while another goroutine closes the signer either signs with the
// key or fails with ErrSignerClosed: never a zero or torn key.
func TestLocalSignerCloseDuringSigning(t *testing.T) {
	s, err := NewLocalSigner(testKey)
	if err != nil {
		t.Fatal(err)
	}
	digest := crypto.Keccak256Hash([]byte("race"))
	var wg sync.WaitGroup
	errs := make(chan error, 8*20)
	for range 8 {
		wg.Go(func() {
			for range 20 {
				sig, err := s.SignHash(t.Context(), digest)
				if errors.Is(err, ErrSignerClosed) {
					continue
				}
				if err != nil {
					errs <- err
					continue
				}
				sig[64] -= 27
				pub, err := crypto.SigToPub(digest[:], sig)
				if err != nil || crypto.PubkeyToAddress(*pub) != s.Address() {
					errs <- fmt.Errorf("signature recovers to %v (%v), want %s", pub, err, s.Address())
				}
			}
		})
	}
	s.Close()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
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

// BenchmarkSign measures one SignHash, including materialising the key.
func BenchmarkSign(b *testing.B) {
	s, err := NewLocalSigner(testKey)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	digest := crypto.Keccak256Hash([]byte("hello"))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.SignHash(b.Context(), digest); err != nil {
			b.Fatal(err)
		}
	}
}
