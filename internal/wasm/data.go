package wasm

import (
	"encoding/binary"
	"errors"
	"slices"
)

// mergeData returns module with its active data segments merged where
// that changes nothing of the memory an instance starts with, or module
// itself when it cannot tell (a form it does not parse, a data count
// section, which code may refer to segments by index with).
//
// Why: a Go guest has tens of thousands of small data segments (36,544
// for the example tool), and wazero evaluates each one's offset
// expression and copies it on every instantiation, which a WASM tool
// does on every call; merged, the same bytes are a few hundred copies.
//
// Segments are merged in their order, each with the one before it when
// it starts at or after that one's end and the gap between them is at
// most mergeGap bytes and covered by no segment of the module (the gap is
// filled with zeros, which a fresh memory holds there anyway). The module
// is the pinned one's rewrite: the pin is checked on the bytes read.
func mergeData(module []byte) []byte {
	out, err := rewriteData(module)
	if err != nil {
		return module
	}
	return out
}

// mergeGap is the widest gap of zeros a merged segment spans.
const mergeGap = 256

type segment struct {
	offset uint32
	data   []byte
}

var errForm = errors.New("wasm: a form mergeData leaves alone")

func rewriteData(module []byte) ([]byte, error) {
	if len(module) < 8 || string(module[:4]) != "\x00asm" || binary.LittleEndian.Uint32(module[4:8]) != 1 {
		return nil, errForm
	}
	type section struct {
		id   byte
		body []byte
	}
	var sections []section
	data := -1
	for i := 8; i < len(module); {
		id := module[i]
		n, next, ok := uleb(module, i+1)
		if !ok || n > uint64(len(module)-next) {
			return nil, errForm
		}
		body := module[next : next+int(n)]
		switch id {
		case 11:
			if data >= 0 {
				return nil, errForm
			}
			data = len(sections)
		case 12: // data count: code may use memory.init and data.drop
			return nil, errForm
		}
		sections = append(sections, section{id, body})
		i = next + int(n)
	}
	if data < 0 {
		return nil, errForm
	}
	segs, err := parseSegments(sections[data].body)
	if err != nil {
		return nil, err
	}
	merged := mergeSegments(segs)
	if len(merged) == len(segs) {
		return nil, errForm
	}
	var body []byte
	body = appendULEB(body, uint64(len(merged)))
	for _, s := range merged {
		body = append(body, 0, 0x41) // active, memory 0; i32.const
		body = appendSLEB(body, int64(int32(s.offset)))
		body = append(body, 0x0b)
		body = appendULEB(body, uint64(len(s.data)))
		body = append(body, s.data...)
	}
	out := slices.Clone(module[:8])
	for i, s := range sections {
		if i == data {
			s.body = body
		}
		out = append(out, s.id)
		out = appendULEB(out, uint64(len(s.body)))
		out = append(out, s.body...)
	}
	return out, nil
}

// parseSegments reads a data section whose segments are all active, in
// memory 0, at an i32.const offset, within 32-bit memory.
func parseSegments(b []byte) ([]segment, error) {
	count, i, ok := uleb(b, 0)
	if !ok || count > uint64(len(b)) {
		return nil, errForm
	}
	segs := make([]segment, 0, count)
	for range count {
		if i+2 > len(b) || b[i] != 0 || b[i+1] != 0x41 {
			return nil, errForm
		}
		off, next, ok := sleb32(b, i+2)
		if !ok || next >= len(b) || b[next] != 0x0b {
			return nil, errForm
		}
		n, next, ok := uleb(b, next+1)
		if !ok || n > uint64(len(b)-next) || uint64(uint32(off))+n > 1<<32 {
			return nil, errForm
		}
		segs = append(segs, segment{offset: uint32(off), data: b[next : next+int(n)]})
		i = next + int(n)
	}
	if i != len(b) {
		return nil, errForm
	}
	return segs, nil
}

// mergeSegments merges consecutive segments as mergeData says.
func mergeSegments(segs []segment) []segment {
	covered := coverage(segs)
	var out []segment
	for _, s := range segs {
		if len(out) > 0 {
			last := &out[len(out)-1]
			end := uint64(last.offset) + uint64(len(last.data))
			start := uint64(s.offset)
			if start >= end && start-end <= mergeGap && !covers(covered, end, start) {
				last.data = append(last.data, make([]byte, start-end)...)
				last.data = append(last.data, s.data...)
				continue
			}
		}
		// A copy: merging appends to it, never to the module's bytes.
		out = append(out, segment{offset: s.offset, data: slices.Clone(s.data)})
	}
	return out
}

// span is a range [start, end) of memory.
type span struct{ start, end uint64 }

// coverage returns the union of the segments' ranges, sorted and
// disjoint.
func coverage(segs []segment) []span {
	var spans []span
	for _, s := range segs {
		if len(s.data) > 0 {
			spans = append(spans, span{uint64(s.offset), uint64(s.offset) + uint64(len(s.data))})
		}
	}
	slices.SortFunc(spans, func(a, b span) int { return cmpU64(a.start, b.start) })
	var out []span
	for _, s := range spans {
		if n := len(out); n > 0 && s.start <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, s.end)
			continue
		}
		out = append(out, s)
	}
	return out
}

// covers reports whether any span intersects [start, end).
func covers(spans []span, start, end uint64) bool {
	if start >= end {
		return false
	}
	// The last span starting before end is the only one that can reach
	// into the range: the ones before it end before it starts.
	i, _ := slices.BinarySearchFunc(spans, end, func(s span, t uint64) int { return cmpU64(s.start, t) })
	return i > 0 && spans[i-1].end > start
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// uleb reads an unsigned LEB128 of at most 32 bits at b[i:].
func uleb(b []byte, i int) (uint64, int, bool) {
	var v uint64
	for shift := 0; shift < 35; shift += 7 {
		if i >= len(b) {
			return 0, 0, false
		}
		c := b[i]
		i++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, i, v <= 1<<32-1
		}
	}
	return 0, 0, false
}

// sleb32 reads a signed LEB128 of at most 32 bits at b[i:].
func sleb32(b []byte, i int) (int32, int, bool) {
	var v int64
	shift := 0
	for ; shift < 35; shift += 7 {
		if i >= len(b) {
			return 0, 0, false
		}
		c := b[i]
		i++
		v |= int64(c&0x7f) << shift
		if c < 0x80 {
			if c&0x40 != 0 {
				v -= 1 << (shift + 7)
			}
			if v < -1<<31 || v > 1<<31-1 {
				return 0, 0, false
			}
			return int32(v), i, true
		}
	}
	return 0, 0, false
}

func appendULEB(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendSLEB(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
