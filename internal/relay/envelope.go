package relay

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// The envelope is one binary encoding used both on the wire and as the
// signed bytes, so there is nothing to canonicalise: a decoder that accepts
// exactly one byte string per envelope cannot be fooled by a re-encoding.
// Layout (big-endian):
//
//	"WRLY" | version u8 | kind u8 | scope u8 | len(clade) u8 | clade |
//	from [20] | seq u64 | time i64 (unix ns) | len(body) u32 | body | sig [65]
//
// sig is secp256k1 over accounts.TextHash (EIP-191) of everything before it,
// r || s || v with v in {0, 1} and s in the lower half of the curve order.
const (
	magic       = "WRLY"
	version     = 1
	sigLen      = crypto.SignatureLength
	headerLen   = len(magic) + 1 + 1 + 1 + 1 // up to the clade bytes
	fixedLen    = common.AddressLength + 8 + 8 + 4
	maxCladeLen = 64

	// MaxBody bounds a message body. Bodies are opaque to the relay; the
	// pipeline defines their encodings.
	MaxBody = 1 << 20
	// MaxEnvelope bounds a whole encoded envelope; anything larger is
	// dropped unread.
	MaxEnvelope = headerLen + maxCladeLen + fixedLen + MaxBody + sigLen
)

// scope says which subject tree an envelope belongs to. Zero is invalid.
type scope uint8

const (
	scopeClade scope = iota + 1
	scopeCommons
)

// envelope is a decoded, not yet verified, relay message.
type envelope struct {
	kind  Kind
	scope scope
	clade string
	from  common.Address
	seq   uint64
	time  time.Time
	body  []byte
}

var errMalformed = errors.New("relay: malformed envelope")

// subject returns the NATS subject the envelope must travel on.
func (e *envelope) subject() string {
	if e.scope == scopeCommons {
		return "ward.relay.commons." + e.kind.String()
	}
	return "ward.relay.clade." + e.clade + "." + e.kind.String()
}

// signed encodes every field but the signature.
func (e *envelope) signed() []byte {
	b := make([]byte, 0, headerLen+len(e.clade)+fixedLen+len(e.body)+sigLen)
	b = append(b, magic...)
	b = append(b, version, byte(e.kind), byte(e.scope), byte(len(e.clade)))
	b = append(b, e.clade...)
	b = append(b, e.from.Bytes()...)
	b = binary.BigEndian.AppendUint64(b, e.seq)
	b = binary.BigEndian.AppendUint64(b, uint64(e.time.UnixNano()))
	b = binary.BigEndian.AppendUint32(b, uint32(len(e.body)))
	return append(b, e.body...)
}

// seal signs the envelope with key and returns its wire bytes and its id.
func (e *envelope) seal(key *ecdsa.PrivateKey) (wire []byte, id string, err error) {
	b := e.signed()
	sig, err := crypto.Sign(accounts.TextHash(b), key)
	if err != nil {
		return nil, "", fmt.Errorf("relay: sign: %w", err)
	}
	return append(b, sig...), envelopeID(b), nil
}

// envelopeID names an envelope by the hash of its signed bytes: the same
// message always has the same id, which JetStream uses to drop a retried
// publish (Nats-Msg-Id).
func envelopeID(signed []byte) string {
	h := crypto.Keccak256(signed)
	return hex.EncodeToString(h[:16])
}

// secp256k1halfN is half the curve order; a signature with a larger s is
// the malleated twin of a valid one and is refused.
var secp256k1halfN = new(big.Int).Rsh(crypto.S256().Params().N, 1)

// open decodes wire strictly and recovers the signer. It returns the
// envelope, its id and the recovered address; it checks nothing about
// membership, clade, time or replay (the caller does). An error is
// errMalformed or errForged.
func open(wire []byte) (*envelope, string, common.Address, error) {
	var zero common.Address
	if len(wire) < headerLen+fixedLen+sigLen || !bytes.Equal(wire[:len(magic)], []byte(magic)) {
		return nil, "", zero, errMalformed
	}
	if wire[4] != version {
		return nil, "", zero, errMalformed
	}
	e := &envelope{kind: Kind(wire[5]), scope: scope(wire[6])}
	n := int(wire[7])
	rest := wire[headerLen:]
	if n > maxCladeLen || len(rest) < n+fixedLen+sigLen {
		return nil, "", zero, errMalformed
	}
	e.clade, rest = string(rest[:n]), rest[n:]
	e.from, rest = common.BytesToAddress(rest[:common.AddressLength]), rest[common.AddressLength:]
	e.seq, rest = binary.BigEndian.Uint64(rest), rest[8:]
	e.time, rest = time.Unix(0, int64(binary.BigEndian.Uint64(rest))), rest[8:]
	bodyLen := binary.BigEndian.Uint32(rest)
	rest = rest[4:]
	if bodyLen > MaxBody || uint64(len(rest)) != uint64(bodyLen)+sigLen {
		return nil, "", zero, errMalformed
	}
	if bodyLen > 0 {
		e.body = bytes.Clone(rest[:bodyLen])
	}
	sig := rest[bodyLen:]
	switch e.scope {
	case scopeClade:
		if !validClade(e.clade) {
			return nil, "", zero, errMalformed
		}
	case scopeCommons:
		if e.clade != "" && !validClade(e.clade) {
			return nil, "", zero, errMalformed
		}
	default:
		return nil, "", zero, errMalformed
	}
	if e.seq == 0 {
		return nil, "", zero, errMalformed
	}
	if sig[64] > 1 || new(big.Int).SetBytes(sig[32:64]).Cmp(secp256k1halfN) > 0 {
		return nil, "", zero, errMalformed
	}
	signed := wire[:len(wire)-sigLen]
	pub, err := crypto.SigToPub(accounts.TextHash(signed), sig)
	if err != nil {
		return nil, "", zero, errMalformed
	}
	return e, envelopeID(signed), crypto.PubkeyToAddress(*pub), nil
}

// validClade reports whether s can be one NATS subject token: 1 to 64
// characters of [A-Za-z0-9_-].
func validClade(s string) bool {
	if len(s) == 0 || len(s) > maxCladeLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
