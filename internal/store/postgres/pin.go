package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/store"
)

// Upstream pins. Pinning is INSERT ... ON CONFLICT DO NOTHING and then a
// read of the row in a new statement, which in READ COMMITTED sees the
// pin of whichever instance won: of any number of pinners of one tool
// exactly one creates it and all return it. A repin is one conditional
// UPDATE (hash = from). Approving claims the pending row with DELETE ...
// RETURNING, so of concurrent approvals of one definition exactly one
// finds it. Replacing a server's pending definitions takes the server's
// lock, so two replacements do not interleave.

const pinColumns = `server, tool, hash, approved_ns, coalesce(approved_by, '')`

func scanPin(row pgx.CollectableRow) (store.PinnedTool, error) {
	var (
		p  store.PinnedTool
		ns int64
	)
	err := row.Scan(&p.Server, &p.Tool, &p.Hash, &ns, &p.By)
	p.Approved = time.Unix(0, ns).UTC()
	return p, err
}

// PinTool durably approves p unless its tool has an approved pin (see
// store.Pins).
func (s *Store) PinTool(ctx context.Context, p store.PinnedTool) (store.PinnedTool, bool, error) {
	if err := s.ok(); err != nil {
		return store.PinnedTool{}, false, err
	}
	if err := store.CheckPin(p); err != nil {
		return store.PinnedTool{}, false, fmt.Errorf("postgres: pin tool: %w", err)
	}
	var (
		got     store.PinnedTool
		created bool
	)
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO upstream_pins (server, tool, hash, approved_ns, approved_by) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (server, tool) DO NOTHING`, p.Server, p.Tool, p.Hash, p.Approved.UnixNano(), null(p.By))
		if err != nil {
			return err
		}
		created = tag.RowsAffected() == 1
		rows, err := tx.Query(ctx, `SELECT `+pinColumns+` FROM upstream_pins WHERE server = $1 AND tool = $2`, p.Server, p.Tool)
		if err != nil {
			return err
		}
		got, err = pgx.CollectExactlyOneRow(rows, scanPin)
		if errors.Is(err, pgx.ErrNoRows) {
			err = errors.New("the pin vanished")
		}
		return err
	})
	if err != nil {
		return store.PinnedTool{}, false, fmt.Errorf("postgres: pin %s of %s: %w", p.Tool, p.Server, err)
	}
	return got, created, nil
}

// RepinTool durably moves the pin of p's tool from hash from to p.Hash
// (see store.Pins) with one conditional UPDATE.
func (s *Store) RepinTool(ctx context.Context, p store.PinnedTool, from string) (bool, error) {
	if err := s.ok(); err != nil {
		return false, err
	}
	if err := store.CheckPin(p); err != nil {
		return false, fmt.Errorf("postgres: repin tool: %w", err)
	}
	tag, err := s.pool.Exec(ctx, `UPDATE upstream_pins SET hash = $1, approved_ns = $2, approved_by = $3
WHERE server = $4 AND tool = $5 AND hash = $6`, p.Hash, p.Approved.UnixNano(), null(p.By), p.Server, p.Tool, from)
	if err != nil {
		return false, fmt.Errorf("postgres: repin %s of %s: %w", p.Tool, p.Server, err)
	}
	return tag.RowsAffected() == 1, nil
}

// PinnedTool returns the approved pin of server's tool, or an error
// wrapping store.ErrNotFound.
func (s *Store) PinnedTool(ctx context.Context, server, tool string) (store.PinnedTool, error) {
	if err := s.ok(); err != nil {
		return store.PinnedTool{}, err
	}
	p, err := queryOne(ctx, s.pool, scanPin, `SELECT `+pinColumns+` FROM upstream_pins WHERE server = $1 AND tool = $2`, server, tool)
	if err != nil {
		return store.PinnedTool{}, fmt.Errorf("postgres: pin %.64s of %.64s: %w", tool, server, err)
	}
	return p, nil
}

// PinnedTools returns server's approved pins, by tool.
func (s *Store) PinnedTools(ctx context.Context, server string) ([]store.PinnedTool, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	out, err := queryRows(ctx, s.pool, scanPin, `SELECT `+pinColumns+` FROM upstream_pins WHERE server = $1 ORDER BY tool`, server)
	if err != nil {
		return nil, fmt.Errorf("postgres: pins of %.64s: %w", server, err)
	}
	return out, nil
}

// SetPendingTools durably replaces server's pending definitions.
func (s *Store) SetPendingTools(ctx context.Context, server string, ps []store.PendingTool) error {
	if err := s.ok(); err != nil {
		return err
	}
	if err := store.CheckPending(server, ps); err != nil {
		return fmt.Errorf("postgres: pending tools of %.64s: %w", server, err)
	}
	ps = slices.Clone(ps)
	for i := range ps {
		// Valid JSON (CheckPending) always compacts.
		var b bytes.Buffer
		if err := json.Compact(&b, ps[i].Def); err != nil {
			return fmt.Errorf("postgres: pending tools of %.64s: %w", server, err)
		}
		ps[i].Def = b.Bytes()
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := xlock(ctx, tx, lockLearnt, "pending:"+server); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM upstream_pending WHERE server = $1`, server); err != nil {
			return err
		}
		for _, p := range ps {
			_, err := tx.Exec(ctx, `INSERT INTO upstream_pending (server, tool, hash, approved_hash, seen_ns, definition)
VALUES ($1, $2, $3, $4, $5, $6)`, p.Server, p.Tool, p.Hash, p.ApprovedHash, p.Seen.UnixNano(), string(p.Def))
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: pending tools of %.64s: %w", server, err)
	}
	return nil
}

const pendingColumns = `server, tool, hash, approved_hash, seen_ns, definition`

func scanPending(row pgx.CollectableRow) (store.PendingTool, error) {
	var (
		p   store.PendingTool
		ns  int64
		def string
	)
	err := row.Scan(&p.Server, &p.Tool, &p.Hash, &p.ApprovedHash, &ns, &def)
	p.Seen, p.Def = time.Unix(0, ns).UTC(), json.RawMessage(def)
	return p, err
}

// PendingTools returns server's pending definitions, by tool.
func (s *Store) PendingTools(ctx context.Context, server string) ([]store.PendingTool, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	out, err := queryRows(ctx, s.pool, scanPending, `SELECT `+pendingColumns+` FROM upstream_pending WHERE server = $1 ORDER BY tool`, server)
	if err != nil {
		return nil, fmt.Errorf("postgres: pending tools of %.64s: %w", server, err)
	}
	return out, nil
}

// ApproveTool durably makes the pending definition of server's tool the
// approved one: it claims the pending row with DELETE ... RETURNING and
// pins its hash in the same transaction; ErrNotFound if none waits.
func (s *Store) ApproveTool(ctx context.Context, server, tool, by string, at time.Time) (store.PendingTool, error) {
	if err := s.ok(); err != nil {
		return store.PendingTool{}, err
	}
	if err := store.CheckApproval(by, at); err != nil {
		return store.PendingTool{}, fmt.Errorf("postgres: approve %.64s of %.64s: %w", tool, server, err)
	}
	var p store.PendingTool
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		p, err = queryOne(ctx, tx, scanPending, `DELETE FROM upstream_pending WHERE server = $1 AND tool = $2 RETURNING `+pendingColumns, server, tool)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO upstream_pins (server, tool, hash, approved_ns, approved_by) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (server, tool) DO UPDATE SET hash = EXCLUDED.hash, approved_ns = EXCLUDED.approved_ns, approved_by = EXCLUDED.approved_by`,
			server, tool, p.Hash, at.UnixNano(), null(by))
		return err
	})
	if err != nil {
		return store.PendingTool{}, fmt.Errorf("postgres: approve %.64s of %.64s: %w", tool, server, err)
	}
	return p, nil
}
