package relay_test

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/relay"
)

func TestOpenRefusesBadConfig(t *testing.T) {
	k := key(t)
	p256, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	members := func(common.Address) bool { return true }
	ok := func() relay.Config {
		return relay.Config{Clade: "tide", Key: k, Members: members, DataDir: t.TempDir(), MaxBytes: 64 << 20}
	}
	for _, tc := range []struct {
		name string
		edit func(*relay.Config)
		want string
	}{
		{"zero", func(c *relay.Config) { *c = relay.Config{} }, "clade"},
		{"dotted clade", func(c *relay.Config) { c.Clade = "a.b" }, "clade"},
		{"wildcard clade", func(c *relay.Config) { c.Clade = ">" }, "clade"},
		{"no key", func(c *relay.Config) { c.Key = nil }, "key"},
		{"key without scalar", func(c *relay.Config) { c.Key = p256; c.Key.D = nil }, "key"},
		{"no members", func(c *relay.Config) { c.Members = nil }, "members"},
		{"no data dir", func(c *relay.Config) { c.DataDir = "" }, "data dir"},
		{"cert without key", func(c *relay.Config) { c.TLS.Cert = "c.pem" }, "tls"},
		{"negative age", func(c *relay.Config) { c.MaxAge = -1 }, "negative"},
		{"six replicas", func(c *relay.Config) { c.Replicas = 6 }, "replicas"},
		{"public listen", func(c *relay.Config) { c.Listen = "0.0.0.0:0" }, "loopback"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := ok()
			tc.edit(&cfg)
			r, err := relay.Open(t.Context(), cfg)
			if err == nil {
				r.Close()
				t.Fatal("Open succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Open = %v, want an error about %s", err, tc.want)
			}
		})
	}
}

// TestEmbedded: with no URLs, Open runs its own loopback server and the
// relay publishes to it; the sender's sequence state survives a restart.
func TestEmbedded(t *testing.T) {
	cfg := relay.Config{Clade: "tide", Key: key(t), Members: func(common.Address) bool { return true }, DataDir: t.TempDir(), MaxBytes: 64 << 20}
	for range 2 {
		r, err := relay.Open(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Publish(t.Context(), relay.KindFilter, []byte{1, 2, 3}); err != nil {
			t.Fatal(err)
		}
		if err := r.Publish(t.Context(), relay.KindMember, []byte("x")); err == nil {
			t.Error("a member announcement with a body was published")
		}
		if err := r.Publish(t.Context(), relay.Kind(0), nil); err == nil {
			t.Error("an invalid kind was published")
		}
		if err := r.Publish(t.Context(), relay.KindEntry, make([]byte, relay.MaxBody+1)); err == nil {
			t.Error("an oversized body was published")
		}
		if got := r.Stats().Published; got != 1 {
			t.Errorf("Published = %d, want 1", got)
		}
		r.Close()
	}
}

// TestStorageTheServerCannotReserve: a stream larger than the server can
// reserve is refused with an error that names max_bytes and the remedy,
// not only JetStream's error code.
func TestStorageTheServerCannotReserve(t *testing.T) {
	cfg := relay.Config{Clade: "tide", Key: key(t), Members: func(common.Address) bool { return true }, DataDir: t.TempDir(), MaxBytes: 1 << 50}
	r, err := relay.Open(t.Context(), cfg)
	if err == nil {
		r.Close()
		t.Fatal("a 1 PiB stream was created")
	}
	if !strings.Contains(err.Error(), "cannot reserve max_bytes = 1125899906842624") || !strings.Contains(err.Error(), "lower [relay] max_bytes") {
		t.Errorf("error = %v, want one naming max_bytes and the remedy", err)
	}
}
