//go:build wasip1

// Command wasm-tool is an example WASM tool for ward, written against the
// ward_v1 host interface with no SDK (docs/sandbox.md, "WASM tools").
//
// Arguments: {"read": [{"tool": NAME, "args": {...}}, ...], "write": {"tool":
// NAME, "args": {...}}}. It calls each read tool of its session through
// ward's gate and returns {"result": {"reads": [...]}}; with "write" it
// returns that write as a request instead, which ward previews as the
// session's (the agent gets a permit to commit, or the refusal).
//
// Build (a reactor: ward calls ward_run after _initialize):
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o wasm-tool.wasm .
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

// fetch reads a host buffer: its length first, then its bytes.
func fetch(get func(unsafe.Pointer, uint32) int32) []byte {
	n := get(nil, 0)
	if n <= 0 {
		return nil
	}
	b := make([]byte, n)
	get(ptr(b), uint32(n))
	return b
}

type request struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
}

type reply struct {
	Tool  string          `json:"tool"`
	Code  int32           `json:"code"`
	Reply json.RawMessage `json:"reply,omitempty"`
}

//go:wasmexport ward_run
func run() int32 {
	var in struct {
		Read  []request `json:"read"`
		Write *request  `json:"write"`
	}
	if err := json.Unmarshal(fetch(argsGet), &in); err != nil {
		return 1
	}
	var out any
	if in.Write != nil {
		out = map[string]any{"write_requests": []request{*in.Write}}
	} else {
		reads := []reply{}
		for _, r := range in.Read {
			name := []byte(r.Tool)
			args := []byte(r.Args)
			if len(args) == 0 {
				args = []byte("{}")
			}
			code := call(ptr(name), uint32(len(name)), ptr(args), uint32(len(args)))
			rep := reply{Tool: r.Tool, Code: code}
			if code >= 0 || code == -3 {
				rep.Reply = fetch(responseGet)
			}
			reads = append(reads, rep)
		}
		out = map[string]any{"result": map[string]any{"reads": reads}}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return 2
	}
	if resultSet(ptr(b), uint32(len(b))) != 0 {
		return 3
	}
	return 0
}

func main() {}
