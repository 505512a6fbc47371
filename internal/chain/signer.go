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
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
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

// LocalSigner is a Signer holding a secp256k1 key in memory. The key is a
// secret: the signer formats, marshals and logs as its address only, and
// Close zeroes the key. It is safe for concurrent use.
type LocalSigner struct {
	addr common.Address
	k    *secretKey
}

// secretKey owns the key material; it is behind a pointer so that copying
// a LocalSigner never copies the key or the lock.
type secretKey struct {
	mu  sync.RWMutex
	key *ecdsa.PrivateKey // nil once closed
}

// NewLocalSigner parses a hex private key (64 hex digits, optional 0x).
// The string cannot be wiped from memory; prefer LoadLocalSigner.
func NewLocalSigner(hexKey string) (*LocalSigner, error) {
	return parseKey([]byte(hexKey))
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

// newLocalSigner takes a 32-byte scalar; the caller wipes raw.
func newLocalSigner(raw []byte) (*LocalSigner, error) {
	key, err := crypto.ToECDSA(raw)
	if err != nil {
		return nil, errors.New("private key: not a valid secp256k1 scalar")
	}
	return &LocalSigner{addr: crypto.PubkeyToAddress(key.PublicKey), k: &secretKey{key: key}}, nil
}

// Address returns the signer's address.
func (s *LocalSigner) Address() common.Address { return s.addr }

func (s *LocalSigner) with(f func(*ecdsa.PrivateKey) error) error {
	if s == nil || s.k == nil {
		return ErrSignerClosed
	}
	s.k.mu.RLock()
	defer s.k.mu.RUnlock()
	if s.k.key == nil {
		return ErrSignerClosed
	}
	return f(s.k.key)
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

// Close zeroes the key; later signing fails with ErrSignerClosed.
func (s *LocalSigner) Close() error {
	if s == nil || s.k == nil {
		return nil
	}
	s.k.mu.Lock()
	defer s.k.mu.Unlock()
	if s.k.key != nil {
		clear(s.k.key.D.Bits())
		s.k.key.D.SetInt64(0)
		s.k.key = nil
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

// Format, GoString and LogValue also cover the key holder in case it is
// reached by reflection.
func (*secretKey) String() string               { return "[redacted]" }
func (k *secretKey) GoString() string           { return k.String() }
func (k *secretKey) Format(f fmt.State, _ rune) { fmt.Fprint(f, k.String()) }
func (*secretKey) LogValue() slog.Value         { return slog.StringValue("[redacted]") }
