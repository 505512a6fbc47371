//go:build wasip1

// Command attack is a hostile WASM tool for package wasm's tests: its
// argument {"mode": ...} picks the attack.
package main

import (
	"encoding/json"
	"unsafe"
)

//go:wasmimport ward_v1 args_get
func argsGet(buf unsafe.Pointer, capacity uint32) int32

//go:wasmimport ward_v1 call
func call(name unsafe.Pointer, nameLen uint32, args unsafe.Pointer, argsLen uint32) int32

//go:wasmimport ward_v1 response_get
func responseGet(buf unsafe.Pointer, capacity uint32) int32

//go:wasmimport ward_v1 result_set
func resultSet(buf unsafe.Pointer, n uint32) int32

func ptr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

var sink []byte
var counter int

// secret is what "plant" leaves in the instance and "seek" looks for in
// the next one: in a global (data) and in a heap buffer, which a fresh
// instance's deterministic heap places at the same address.
var secret [32]byte

const plantSize = 4 << 20

var marker = []byte("ward-previous-call-secret-0x5eed")

// plant fills the global and a heap buffer with the marker and returns
// the buffer's address.
func plant() uintptr {
	copy(secret[:], marker)
	b := make([]byte, plantSize)
	for i := 0; i+len(marker) <= len(b); i += len(marker) {
		copy(b[i:], marker)
	}
	sink = b
	return uintptr(unsafe.Pointer(&b[0]))
}

// seek allocates a buffer like plant's without writing it and reports
// its address and whether the marker is in it or in the global.
func seek() map[string]any {
	b := make([]byte, plantSize)
	found := 0
	for i := 0; i+len(marker) <= len(b); i += len(marker) {
		if string(b[i:i+len(marker)]) == string(marker) {
			found++
		}
	}
	return map[string]any{"addr": uintptr(unsafe.Pointer(&b[0])), "heap": found, "global": string(secret[:]) == string(marker)}
}

func recurse(n int) int {
	var pad [64]byte
	pad[n%64] = byte(n)
	return recurse(n+1) + int(pad[3])
}

func result(v any) int32 {
	b, _ := json.Marshal(v)
	return resultSet(ptr(b), uint32(len(b)))
}

//go:wasmexport ward_run
func run() int32 {
	n := argsGet(nil, 0)
	a := make([]byte, n)
	argsGet(ptr(a), uint32(n))
	var in struct {
		Mode string          `json:"mode"`
		Tool string          `json:"tool"`
		Args json.RawMessage `json:"args"`
		MB   int             `json:"mb"`
	}
	json.Unmarshal(a, &in)
	switch in.Mode {
	case "ok":
		return result(map[string]any{"result": map[string]string{"hello": "ward"}})
	case "loop":
		for {
			counter++
		}
	case "alloc":
		for i := 0; i < in.MB; i++ {
			b := make([]byte, 1<<20)
			for j := range b {
				b[j] = byte(j)
			}
			sink = append(sink, b...)
		}
		return result(map[string]any{"result": len(sink)})
	case "recurse":
		return int32(recurse(0))
	case "bigout":
		b := make([]byte, in.MB<<20)
		return resultSet(ptr(b), uint32(len(b)))
	case "call":
		name := []byte(in.Tool)
		code := call(ptr(name), uint32(len(name)), ptr(in.Args), uint32(len(in.Args)))
		var reply json.RawMessage
		if m := responseGet(nil, 0); m > 0 {
			reply = make([]byte, m)
			responseGet(ptr(reply), uint32(m))
		}
		return result(map[string]any{"result": map[string]any{"code": code, "reply": reply}})
	case "write":
		return result(map[string]any{"write_requests": []map[string]any{{"tool": in.Tool, "args": in.Args}}})
	case "plant":
		return result(map[string]any{"result": map[string]any{"addr": plant()}})
	case "seek":
		return result(map[string]any{"result": seek()})
	case "extra":
		return result(map[string]any{"result": 1, "exec": true})
	}
	return 7
}

func main() {}
