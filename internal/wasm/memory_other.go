//go:build !linux

package wasm

import "github.com/tetratelabs/wazero/experimental"

// linearMemory is Linux-only (memory_linux.go); elsewhere wazero's own
// memory (Go heap, fresh per instance) is used.
type linearMemory struct{ experimental.LinearMemory }

func newLinearMemory(uint64) *linearMemory { return nil }

func (m *linearMemory) Free() {}
