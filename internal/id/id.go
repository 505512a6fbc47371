// Package id makes ward's identifiers.
//
// New makes record ids: ULIDs (26 characters of Crockford base32: 48 bits
// of milliseconds, 80 bits of randomness), monotonic within a process so
// that ids sort in creation order, and unique across processes and machines
// by their random part. Because they are monotonic, an id made right after
// another differs from it in its last characters only: they are for
// records, never for names a client can act with.
//
// Opaque makes the ids a client is handed and may later present (permits,
// quarantine items, withheld outputs, sessions, tasks, principals): 32
// characters, the same 48-bit time (so they still sort by creation time to
// the millisecond) followed by 110 bits drawn afresh from crypto/rand for
// every id. Knowing any number of them tells nothing about the next.
package id

import (
	"crypto/rand"
	"encoding/binary"
	"sync"
	"time"
)

const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// Len is the length of an id.
const Len = 26

var gen struct {
	mu   sync.Mutex
	ms   uint64
	hi   uint16 // top 16 bits of the random part
	lo   uint64 // low 64 bits of the random part
	seed bool
}

// New returns a new id for time t. Ids made by one process are strictly
// increasing, even within one millisecond or if the clock steps back.
func New(t time.Time) string {
	ms := uint64(t.UnixMilli())
	gen.mu.Lock()
	if !gen.seed || ms > gen.ms {
		var b [10]byte
		_, _ = rand.Read(b[:])                       // never fails on supported platforms (crypto/rand panics otherwise)
		gen.hi = binary.BigEndian.Uint16(b[:2]) >> 1 // leave headroom for increments
		gen.lo = binary.BigEndian.Uint64(b[2:])
		gen.ms = max(ms, gen.ms)
		gen.seed = true
	} else {
		gen.lo++
		if gen.lo == 0 {
			gen.hi++
		}
	}
	ms, hi, lo := gen.ms, gen.hi, gen.lo
	gen.mu.Unlock()
	return encode(ms, hi, lo)
}

// MinAt returns the smallest id that New could make at time t: ids made at
// or after t compare greater than or equal to it as strings.
func MinAt(t time.Time) string { return encode(uint64(max(t.UnixMilli(), 0)), 0, 0) }

// Before reports whether s sorts before MinAt(t), that is whether no id New
// made at or after t can be s. It allocates nothing (the audit writer
// checks every record with it).
func Before(s string, t time.Time) bool {
	var out [Len]byte
	encodeTo(&out, uint64(max(t.UnixMilli(), 0)), 0, 0)
	return s < string(out[:])
}

func encode(ms uint64, hi uint16, lo uint64) string {
	var out [Len]byte
	encodeTo(&out, ms, hi, lo)
	return string(out[:])
}

func encodeTo(out *[Len]byte, ms uint64, hi uint16, lo uint64) {
	// 48-bit time in 10 characters (the first holds 3 bits).
	for i := 9; i >= 0; i-- {
		out[i] = alphabet[ms&31]
		ms >>= 5
	}
	// 80-bit random part (hi:16 | lo:64) in 16 characters.
	for i := Len - 1; i >= 10; i-- {
		out[i] = alphabet[lo&31]
		lo = lo>>5 | uint64(hi&31)<<59
		hi >>= 5
	}
}

// Valid reports whether s has the shape of an id.
func Valid(s string) bool {
	if len(s) != Len || s[0] > '7' {
		return false
	}
	return crockford(s)
}

// OpaqueLen is the length of an opaque id.
const OpaqueLen = 32

// opaqueRandom is the number of random characters of an opaque id (5 bits
// each: 110 bits).
const opaqueRandom = OpaqueLen - 10

// Opaque returns a new opaque id for time t: its first 10 characters are
// t's milliseconds as in New, the other 22 fresh random bits.
func Opaque(t time.Time) string {
	var out [OpaqueLen]byte
	ms := uint64(max(t.UnixMilli(), 0))
	for i := 9; i >= 0; i-- {
		out[i] = alphabet[ms&31]
		ms >>= 5
	}
	var b [opaqueRandom]byte
	_, _ = rand.Read(b[:]) // never fails on supported platforms (crypto/rand panics otherwise)
	for i, c := range b {
		out[10+i] = alphabet[c&31]
	}
	return string(out[:])
}

// ValidOpaque reports whether s has the shape of an opaque id.
func ValidOpaque(s string) bool {
	if len(s) != OpaqueLen || s[0] > '7' {
		return false
	}
	return crockford(s)
}

// ValidAny reports whether s has the shape of a record id or of an opaque
// id: what a lookup of something that was named either way (before and
// after ward made its client-visible ids opaque) accepts.
func ValidAny(s string) bool { return Valid(s) || ValidOpaque(s) }

func crockford(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z') || c == 'I' || c == 'L' || c == 'O' || c == 'U' {
			return false
		}
	}
	return true
}
