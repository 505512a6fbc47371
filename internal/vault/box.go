package vault

import (
	"crypto/cipher"
	"crypto/rand"
	"fmt"
)

// Box seals records at rest under a key of their own target: a session's
// ledger, say, whose observations (tool outputs the session saw) the store
// keeps encrypted. Its key is HKDF-SHA256 of the master key with salt
// "ward/withheld/v1" and info 0x00 "box" 0x00 target, which no reviewer
// name can produce (reviewer names hold no 0x00), so a Box key is never a
// reviewer's key. A sealed record is nonce || AES-256-GCM ciphertext with
// the target as additional data: a record moved to another target does not
// open. A Box is safe for concurrent use.
type Box struct {
	target string
	aead   cipher.AEAD
}

// Box returns the Box of target (1 to MaxTarget bytes, no 0x00).
func (v *Vault) Box(target string) (*Box, error) {
	if err := checkNames("box", target); err != nil {
		return nil, err
	}
	k, err := v.derive("\x00box", target)
	if err != nil {
		return nil, err
	}
	defer clear(k)
	a, err := gcm(k)
	if err != nil {
		return nil, err
	}
	return &Box{target: target, aead: a}, nil
}

// Seal encrypts plaintext (at most MaxPlaintext bytes, else ErrTooLarge).
func (b *Box) Seal(plaintext []byte) ([]byte, error) {
	if len(plaintext) > MaxPlaintext {
		return nil, ErrTooLarge
	}
	out := make([]byte, nonceSize, nonceSize+len(plaintext)+tagSize)
	rand.Read(out)
	return b.aead.Seal(out, out[:nonceSize], plaintext, []byte(b.target)), nil
}

// Open decrypts a record Seal made for this target; anything else fails
// with an error wrapping ErrTampered.
func (b *Box) Open(sealed []byte) ([]byte, error) {
	if len(sealed) < nonceSize+tagSize {
		return nil, fmt.Errorf("%w: a sealed record of %d bytes", ErrTampered, len(sealed))
	}
	pt, err := b.aead.Open(nil, sealed[:nonceSize], sealed[nonceSize:], []byte(b.target))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTampered, err)
	}
	return pt, nil
}
