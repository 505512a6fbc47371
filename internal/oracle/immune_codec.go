package oracle

import (
	"encoding/binary"
	"fmt"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
)

const (
	immuneMagic      = "WIMM"
	immuneVersion    = 1
	immuneHeader     = 4 + 2 + 4 // magic, version, count
	immuneFixed      = 16 + 16 + 32 + 16 + 4 + 1 + 1
	maxImmuneRecords = 1 << 20
)

// MarshalBinary encodes the stored signatures, oldest first: the magic
// "WIMM", a version and a count, then per signature its class, ID,
// centroid, sketch, dimension, attack and length-prefixed reason.
func (im *Immune) MarshalBinary() ([]byte, error) {
	sigs := im.Signatures()
	out := make([]byte, immuneHeader, immuneHeader+len(sigs)*(immuneFixed+16))
	copy(out, immuneMagic)
	binary.BigEndian.PutUint16(out[4:], immuneVersion)
	binary.BigEndian.PutUint32(out[6:], uint32(len(sigs)))
	for i := range sigs {
		s := &sigs[i]
		out = append(out, s.Class[:]...)
		out = append(out, s.ID[:]...)
		out = append(out, s.Centroid[:]...)
		out = binary.BigEndian.AppendUint64(out, s.Sketch[0])
		out = binary.BigEndian.AppendUint64(out, s.Sketch[1])
		out = binary.BigEndian.AppendUint32(out, s.Dim)
		out = append(out, byte(s.Attack), byte(len(s.Reason)))
		out = append(out, s.Reason...)
	}
	return out, nil
}

// UnmarshalBinary replaces the stored signatures with those encoded in
// data, keeping the newest Capacity of them. It fails with an error
// wrapping ErrMalformed, leaving im unchanged, on truncated, trailing,
// wrong-magic or out-of-range input.
func (im *Immune) UnmarshalBinary(data []byte) error {
	if len(data) < immuneHeader {
		return fmt.Errorf("oracle: immune: %w: %d bytes, shorter than the header", ErrMalformed, len(data))
	}
	if string(data[:4]) != immuneMagic {
		return fmt.Errorf("oracle: immune: %w: wrong magic %q", ErrMalformed, data[:4])
	}
	if v := binary.BigEndian.Uint16(data[4:]); v != immuneVersion {
		return fmt.Errorf("oracle: immune: %w: version %d, want %d", ErrMalformed, v, immuneVersion)
	}
	count := binary.BigEndian.Uint32(data[6:])
	rest := data[immuneHeader:]
	if uint64(count)*immuneFixed > uint64(len(rest)) {
		return fmt.Errorf("oracle: immune: %w: %d signatures in %d bytes", ErrMalformed, count, len(rest))
	}
	sigs := make([]Signature, 0, count)
	for i := range count {
		if len(rest) < immuneFixed {
			return fmt.Errorf("oracle: immune: %w: signature %d truncated", ErrMalformed, i)
		}
		var s Signature
		copy(s.Class[:], rest[0:16])
		copy(s.ID[:], rest[16:32])
		copy(s.Centroid[:], rest[32:64])
		s.Sketch[0] = binary.BigEndian.Uint64(rest[64:])
		s.Sketch[1] = binary.BigEndian.Uint64(rest[72:])
		s.Dim = binary.BigEndian.Uint32(rest[80:])
		s.Attack = knowledge.AttackType(rest[84])
		n := int(rest[85])
		rest = rest[immuneFixed:]
		if len(rest) < n {
			return fmt.Errorf("oracle: immune: %w: signature %d reason truncated", ErrMalformed, i)
		}
		s.Reason = reason.Code(rest[:n])
		rest = rest[n:]
		if err := s.Check(); err != nil {
			return fmt.Errorf("oracle: immune: %w: signature %d: %w", ErrMalformed, i, err)
		}
		sigs = append(sigs, s)
	}
	if len(rest) != 0 {
		return fmt.Errorf("oracle: immune: %w: %d trailing bytes", ErrMalformed, len(rest))
	}
	return im.Restore(sigs)
}
