package chain

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"os"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/wardhq/ward/internal/taint"
)

// Signer signs transactions and EIP-712 data for one address. A local key,
// a remote signer or a hardware wallet implement it.
type Signer interface {
	Address() common.Address
	// SignTx returns tx signed for chainID (EIP-155 and later tx types).
	SignTx(ctx context.Context, chainID *big.Int, tx *types.Transaction) (*types.Transaction, error)
	// SignHash signs a 32-byte digest and returns r ‖ s ‖ v (65 bytes,
	// v = 27 or 28).
	SignHash(ctx context.Context, digest [32]byte) ([]byte, error)
	// SignTypedData signs EIP-712 typed data (r ‖ s ‖ v as SignHash).
	SignTypedData(ctx context.Context, data apitypes.TypedData) ([]byte, error)
}

var _ Signer = (*LocalSigner)(nil)

// ErrSignerClosed is returned by a LocalSigner used after Close.
var ErrSignerClosed = errors.New("signer: closed")

// LocalSigner is a Signer holding a secp256k1 key in memory. The 32-byte
// scalar is held only as a *taint.String labelled taint.WalletSecret; an
// *ecdsa.PrivateKey exists only for the duration of one signature, and its
// scalar is zeroed when the signature is made. The signer formats, marshals
// and logs as its address only, and Close releases (zeroes) the key. It is
// safe for concurrent use. A copy of a LocalSigner shares its key: closing
// either closes both.
type LocalSigner struct {
	addr common.Address
	pub  *ecdsa.PublicKey
	key  *taint.String
}

// NewLocalSigner parses a hex private key (64 hex digits, optional 0x).
// The string cannot be wiped from memory; prefer LoadLocalSigner.
func NewLocalSigner(hexKey string) (*LocalSigner, error) {
	b := []byte(hexKey)
	defer clear(b)
	return parseKey(b)
}

// LoadLocalSigner reads a hex private key from the file at path. The file
// must not be readable by group or others (like an SSH key); the bytes
// read are wiped after parsing.
func LoadLocalSigner(path string) (*LocalSigner, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("load signer: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("load signer: %s is accessible by group or others (mode %v); chmod 600 it", path, fi.Mode().Perm())
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("load signer: %s is not a regular file", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load signer: %w", err)
	}
	defer clear(b)
	s, err := parseKey(b)
	if err != nil {
		return nil, fmt.Errorf("load signer %s: %w", path, err)
	}
	return s, nil
}

func parseKey(text []byte) (*LocalSigner, error) {
	t := bytes.TrimSpace(text)
	if len(t) >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') {
		t = t[2:]
	}
	if len(t) != 64 {
		return nil, errors.New("private key: want 64 hex digits")
	}
	raw := make([]byte, 32)
	defer clear(raw)
	if _, err := hex.Decode(raw, t); err != nil {
		return nil, errors.New("private key: not hex")
	}
	return newLocalSigner(raw)
}

// newLocalSigner takes a 32-byte scalar and keeps its own copy as a
// taint.String; the caller wipes raw.
func newLocalSigner(raw []byte) (*LocalSigner, error) {
	key, err := crypto.ToECDSA(raw)
	if err != nil {
		return nil, errors.New("private key: not a valid secp256k1 scalar")
	}
	wipe(key.D)
	pub := key.PublicKey
	return &LocalSigner{
		addr: crypto.PubkeyToAddress(pub),
		pub:  &pub,
		key:  taint.FromBytes(bytes.Clone(raw), taint.WalletSecret),
	}, nil
}

// wipe zeroes a scalar: the words of its backing array, up to its
// capacity, then the value itself (SetInt64(0) keeps the zeroed array).
func wipe(d *big.Int) {
	w := d.Bits()
	clear(w[:cap(w)])
	d.SetInt64(0)
}

// Address returns the signer's address.
func (s *LocalSigner) Address() common.Address { return s.addr }

// with lends f a private key made from the taint.String for one signature.
// f must not retain the key: its scalar is wiped when f returns. It fails
// with ErrSignerClosed once the key is released.
func (s *LocalSigner) with(f func(*ecdsa.PrivateKey) error) error {
	if s == nil || s.pub == nil {
		return ErrSignerClosed
	}
	err := s.key.Use(func(b []byte) error {
		k := &ecdsa.PrivateKey{PublicKey: *s.pub, D: new(big.Int).SetBytes(b)}
		defer wipe(k.D)
		return f(k)
	})
	if errors.Is(err, taint.ErrReleased) {
		return ErrSignerClosed
	}
	return err
}

// SignTx signs tx for chainID with the latest signer rules.
func (s *LocalSigner) SignTx(_ context.Context, chainID *big.Int, tx *types.Transaction) (*types.Transaction, error) {
	if chainID == nil || chainID.Sign() <= 0 {
		return nil, errors.New("sign tx: chain id required")
	}
	var out *types.Transaction
	err := s.with(func(k *ecdsa.PrivateKey) (err error) {
		out, err = types.SignTx(tx, types.LatestSignerForChainID(chainID), k)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sign tx: %w", err)
	}
	return out, nil
}

// SignHash signs digest and returns r ‖ s ‖ v with v = 27 or 28.
func (s *LocalSigner) SignHash(_ context.Context, digest [32]byte) ([]byte, error) {
	var sig []byte
	err := s.with(func(k *ecdsa.PrivateKey) (err error) {
		sig, err = crypto.Sign(digest[:], k)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sign hash: %w", err)
	}
	sig[64] += 27
	return sig, nil
}

// SignTypedData hashes data per EIP-712 and signs the digest.
func (s *LocalSigner) SignTypedData(ctx context.Context, data apitypes.TypedData) ([]byte, error) {
	h, _, err := apitypes.TypedDataAndHash(data)
	if err != nil {
		return nil, fmt.Errorf("sign typed data: %w", err)
	}
	return s.SignHash(ctx, [32]byte(h))
}

// Close releases the key, zeroing it once signatures in progress finish;
// later signing fails with ErrSignerClosed. It is idempotent and always
// returns nil.
func (s *LocalSigner) Close() error {
	if s != nil {
		s.key.Release()
	}
	return nil
}

// String returns the signer's address, never the key.
func (s LocalSigner) String() string { return "LocalSigner(" + s.addr.Hex() + ")" }

// GoString is String: %#v shows no key.
func (s LocalSigner) GoString() string { return s.String() }

// Format prints String for every verb, so no verb reaches the key.
func (s LocalSigner) Format(f fmt.State, _ rune) { fmt.Fprint(f, s.String()) }

// MarshalJSON writes the address only.
func (s LocalSigner) MarshalJSON() ([]byte, error) {
	return []byte(`{"address":"` + s.addr.Hex() + `"}`), nil
}

// LogValue logs the address only.
func (s LocalSigner) LogValue() slog.Value {
	return slog.GroupValue(slog.String("address", s.addr.Hex()))
}
