package daemon

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/quarantine"
	"github.com/wardhq/ward/internal/relay"
)

// The relay between clade members. With [relay] configured, ward serve
// connects to NATS (or starts an embedded server), and its ingestion
// pipeline publishes what it learns (filters of known-bad content, immune
// signatures, its verdicts on shared entries and its reports about
// sources) and applies what the other members publish: every message is
// signed by its sender's member key and counted only if the sender is a
// member of the operator's clade ([[grimoire.members]]).

// openRelay opens the relay [relay] configures for the member whose key
// is rc.KeyFile, with dir for its durable state. The caller closes it.
func openRelay(ctx context.Context, rc config.Relay, clade string, reg *quarantine.LocalRegistry, dir string) (*relay.Relay, common.Address, error) {
	key, err := loadMemberKey(rc.KeyFile)
	if err != nil {
		return nil, common.Address{}, fmt.Errorf("relay.key_file: %w", err)
	}
	self := crypto.PubkeyToAddress(key.PublicKey)
	member := func(a common.Address) bool {
		m, ok := reg.Member(a.Hex())
		return ok && m.Clade == clade
	}
	if !member(self) {
		return nil, common.Address{}, fmt.Errorf("relay.key_file: %s is not a member of clade %q ([[grimoire.members]])", self.Hex(), clade)
	}
	cfg := relay.Config{
		URLs: rc.URLs, Credentials: rc.Credentials, Clade: clade, Key: key, Members: member,
		DataDir: dir, MaxAge: rc.MaxAge, MaxBytes: rc.MaxBytes, Replicas: rc.Replicas,
	}
	if len(rc.URLs) == 0 {
		cfg.Listen = rc.Listen
	}
	cfg.TLS.CA, cfg.TLS.Cert, cfg.TLS.Key = rc.TLSCA, rc.TLSCert, rc.TLSKey
	r, err := relay.Open(ctx, cfg)
	if err != nil {
		return nil, common.Address{}, fmt.Errorf("relay: %w", err)
	}
	return r, self, nil
}

// loadMemberKey reads a hex secp256k1 key from a file no one but its owner
// may read.
func loadMemberKey(path string) (*ecdsa.PrivateKey, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s is accessible by group or others (mode %v); chmod 600 it", path, fi.Mode().Perm())
	}
	k, err := crypto.LoadECDSA(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// relayDir is where a data directory keeps the relay's state.
func relayDir(data string) string { return filepath.Join(data, "relay") }
