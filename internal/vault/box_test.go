package vault

import (
	"bytes"
	"errors"
	"testing"
)

func TestBox(t *testing.T) {
	v := newVault(bytes.Repeat([]byte{7}, KeySize))
	a, err := v.Box("session-a")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := v.Box("session-b")
	plain := []byte(`{"iban":"DE89370400440532013000"}`)
	sealed, err := a.Seal(plain)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte("DE89")) {
		t.Fatal("the sealed record holds the plaintext")
	}
	again, _ := a.Seal(plain)
	if bytes.Equal(sealed, again) {
		t.Error("two seals of one plaintext are equal: the nonce is not fresh")
	}
	if got, err := a.Open(sealed); err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("Open = %q, %v", got, err)
	}
	// The same target from a fresh Box (a restart) opens it.
	a2, _ := v.Box("session-a")
	if got, err := a2.Open(sealed); err != nil || !bytes.Equal(got, plain) {
		t.Errorf("Open after a restart = %q, %v", got, err)
	}
	flipped := bytes.Clone(sealed)
	flipped[len(flipped)-1] ^= 1
	for name, c := range map[string]struct {
		box *Box
		rec []byte
	}{
		"another target": {b, sealed},
		"flipped bit":    {a, flipped},
		"truncated":      {a, sealed[:10]},
		"another master": {mustBox(t, newVault(bytes.Repeat([]byte{8}, KeySize)), "session-a"), sealed},
	} {
		if _, err := c.box.Open(c.rec); !errors.Is(err, ErrTampered) {
			t.Errorf("%s: %v, want ErrTampered", name, err)
		}
	}
	// A Box key is no reviewer's key: a reviewer named "box" of the same
	// target cannot open a Box record with its key.
	rk, err := v.ReviewerKey("box", "session-a")
	if err != nil {
		t.Fatal(err)
	}
	defer rk.Release()
	var same bool
	rk.Use(func(k []byte) error {
		d, _ := v.derive("\x00box", "session-a")
		same = bytes.Equal(k, d)
		return nil
	})
	if same {
		t.Error("a Box key equals a reviewer's key")
	}
	if _, err := v.Box(""); err == nil {
		t.Error("an empty target was accepted")
	}
	v.Close()
	if _, err := v.Box("x"); !errors.Is(err, ErrClosed) {
		t.Errorf("Box after Close: %v, want ErrClosed", err)
	}
}

func mustBox(t *testing.T, v *Vault, target string) *Box {
	b, err := v.Box(target)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
