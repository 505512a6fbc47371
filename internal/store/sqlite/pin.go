package sqlite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

// PinTool durably approves p unless its tool has an approved pin (see
// store.Pins).
func (s *Store) PinTool(ctx context.Context, p store.PinnedTool) (store.PinnedTool, bool, error) {
	if err := store.CheckPin(p); err != nil {
		return store.PinnedTool{}, false, fmt.Errorf("sqlite: pin tool: %w", err)
	}
	var (
		got     store.PinnedTool
		created bool
	)
	err := s.do(ctx, func(tx *wtx) error {
		n, err := tx.exec(`INSERT INTO upstream_pins (server, tool, hash, approved_ns, approved_by) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (server, tool) DO NOTHING`, p.Server, p.Tool, p.Hash, p.Approved, textOrNull(p.By))
		if err != nil {
			return err
		}
		created = n == 1
		found, err := tx.one(`SELECT `+pinColumns+` FROM upstream_pins WHERE server = ? AND tool = ?`, []any{p.Server, p.Tool},
			func(st *sqlite3.Stmt) error {
				got = scanPin(st)
				return nil
			})
		if err == nil && !found {
			err = errors.New("the pin vanished")
		}
		return err
	})
	if err != nil {
		return store.PinnedTool{}, false, fmt.Errorf("sqlite: pin %s of %s: %w", p.Tool, p.Server, err)
	}
	return got, created, nil
}

// RepinTool durably moves the pin of p's tool from hash from to p.Hash
// (see store.Pins).
func (s *Store) RepinTool(ctx context.Context, p store.PinnedTool, from string) (bool, error) {
	if err := store.CheckPin(p); err != nil {
		return false, fmt.Errorf("sqlite: repin tool: %w", err)
	}
	var n int64
	err := s.do(ctx, func(tx *wtx) error {
		var err error
		n, err = tx.exec(`UPDATE upstream_pins SET hash = ?, approved_ns = ?, approved_by = ? WHERE server = ? AND tool = ? AND hash = ?`,
			p.Hash, p.Approved, textOrNull(p.By), p.Server, p.Tool, from)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("sqlite: repin %s of %s: %w", p.Tool, p.Server, err)
	}
	return n == 1, nil
}

const pinColumns = `server, tool, hash, approved_ns, coalesce(approved_by, '')`

func scanPin(st *sqlite3.Stmt) store.PinnedTool {
	return store.PinnedTool{Server: st.ColumnText(0), Tool: st.ColumnText(1), Hash: st.ColumnText(2), Approved: nsTime(st, 3), By: st.ColumnText(4)}
}

// PinnedTool returns the approved pin of server's tool.
func (s *Store) PinnedTool(ctx context.Context, server, tool string) (store.PinnedTool, error) {
	var (
		p     store.PinnedTool
		found bool
	)
	err := s.r.query(ctx, `SELECT `+pinColumns+` FROM upstream_pins WHERE server = ? AND tool = ?`, []any{server, tool},
		func(st *sqlite3.Stmt) error {
			p, found = scanPin(st), true
			return nil
		})
	if err == nil && !found {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.PinnedTool{}, fmt.Errorf("sqlite: pin %s of %s: %w", tool, server, err)
	}
	return p, nil
}

// PinnedTools returns server's approved pins, by tool.
func (s *Store) PinnedTools(ctx context.Context, server string) ([]store.PinnedTool, error) {
	var out []store.PinnedTool
	err := s.r.query(ctx, `SELECT `+pinColumns+` FROM upstream_pins WHERE server = ? ORDER BY tool`, []any{server},
		func(st *sqlite3.Stmt) error {
			out = append(out, scanPin(st))
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("sqlite: pins of %.64s: %w", server, err)
	}
	return out, nil
}

// SetPendingTools durably replaces server's pending definitions.
func (s *Store) SetPendingTools(ctx context.Context, server string, ps []store.PendingTool) error {
	if err := store.CheckPending(server, ps); err != nil {
		return fmt.Errorf("sqlite: pending tools of %.64s: %w", server, err)
	}
	ps = slices.Clone(ps)
	for i := range ps {
		ps[i].Def = compactJSON(ps[i].Def)
	}
	err := s.do(ctx, func(tx *wtx) error {
		if _, err := tx.exec(`DELETE FROM upstream_pending WHERE server = ?`, server); err != nil {
			return err
		}
		for _, p := range ps {
			_, err := tx.exec(`INSERT INTO upstream_pending (server, tool, hash, approved_hash, seen_ns, definition) VALUES (?, ?, ?, ?, ?, ?)`,
				p.Server, p.Tool, p.Hash, p.ApprovedHash, p.Seen, string(p.Def))
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: pending tools of %s: %w", server, err)
	}
	return nil
}

// compactJSON is valid JSON b without insignificant space.
func compactJSON(b []byte) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return bytes.Clone(b)
	}
	return buf.Bytes()
}

const pendingColumns = `server, tool, hash, approved_hash, seen_ns, definition`

func scanPending(st *sqlite3.Stmt) store.PendingTool {
	return store.PendingTool{Server: st.ColumnText(0), Tool: st.ColumnText(1), Hash: st.ColumnText(2), ApprovedHash: st.ColumnText(3),
		Seen: nsTime(st, 4), Def: json.RawMessage(st.ColumnText(5))}
}

// PendingTools returns server's pending definitions, by tool.
func (s *Store) PendingTools(ctx context.Context, server string) ([]store.PendingTool, error) {
	var out []store.PendingTool
	err := s.r.query(ctx, `SELECT `+pendingColumns+` FROM upstream_pending WHERE server = ? ORDER BY tool`, []any{server},
		func(st *sqlite3.Stmt) error {
			out = append(out, scanPending(st))
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("sqlite: pending tools of %s: %w", server, err)
	}
	return out, nil
}

// ApproveTool durably makes the pending definition of server's tool the
// approved one.
func (s *Store) ApproveTool(ctx context.Context, server, tool, by string, at time.Time) (store.PendingTool, error) {
	if err := store.CheckApproval(by, at); err != nil {
		return store.PendingTool{}, fmt.Errorf("sqlite: approve %.64s of %.64s: %w", tool, server, err)
	}
	var p store.PendingTool
	err := s.do(ctx, func(tx *wtx) error {
		found, err := tx.one(`SELECT `+pendingColumns+` FROM upstream_pending WHERE server = ? AND tool = ?`, []any{server, tool},
			func(st *sqlite3.Stmt) error {
				p = scanPending(st)
				return nil
			})
		if err != nil {
			return err
		}
		if !found {
			return answer(store.ErrNotFound)
		}
		if _, err := tx.exec(`INSERT OR REPLACE INTO upstream_pins (server, tool, hash, approved_ns, approved_by) VALUES (?, ?, ?, ?, ?)`,
			server, tool, p.Hash, at, textOrNull(by)); err != nil {
			return err
		}
		_, err = tx.exec(`DELETE FROM upstream_pending WHERE server = ? AND tool = ?`, server, tool)
		return err
	})
	if err != nil {
		return store.PendingTool{}, fmt.Errorf("sqlite: approve %.64s of %.64s: %w", tool, server, err)
	}
	return p, nil
}
