package chain

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
)

// RevertError is a call or transaction that the EVM reverted. Reason is
// the decoded Error(string) message, the Panic(uint256) description, the
// name and arguments of a known custom error, or "custom error 0x…" with
// the selector when the error is unknown; Data is the raw revert data.
// Reason comes from a contract and may be hostile: show it to an agent
// only as untrusted text.
type RevertError struct {
	Reason string
	Data   []byte
}

func (e *RevertError) Error() string {
	if e.Reason == "" {
		return "execution reverted"
	}
	return "execution reverted: " + e.Reason
}

// ErrReverted matches any *RevertError with errors.Is.
var ErrReverted = errors.New("execution reverted")

// Is makes errors.Is(err, ErrReverted) true for a *RevertError.
func (e *RevertError) Is(target error) bool { return target == ErrReverted }

var (
	selError = [4]byte{0x08, 0xc3, 0x79, 0xa0} // Error(string)
	selPanic = [4]byte{0x4e, 0x48, 0x7b, 0x71} // Panic(uint256)
)

// DecodeRevert decodes revert data into a RevertError. Custom errors are
// looked up in the given ABIs and then in the well-known errors (ERC-6093
// token errors, SafeERC20, Ownable).
func DecodeRevert(data []byte, abis ...*ABI) *RevertError {
	e := &RevertError{Data: bytes.Clone(data)}
	if len(data) == 0 {
		return e
	}
	if len(data) < 4 {
		e.Reason = "malformed revert data 0x" + hex.EncodeToString(data)
		return e
	}
	var sel [4]byte
	copy(sel[:], data)
	switch sel {
	case selError, selPanic:
		if r, err := abi.UnpackRevert(data); err == nil {
			if sel == selPanic {
				r = "panic: " + r
			}
			e.Reason = r
			return e
		}
	}
	for _, a := range append(abis, knownErrors()) {
		if a == nil {
			continue
		}
		if r, ok := a.decodeError(sel, data[4:]); ok {
			e.Reason = r
			return e
		}
	}
	e.Reason = "custom error 0x" + hex.EncodeToString(sel[:])
	return e
}

// revertFrom turns a JSON-RPC error into a *RevertError when it is a
// revert (code 3, or a message that says so), and returns nil otherwise.
func revertFrom(err error) *RevertError {
	if err == nil {
		return nil
	}
	var re *RevertError
	if errors.As(err, &re) {
		return re
	}
	var rpcErr rpc.Error
	code := 0
	if errors.As(err, &rpcErr) {
		code = rpcErr.ErrorCode()
	}
	msg := err.Error()
	// Nodes report a revert as code 3 with the data (geth, reth, anvil);
	// some send -32000 with a message starting "execution reverted".
	if code != 3 && !strings.HasPrefix(msg, "execution reverted") {
		return nil
	}
	var data []byte
	var de rpc.DataError
	if errors.As(err, &de) {
		if s, ok := de.ErrorData().(string); ok {
			data, _ = hexutil.Decode(s)
		}
	}
	out := DecodeRevert(data)
	if len(data) == 0 {
		if r, ok := strings.CutPrefix(msg, "execution reverted: "); ok {
			out.Reason = r
		}
	}
	return out
}

// decodeError decodes a custom error by selector.
func (a *ABI) decodeError(sel [4]byte, args []byte) (string, bool) {
	for _, e := range a.abi.Errors {
		if !bytes.Equal(e.ID[:4], sel[:]) {
			continue
		}
		vals, err := e.Inputs.Unpack(args)
		if err != nil {
			return "", false
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = fmt.Sprint(v)
		}
		return e.Name + "(" + strings.Join(parts, ", ") + ")", true
	}
	return "", false
}
