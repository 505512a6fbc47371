package wasm

import (
	"sync"

	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// linearMemory backs one instance's linear memory with its own anonymous
// mapping: the whole limit reserved (PROT_NONE, MAP_NORESERVE) when the
// instance is made, pages made readable and writable as the guest grows,
// and the mapping unmapped when the instance ends. Growing never copies
// (the address does not move), the guest's memory is not Go heap (no
// garbage collection of it on every call), and every instance starts
// from pages the kernel zeroed: nothing of a previous call can be in it.
//
// It is safe for use by one instance; free may be called more than once.
type linearMemory struct {
	mu   sync.Mutex
	buf  []byte // the reservation, len = the memory limit
	size uint64 // bytes readable and writable
}

// newLinearMemory reserves max bytes; it returns nil (wazero then uses Go
// heap memory) if the reservation fails.
func newLinearMemory(max uint64) *linearMemory {
	if max == 0 {
		max = wasmPage
	}
	b, err := unix.Mmap(-1, 0, int(max), unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	return &linearMemory{buf: b}
}

// Reallocate makes the first size bytes usable; nil (memory.grow fails)
// past the reservation or when the kernel refuses.
func (m *linearMemory) Reallocate(size uint64) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.buf == nil || size > uint64(len(m.buf)) {
		return nil
	}
	if size > m.size {
		if err := unix.Mprotect(m.buf[m.size:size], unix.PROT_READ|unix.PROT_WRITE); err != nil {
			return nil
		}
		m.size = size
	}
	return m.buf[:size:size]
}

// Free unmaps the memory. wazero calls it when the instance is closed
// with its resources; the run calls it again once the instance is done,
// so that an instance closed by its context (whose resources wazero
// frees only if the guest runs again) does not keep its mapping.
func (m *linearMemory) Free() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.buf != nil {
		unix.Munmap(m.buf)
		m.buf, m.size = nil, 0
	}
}

var _ experimental.LinearMemory = (*linearMemory)(nil)
