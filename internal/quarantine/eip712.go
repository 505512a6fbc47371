// Package quarantine is Stage 1 of knowledge ingestion: cryptographic
// provenance. An external entry is admitted to the quarantine store only if
// its EIP-712 signature recovers to the agent it names, that agent is known
// to the identity registry, and the same agent has not delivered the same
// content within the replay window. Unsigned entries are rejected.
//
// The typed data signed is the whole entry except its supplied embedding
// (which Stage 2 treats as untrusted and checks against the content):
//
//	EIP712Domain(string name,string version,uint256 chainId)
//	Entry(bytes32 contentHash,string entryType,string provenance,address agent,
//	      uint64 timestamp,uint256 claimedConfidenceBps,bytes32 onChainAnchor,
//	      string listing,string clade,Claim claim,Heuristic heuristic)
//	Claim(string subject,string relation,string object,string[] conditions)
//	Heuristic(string[] conditions,string[] actions,Parameter[] parameters)
//	Parameter(string key,string value)
//
// contentHash is keccak256 of the content's UTF-8 bytes, timestamp is in
// Unix seconds, the confidence is rounded to basis points, an absent
// anchor is zero, an absent claim or heuristic is encoded as its zero
// struct, and parameters are sorted by key. The domain is "ward-grimoire",
// version "1", with the chain id of the deployment.
//
// Every refusal wraps ErrProvenanceForgery and a sentinel naming its
// reason. A signature made for another domain (another name, version or
// chain) recovers to another address and fails as ErrSignerMismatch: the
// digest hides which field differed.
package quarantine

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	gmath "github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/tool"
)

// ErrProvenanceForgery is wrapped by every Stage 1 refusal of an entry's
// provenance; it classifies as knowledge.ProvenanceForgery.
var ErrProvenanceForgery = errors.New("provenance forgery")

// Reasons a signature fails, each wrapped together with
// ErrProvenanceForgery.
var (
	ErrUnsigned        = errors.New("entry is unsigned")
	ErrSignatureLength = errors.New("signature is not 65 bytes")
	ErrMalleable       = errors.New("signature is malleable or out of range (high s, bad r, s or v)")
	ErrRecovery        = errors.New("signer could not be recovered")
	ErrSignerMismatch  = errors.New("signer is not the claimed agent")
	ErrUnknownAgent    = errors.New("agent is not in the identity registry")
	ErrMalformed       = errors.New("entry is malformed")
)

func forged(reason error, format string, args ...any) error {
	if format == "" {
		return fmt.Errorf("quarantine: %w: %w", ErrProvenanceForgery, reason)
	}
	return fmt.Errorf("quarantine: %w: %w: %s", ErrProvenanceForgery, reason, fmt.Sprintf(format, args...))
}

// Domain is the EIP-712 domain entries are signed under. Its name and
// version must not be empty: go-ethereum leaves empty domain fields out.
type Domain struct {
	Name    string
	Version string
	ChainID uint64
}

// NewDomain returns ward's domain on chainID: "ward-grimoire", version "1".
func NewDomain(chainID uint64) Domain {
	return Domain{Name: "ward-grimoire", Version: "1", ChainID: chainID}
}

// ContentHash returns keccak256 of e's content, the entry's contentHash.
func ContentHash(e *knowledge.Entry) [32]byte { return [32]byte(crypto.Keccak256([]byte(e.Content))) }

// Digest returns the EIP-712 digest of e under d: what its author signs,
// computed by go-ethereum's apitypes from typedData. It fails, wrapping
// ErrMalformed, for an entry whose agent, timestamp, confidence or anchor
// cannot be encoded, and for a domain without a name or version.
func (d Domain) Digest(e *knowledge.Entry) ([]byte, error) {
	td, err := d.typedData(e)
	if err != nil {
		return nil, err
	}
	// apitypes.TypedDataAndHash, with the domain's separator computed
	// once per domain: it is half the work of a digest, and the same for
	// every entry.
	sep, err := d.separator(td)
	if err != nil {
		return nil, forged(ErrMalformed, "%v", err)
	}
	msg, err := td.HashStruct(td.PrimaryType, td.Message)
	if err != nil {
		return nil, forged(ErrMalformed, "%v", err)
	}
	return crypto.Keccak256([]byte{0x19, 0x01}, sep, msg), nil
}

// separators caches each Domain's separator (hashStruct of EIP712Domain).
var separators sync.Map // Domain → []byte

func (d Domain) separator(td apitypes.TypedData) ([]byte, error) {
	if v, ok := separators.Load(d); ok {
		return v.([]byte), nil
	}
	h, err := td.HashStruct("EIP712Domain", td.Domain.Map())
	if err != nil {
		return nil, err
	}
	sep := []byte(h)
	separators.Store(d, sep)
	return sep, nil
}

func hexBytes(s string, n int) ([]byte, error) {
	if len(s) != 2+2*n || (s[:2] != "0x" && s[:2] != "0X") {
		return nil, fmt.Errorf("want 0x and %d hex digits", 2*n)
	}
	b := common.FromHex(s)
	if len(b) != n {
		return nil, fmt.Errorf("want 0x and %d hex digits", 2*n)
	}
	return b, nil
}

// entryTypes are the EIP-712 types of an entry (see the package comment).
var entryTypes = apitypes.Types{
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
}

// typedData returns e as the EIP-712 typed data its author signs under d,
// the form a wallet's eth_signTypedData_v4 takes. It fails, wrapping
// ErrMalformed, for an entry whose agent, timestamp, confidence or anchor
// cannot be encoded.
func (d Domain) typedData(e *knowledge.Entry) (apitypes.TypedData, error) {
	s := &e.Source
	agent, err := tool.ParseAddress(s.Agent)
	if err != nil {
		return apitypes.TypedData{}, forged(ErrMalformed, "agent %.50q", s.Agent)
	}
	ts := s.Timestamp.Unix()
	if s.Timestamp.IsZero() || ts < 0 {
		return apitypes.TypedData{}, forged(ErrMalformed, "timestamp %v", s.Timestamp)
	}
	if math.IsNaN(e.Confidence) || e.Confidence < 0 || e.Confidence > 1 {
		return apitypes.TypedData{}, forged(ErrMalformed, "confidence %v", e.Confidence)
	}
	var anchor [32]byte
	if s.Anchor != "" {
		b, err := hexBytes(s.Anchor, 32)
		if err != nil {
			return apitypes.TypedData{}, forged(ErrMalformed, "anchor: %v", err)
		}
		anchor = [32]byte(b)
	}
	c, h := e.Claim, e.Heuristic
	if c == nil {
		c = &knowledge.Claim{}
	}
	if h == nil {
		h = &knowledge.Heuristic{}
	}
	params := make([]any, 0, len(h.Parameters))
	for _, k := range slices.Sorted(maps.Keys(h.Parameters)) {
		params = append(params, map[string]any{"key": k, "value": h.Parameters[k]})
	}
	ch := ContentHash(e)
	return apitypes.TypedData{
		Types:       entryTypes,
		PrimaryType: "Entry",
		Domain: apitypes.TypedDataDomain{
			Name: d.Name, Version: d.Version,
			ChainId: (*gmath.HexOrDecimal256)(new(big.Int).SetUint64(d.ChainID)),
		},
		Message: apitypes.TypedDataMessage{
			"contentHash":          ch[:],
			"entryType":            e.Type.String(),
			"provenance":           s.Provenance.String(),
			"agent":                agent[:],
			"timestamp":            big.NewInt(ts),
			"claimedConfidenceBps": big.NewInt(int64(math.Round(e.Confidence * 10000))),
			"onChainAnchor":        anchor[:],
			"listing":              s.ListingID,
			"clade":                s.CladeID,
			"claim": map[string]any{
				"subject": c.Subject, "relation": c.Relation, "object": c.Object, "conditions": c.Conditions,
			},
			"heuristic": map[string]any{
				"conditions": h.Conditions, "actions": h.Actions, "parameters": params,
			},
		},
	}, nil
}

// Sign signs e under d with key, setting e's agent to the key's address
// and its signature (v 27 or 28). It is for tests, the eval harness and
// agents that author entries; ward verifies, it does not vouch.
func (d Domain) Sign(e *knowledge.Entry, key *ecdsa.PrivateKey) error {
	e.Source.Agent = crypto.PubkeyToAddress(key.PublicKey).Hex()
	digest, err := d.Digest(e)
	if err != nil {
		return err
	}
	sig, err := crypto.Sign(digest, key)
	if err != nil {
		return fmt.Errorf("quarantine: sign: %w", err)
	}
	sig[64] += 27
	e.Source.Signature = sig
	return nil
}

var secp256k1N = crypto.S256().Params().N

// Verify checks that e's signature is a canonical EIP-712 signature under
// d by the agent e names: 65 bytes r, s, v with v 27, 28, 0 or 1, s in the
// lower half of the curve order. It does not consult the registry or the
// replay guard (see Checker).
func (d Domain) Verify(e *knowledge.Entry) error {
	sig := e.Source.Signature
	if err := signatureShape(sig); err != nil {
		return err
	}
	v := sig[64]
	if v >= 27 {
		v -= 27
	}
	r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:64])
	if !crypto.ValidateSignatureValues(v, r, s, true) {
		return forged(ErrMalleable, "")
	}
	digest, err := d.Digest(e)
	if err != nil {
		return err
	}
	canon := append(slices.Clone(sig[:64]), v)
	pub, err := crypto.SigToPub(digest, canon)
	if err != nil {
		return forged(ErrRecovery, "%v", err)
	}
	if got := crypto.PubkeyToAddress(*pub); got != common.HexToAddress(e.Source.Agent) {
		return forged(ErrSignerMismatch, "")
	}
	return nil
}

func signatureShape(sig []byte) error {
	switch {
	case len(sig) == 0:
		return forged(ErrUnsigned, "")
	case len(sig) != knowledge.SignatureSize:
		return forged(ErrSignatureLength, "%d bytes", len(sig))
	}
	return nil
}

// Sign signs e under ward's domain on chainID (see Domain.Sign).
func Sign(e *knowledge.Entry, chainID uint64, key *ecdsa.PrivateKey) error {
	return NewDomain(chainID).Sign(e, key)
}
