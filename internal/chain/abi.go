package chain

import (
	"bytes"
	"fmt"

	"github.com/ethereum/go-ethereum/accounts/abi"
)

// ABI is a parsed contract ABI. It is immutable and safe for concurrent
// use.
type ABI struct {
	abi abi.ABI
}

// ParseABI parses a JSON ABI (the "abi" array of a compiler artifact).
func ParseABI[T ~string | ~[]byte](abiJSON T) (*ABI, error) {
	a, err := abi.JSON(bytes.NewReader([]byte(abiJSON)))
	if err != nil {
		return nil, fmt.Errorf("parse abi: %w", err)
	}
	return &ABI{abi: a}, nil
}

// mustParseABI parses an ABI written in this package; a failure is a bug
// that the package's tests catch.
func mustParseABI(abiJSON string) *ABI {
	a, err := ParseABI(abiJSON)
	if err != nil {
		panic("chain: built-in " + err.Error())
	}
	return a
}

// Pack returns the calldata of a call to method with args (selector
// followed by the ABI-encoded arguments).
func (a *ABI) Pack(method string, args ...any) ([]byte, error) {
	b, err := a.abi.Pack(method, args...)
	if err != nil {
		return nil, fmt.Errorf("pack %s: %w", method, err)
	}
	return b, nil
}

// Unpack decodes the return data of method into Go values.
func (a *ABI) Unpack(method string, data []byte) ([]any, error) {
	v, err := a.abi.Unpack(method, data)
	if err != nil {
		return nil, fmt.Errorf("unpack %s: %w", method, err)
	}
	return v, nil
}

// UnpackInto decodes the return data of method into out: a pointer to a
// struct whose fields match the outputs by name, or to a single value.
func (a *ABI) UnpackInto(out any, method string, data []byte) error {
	m, ok := a.abi.Methods[method]
	if !ok {
		return fmt.Errorf("unpack %s: no such method", method)
	}
	vals, err := m.Outputs.Unpack(data)
	if err != nil {
		return fmt.Errorf("unpack %s: %w", method, err)
	}
	if err := m.Outputs.Copy(out, vals); err != nil {
		return fmt.Errorf("unpack %s: %w", method, err)
	}
	return nil
}

// Selector returns the 4-byte selector of method, and false when the ABI
// has no such method.
func (a *ABI) Selector(method string) ([4]byte, bool) {
	var s [4]byte
	m, ok := a.abi.Methods[method]
	if !ok {
		return s, false
	}
	copy(s[:], m.ID)
	return s, true
}

// MethodBySelector returns the name of the method with selector sel.
func (a *ABI) MethodBySelector(sel [4]byte) (string, bool) {
	m, err := a.abi.MethodById(sel[:])
	if err != nil {
		return "", false
	}
	return m.Name, true
}

// UnpackArgs decodes calldata (selector included) into the method's name
// and its arguments.
func (a *ABI) UnpackArgs(calldata []byte) (string, []any, error) {
	if len(calldata) < 4 {
		return "", nil, fmt.Errorf("calldata of %d bytes has no selector", len(calldata))
	}
	m, err := a.abi.MethodById(calldata[:4])
	if err != nil {
		return "", nil, fmt.Errorf("unknown selector 0x%x", calldata[:4])
	}
	v, err := m.Inputs.Unpack(calldata[4:])
	if err != nil {
		return m.Name, nil, fmt.Errorf("unpack %s arguments: %w", m.Name, err)
	}
	return m.Name, v, nil
}

// Event returns the topic (event ID) of the named event.
func (a *ABI) Event(name string) ([32]byte, bool) {
	e, ok := a.abi.Events[name]
	if !ok {
		return [32]byte{}, false
	}
	return e.ID, true
}
