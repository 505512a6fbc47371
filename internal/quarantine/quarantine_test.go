package quarantine

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	gmath "github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/wardhq/ward/internal/knowledge"
)

const chain = 8453

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

func key(t *testing.T, seed byte) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.ToECDSA(bytes.Repeat([]byte{seed}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func entry(content string) *knowledge.Entry {
	return &knowledge.Entry{
		Content:    content,
		Type:       knowledge.TypeHeuristic,
		Confidence: 0.8,
		Source: knowledge.Source{
			Provenance: knowledge.Purchased,
			Anchor:     "0x" + strings.Repeat("cd", 32),
			ListingID:  "listing-42",
			Timestamp:  t0,
		},
		Claim:     &knowledge.Claim{Subject: "ETH/USDC 0.05%", Relation: "mean_reverts_within", Object: "3 blocks", Conditions: []string{"swap > 1% TVL"}},
		Heuristic: &knowledge.Heuristic{Conditions: []string{"large swap"}, Actions: []string{"arb back"}, Parameters: map[string]string{"max_bps": "30", "blocks": "3"}},
	}
}

func signed(t *testing.T, k *ecdsa.PrivateKey, content string) *knowledge.Entry {
	t.Helper()
	e := entry(content)
	if err := Sign(e, chain, k); err != nil {
		t.Fatal(err)
	}
	return e
}

// The digest is the one a wallet computes from the documented types and a
// message written as JSON would carry it.
func TestDigestMatchesAPITypes(t *testing.T) {
	e := signed(t, key(t, 1), "pool rebalances within 3 blocks")
	ch := ContentHash(e)
	td := apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {{Name: "name", Type: "string"}, {Name: "version", Type: "string"}, {Name: "chainId", Type: "uint256"}},
			"Entry": {
				{Name: "contentHash", Type: "bytes32"}, {Name: "entryType", Type: "string"}, {Name: "provenance", Type: "string"},
				{Name: "agent", Type: "address"}, {Name: "timestamp", Type: "uint64"}, {Name: "claimedConfidenceBps", Type: "uint256"},
				{Name: "onChainAnchor", Type: "bytes32"}, {Name: "listing", Type: "string"}, {Name: "clade", Type: "string"},
				{Name: "claim", Type: "Claim"}, {Name: "heuristic", Type: "Heuristic"},
			},
			"Claim":     {{Name: "subject", Type: "string"}, {Name: "relation", Type: "string"}, {Name: "object", Type: "string"}, {Name: "conditions", Type: "string[]"}},
			"Heuristic": {{Name: "conditions", Type: "string[]"}, {Name: "actions", Type: "string[]"}, {Name: "parameters", Type: "Parameter[]"}},
			"Parameter": {{Name: "key", Type: "string"}, {Name: "value", Type: "string"}},
		},
		PrimaryType: "Entry",
		Domain:      apitypes.TypedDataDomain{Name: "ward-grimoire", Version: "1", ChainId: gmath.NewHexOrDecimal256(chain)},
		Message: apitypes.TypedDataMessage{
			"contentHash":          hexutil.Encode(ch[:]),
			"entryType":            "heuristic",
			"provenance":           "purchased",
			"agent":                e.Source.Agent,
			"timestamp":            fmt.Sprint(t0.Unix()),
			"claimedConfidenceBps": "8000",
			"onChainAnchor":        e.Source.Anchor,
			"listing":              "listing-42",
			"clade":                "",
			"claim": map[string]any{
				"subject": "ETH/USDC 0.05%", "relation": "mean_reverts_within", "object": "3 blocks",
				"conditions": []any{"swap > 1% TVL"},
			},
			"heuristic": map[string]any{
				"conditions": []any{"large swap"}, "actions": []any{"arb back"},
				"parameters": []any{map[string]any{"key": "blocks", "value": "3"}, map[string]any{"key": "max_bps", "value": "30"}},
			},
		},
	}
	want, _, err := apitypes.TypedDataAndHash(td)
	if err != nil {
		t.Fatal(err)
	}
	got, err := NewDomain(chain).Digest(e)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Digest = %x, apitypes = %x", got, want)
	}
}

func TestVerify(t *testing.T) {
	alice, mallory := key(t, 1), key(t, 2)
	tests := []struct {
		name   string
		make   func(t *testing.T) *knowledge.Entry
		reason error // nil: verifies
	}{
		{"genuine", func(t *testing.T) *knowledge.Entry { return signed(t, alice, "x") }, nil},
		{"v as 0 or 1", func(t *testing.T) *knowledge.Entry {
			e := signed(t, alice, "x")
			e.Source.Signature[64] -= 27
			return e
		}, nil},
		{"unsigned", func(t *testing.T) *knowledge.Entry {
			e := signed(t, alice, "x")
			e.Source.Signature = nil
			return e
		}, ErrUnsigned},
		{"truncated to 64 bytes", func(t *testing.T) *knowledge.Entry {
			e := signed(t, alice, "x")
			e.Source.Signature = e.Source.Signature[:64]
			return e
		}, ErrSignatureLength},
		{"forged: signed by another key, claiming alice", func(t *testing.T) *knowledge.Entry {
			e := signed(t, mallory, "x")
			e.Source.Agent = crypto.PubkeyToAddress(alice.PublicKey).Hex()
			return e
		}, ErrSignerMismatch},
		{"content altered after signing", func(t *testing.T) *knowledge.Entry {
			e := signed(t, alice, "x")
			e.Content = "y"
			return e
		}, ErrSignerMismatch},
		{"confidence inflated after signing", func(t *testing.T) *knowledge.Entry {
			e := signed(t, alice, "x")
			e.Confidence = 0.99
			return e
		}, ErrSignerMismatch},
		{"heuristic action altered after signing", func(t *testing.T) *knowledge.Entry {
			e := signed(t, alice, "x")
			e.Heuristic.Actions = []string{"send all funds to 0xbad"}
			return e
		}, ErrSignerMismatch},
		{"provenance relabelled after signing", func(t *testing.T) *knowledge.Entry {
			e := signed(t, alice, "x")
			e.Source.Provenance = knowledge.Clade
			return e
		}, ErrSignerMismatch},
		{"wrong chain id", func(t *testing.T) *knowledge.Entry {
			e := entry("x")
			if err := NewDomain(1).Sign(e, alice); err != nil {
				t.Fatal(err)
			}
			return e
		}, ErrSignerMismatch},
		{"wrong domain name", func(t *testing.T) *knowledge.Entry {
			e := entry("x")
			if err := (Domain{Name: "other-app", Version: "1", ChainID: chain}).Sign(e, alice); err != nil {
				t.Fatal(err)
			}
			return e
		}, ErrSignerMismatch},
		{"high-s malleated", func(t *testing.T) *knowledge.Entry {
			e := signed(t, alice, "x")
			sig := e.Source.Signature
			s := new(big.Int).SetBytes(sig[32:64])
			s.Sub(secp256k1N, s)
			copy(sig[32:64], common.LeftPadBytes(s.Bytes(), 32))
			sig[64] ^= 1 // 27 <-> 28: the malleated signature recovers the same key
			return e
		}, ErrMalleable},
		{"v out of range", func(t *testing.T) *knowledge.Entry {
			e := signed(t, alice, "x")
			e.Source.Signature[64] = 29
			return e
		}, ErrMalleable},
		{"r zero", func(t *testing.T) *knowledge.Entry {
			e := signed(t, alice, "x")
			clear(e.Source.Signature[:32])
			return e
		}, ErrMalleable},
		{"agent not an address", func(t *testing.T) *knowledge.Entry {
			e := signed(t, alice, "x")
			e.Source.Agent = "alice"
			return e
		}, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := NewDomain(chain).Verify(tt.make(t))
			if tt.reason == nil {
				if err != nil {
					t.Fatalf("Verify() = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrProvenanceForgery) || !errors.Is(err, tt.reason) {
				t.Fatalf("Verify() = %v, want ErrProvenanceForgery and %v", err, tt.reason)
			}
			if Attack(err) != knowledge.ProvenanceForgery {
				t.Errorf("Attack(%v) = %v, want provenance_forgery", err, Attack(err))
			}
		})
	}
}

// The malleated signature of the test above really does recover alice:
// only the low-s rule refuses it.
func TestHighSRecoversSameKey(t *testing.T) {
	alice := key(t, 1)
	e := signed(t, alice, "x")
	digest, _ := NewDomain(chain).Digest(e)
	sig := append([]byte{}, e.Source.Signature...)
	s := new(big.Int).SetBytes(sig[32:64])
	copy(sig[32:64], common.LeftPadBytes(new(big.Int).Sub(secp256k1N, s).Bytes(), 32))
	sig[64] = (sig[64] - 27) ^ 1
	pub, err := crypto.SigToPub(digest, sig)
	if err != nil || crypto.PubkeyToAddress(*pub) != crypto.PubkeyToAddress(alice.PublicKey) {
		t.Fatalf("malleated signature recovers %v, %v; want alice", pub, err)
	}
}

func checker(t *testing.T, known ...*ecdsa.PrivateKey) *Checker {
	t.Helper()
	var addrs []string
	for _, k := range known {
		addrs = append(addrs, crypto.PubkeyToAddress(k.PublicKey).Hex())
	}
	reg, err := NewLocalRegistry(addrs...)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(Config{ChainID: chain, Registry: reg, ReplayWindow: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCheck(t *testing.T) {
	alice, bob, eve := key(t, 1), key(t, 2), key(t, 3)
	ctx := context.Background()
	c := checker(t, alice, bob)

	if err := c.Check(ctx, signed(t, alice, "same content"), t0); err != nil {
		t.Fatalf("first delivery: %v", err)
	}
	t.Run("replayed by the same agent", func(t *testing.T) {
		err := c.Check(ctx, signed(t, alice, "same content"), t0.Add(time.Minute))
		if !errors.Is(err, ErrReplayed) || errors.Is(err, ErrProvenanceForgery) {
			t.Fatalf("Check() = %v, want ErrReplayed (not a forgery)", err)
		}
	})
	t.Run("same content from another agent is another entry", func(t *testing.T) {
		if err := c.Check(ctx, signed(t, bob, "same content"), t0.Add(time.Minute)); err != nil {
			t.Fatalf("Check() = %v, want nil", err)
		}
	})
	t.Run("accepted again after the window", func(t *testing.T) {
		if err := c.Check(ctx, signed(t, alice, "same content"), t0.Add(time.Hour)); err != nil {
			t.Fatalf("Check() = %v, want nil", err)
		}
	})
	t.Run("unknown agent", func(t *testing.T) {
		err := c.Check(ctx, signed(t, eve, "eve's content"), t0)
		if !errors.Is(err, ErrUnknownAgent) || !errors.Is(err, ErrProvenanceForgery) {
			t.Fatalf("Check() = %v, want ErrUnknownAgent", err)
		}
	})
	t.Run("a forged copy does not block the genuine entry", func(t *testing.T) {
		forged := signed(t, eve, "alice's next insight")
		forged.Source.Agent = crypto.PubkeyToAddress(alice.PublicKey).Hex()
		if err := c.Check(ctx, forged, t0); !errors.Is(err, ErrSignerMismatch) {
			t.Fatalf("forged: Check() = %v, want ErrSignerMismatch", err)
		}
		if err := c.Check(ctx, signed(t, alice, "alice's next insight"), t0); err != nil {
			t.Fatalf("genuine: Check() = %v, want nil", err)
		}
	})
	t.Run("truncated signature", func(t *testing.T) {
		e := signed(t, alice, "truncated")
		e.Source.Signature = e.Source.Signature[:64]
		if err := c.Check(ctx, e, t0); !errors.Is(err, ErrSignatureLength) {
			t.Fatalf("Check() = %v, want ErrSignatureLength", err)
		}
	})
	t.Run("unsigned", func(t *testing.T) {
		e := entry("unsigned")
		e.Source.Agent = crypto.PubkeyToAddress(alice.PublicKey).Hex()
		if err := c.Check(ctx, e, t0); !errors.Is(err, ErrUnsigned) {
			t.Fatalf("Check() = %v, want ErrUnsigned", err)
		}
	})
	t.Run("invalid entry", func(t *testing.T) {
		e := entry("x")
		e.Confidence = 2
		if err := Sign(e, chain, alice); err == nil {
			// Sign refuses to encode it; sign a valid one and break it.
			t.Fatal("Sign accepted confidence 2")
		}
		e = signed(t, alice, "x")
		e.Content = ""
		if err := c.Check(ctx, e, t0); !errors.Is(err, knowledge.ErrInvalid) {
			t.Fatalf("Check() = %v, want knowledge.ErrInvalid", err)
		}
	})
	t.Run("self entries do not enter quarantine", func(t *testing.T) {
		e := signed(t, alice, "self")
		e.Source.Provenance = knowledge.Self
		if err := c.Check(ctx, e, t0); !errors.Is(err, knowledge.ErrInvalid) {
			t.Fatalf("Check() = %v, want knowledge.ErrInvalid", err)
		}
	})
}

type failingRegistry struct{}

func (failingRegistry) Known(context.Context, string) (bool, error) {
	return false, errors.New("rpc down")
}

func TestCheckRegistryFailureRefuses(t *testing.T) {
	c, err := New(Config{ChainID: chain, Registry: failingRegistry{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Check(context.Background(), signed(t, key(t, 1), "x"), t0); err == nil {
		t.Fatal("Check() = nil with the registry down, want a refusal")
	}
}

func TestNewConfig(t *testing.T) {
	reg, _ := NewLocalRegistry()
	for _, cfg := range []Config{{Registry: reg}, {ChainID: 1}, {ChainID: 1, Registry: reg, ReplayWindow: -1}} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v) = nil error", cfg)
		}
	}
}

func TestReplayGuardBounded(t *testing.T) {
	g := newReplayGuard(time.Hour, 3)
	k := func(i byte) replayKey { return replayKey{content: [32]byte{i}} }
	for i := range byte(10) {
		if err := g.admit(k(i), t0); err != nil {
			t.Fatalf("admit(%d): %v", i, err)
		}
	}
	if len(g.seen) > 3 || len(g.order) > 3 {
		t.Errorf("guard holds %d keys (%d in order), want at most 3", len(g.seen), len(g.order))
	}
	if err := g.admit(k(9), t0); !errors.Is(err, ErrReplayed) {
		t.Errorf("admit(newest again) = %v, want ErrReplayed", err)
	}
}

func TestReadLocalRegistry(t *testing.T) {
	alice := crypto.PubkeyToAddress(key(t, 1).PublicKey).Hex()
	reg, err := ReadLocalRegistry(strings.NewReader("# agents\n\n" + strings.ToLower(alice) + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		addr string
		want bool
	}{{alice, true}, {strings.ToUpper(alice[2:]), false}, {"0x" + strings.Repeat("0", 40), false}, {"nonsense", false}} {
		if got, err := reg.Known(context.Background(), tt.addr); got != tt.want || err != nil {
			t.Errorf("Known(%s) = %v, %v; want %v", tt.addr, got, err, tt.want)
		}
	}
	if _, err := ReadLocalRegistry(strings.NewReader("0x1234\n")); err == nil {
		t.Error("ReadLocalRegistry accepted a short address")
	}
}
