package store

import (
	"context"
	"encoding/json"
	"time"
)

// PinnedTool is the approved definition of an upstream MCP server's tool:
// the hash of its canonical definition (64 lower-case hex digits), when
// and by whom it was approved ("" for trust on first use).
type PinnedTool struct {
	Server   string
	Tool     string // the upstream's name of the tool
	Hash     string
	Approved time.Time
	By       string
}

// PendingTool is a definition of an upstream tool that differs from the
// approved one and waits for the owner's approval.
type PendingTool struct {
	Server       string
	Tool         string
	Hash         string
	ApprovedHash string // the approved hash it differs from
	Seen         time.Time
	Def          json.RawMessage // the canonical definition
}

// Bounds of upstream pins.
const (
	MaxPinServer = 64
	MaxPinTool   = 256
)

// Pins keeps the approved definitions of upstream servers' tools and the
// changed ones that wait for approval. Every write is durable when it
// returns nil; an invalid argument (an empty or overlong server or tool, a
// hash that is not 64 lower-case hex digits, a definition that is not
// JSON, a time outside the years 1678-2262) is refused with an error
// wrapping ErrInvalidState and changes nothing.
type Pins interface {
	// PinTool approves p unless a definition of its tool is approved
	// already, in one conditional write: it returns the approved pin,
	// and created reports whether that is p. Of any number of callers
	// pinning one tool at once, exactly one creates the pin.
	PinTool(ctx context.Context, p PinnedTool) (approved PinnedTool, created bool, err error)
	// PinnedTool returns the approved pin of server's tool, or
	// ErrNotFound.
	PinnedTool(ctx context.Context, server, tool string) (PinnedTool, error)
	// PinnedTools returns server's approved pins, by tool.
	PinnedTools(ctx context.Context, server string) ([]PinnedTool, error)
	// SetPendingTools replaces server's pending definitions with ps (all
	// of server; at most one per tool).
	SetPendingTools(ctx context.Context, server string, ps []PendingTool) error
	// PendingTools returns server's pending definitions, by tool.
	PendingTools(ctx context.Context, server string) ([]PendingTool, error)
	// ApproveTool makes the pending definition of server's tool the
	// approved one (by by, at at) and removes it from the pending ones,
	// in one transaction, and returns it; ErrNotFound if none waits.
	ApproveTool(ctx context.Context, server, tool, by string, at time.Time) (PendingTool, error)
	// RepinTool replaces the approved hash of server's tool with p.Hash
	// (approved by p.By at p.Approved) if it is still from: one
	// conditional write. updated is false, and nothing changes, when the
	// tool has no pin or another hash.
	RepinTool(ctx context.Context, p PinnedTool, from string) (updated bool, err error)
}

// CheckPin returns why p cannot be pinned, or nil.
func CheckPin(p PinnedTool) error {
	if err := checkPinName(p.Server, p.Tool); err != nil {
		return err
	}
	switch {
	case !pinHash(p.Hash):
		return invalidState("hash %.80q is not 64 lower-case hex digits", p.Hash)
	case !representable(p.Approved):
		return invalidState("approved at %v, outside the years 1678-2262", p.Approved)
	case len(p.By) > MaxPinTool:
		return invalidState("approver of %d bytes", len(p.By))
	}
	return nil
}

// CheckApproval returns why an approval by by at at cannot be recorded
// (ApproveTool), or nil.
func CheckApproval(by string, at time.Time) error {
	switch {
	case !representable(at):
		return invalidState("approved at %v, outside the years 1678-2262", at)
	case len(by) > MaxPinTool:
		return invalidState("approver of %d bytes", len(by))
	}
	return nil
}

// CheckPending returns why server's pending definitions cannot be ps, or
// nil.
func CheckPending(server string, ps []PendingTool) error {
	tools := map[string]bool{}
	for _, p := range ps {
		if p.Server != server {
			return invalidState("a pending definition of server %.64q among %.64q's", p.Server, server)
		}
		if err := checkPinName(p.Server, p.Tool); err != nil {
			return err
		}
		switch {
		case tools[p.Tool]:
			return invalidState("two pending definitions of %.64q", p.Tool)
		case !pinHash(p.Hash) || !pinHash(p.ApprovedHash):
			return invalidState("pending %.64q: hashes are not 64 lower-case hex digits", p.Tool)
		case !representable(p.Seen):
			return invalidState("pending %.64q: seen at %v, outside the years 1678-2262", p.Tool, p.Seen)
		case !json.Valid(p.Def):
			return invalidState("pending %.64q: the definition is not JSON", p.Tool)
		}
		tools[p.Tool] = true
	}
	return nil
}

func checkPinName(server, tool string) error {
	switch {
	case server == "" || len(server) > MaxPinServer:
		return invalidState("server name of %d bytes", len(server))
	case tool == "" || len(tool) > MaxPinTool:
		return invalidState("tool name of %d bytes", len(tool))
	}
	return nil
}

func pinHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	for i := range len(h) {
		if c := h[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
