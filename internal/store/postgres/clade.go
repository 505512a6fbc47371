package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/store"
)

// The clade. A vote is an upsert on (entry, member), so a member's later
// vote replaces its earlier one from whichever instance it comes; a
// demotion is INSERT ... ON CONFLICT (entry) DO NOTHING, so of concurrent
// demotions for one share, from any number of instances, exactly one is
// recorded.
//
// The bound. An entry's seq is its order of first vote. The votes of the
// entries beyond the newest store.MaxCladeEntries by seq are forgotten in
// two ways that need no lock across instances (so that votes on
// different entries commit in parallel): CladeVotes reads only the newest
// store.MaxCladeEntries, which makes the bound exact for every reader,
// and each first vote deletes the entries beyond them in its own
// snapshot (their votes go with them, ON DELETE CASCADE), which keeps
// the tables bounded. The delete never removes an entry within the
// bound: rows a snapshot misses only make the rows it sees rank newer.
// A vote locks its entry's row (the upsert), so an entry is never deleted
// between the vote's check for it and the vote's insert.

// VoteClade durably records a member's vote and, once, the sharer's
// demotion (see store.Clade).
func (s *Store) VoteClade(ctx context.Context, v store.CladeVote, d *store.CladeDemotion) (bool, error) {
	if err := s.ok(); err != nil {
		return false, err
	}
	if err := store.CheckCladeVote(v, d); err != nil {
		return false, fmt.Errorf("postgres: clade vote: %w", err)
	}
	var dem *store.CladeDemotion
	if d != nil {
		c := *d
		dem = &c
	}
	demoted := false
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		demoted = false
		var first bool
		err := tx.QueryRow(ctx, `INSERT INTO clade_entries (entry_id) VALUES ($1)
ON CONFLICT (entry_id) DO UPDATE SET entry_id = EXCLUDED.entry_id RETURNING xmax = 0`, v.EntryID).Scan(&first)
		if err != nil {
			return err
		}
		if first {
			if _, err := tx.Exec(ctx, `DELETE FROM clade_entries WHERE seq <= (
  SELECT seq FROM clade_entries ORDER BY seq DESC OFFSET $1 LIMIT 1)`, store.MaxCladeEntries); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO clade_votes (entry_id, member, rejected, voted_ns) VALUES ($1, $2, $3, $4)
ON CONFLICT (entry_id, member) DO UPDATE SET rejected = EXCLUDED.rejected, voted_ns = EXCLUDED.voted_ns`,
			v.EntryID, v.Member, v.Rejected, v.At.UnixNano()); err != nil {
			return err
		}
		if dem == nil {
			return nil
		}
		demoted, err = demote(ctx, tx, dem)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("postgres: clade vote on %s: %w", v.EntryID, err)
	}
	return demoted, nil
}

// demote records d unless its entry's sharer was demoted for it.
func demote(ctx context.Context, q querier, d *store.CladeDemotion) (bool, error) {
	tag, err := q.Exec(ctx, `INSERT INTO clade_demotions (entry_id, member, amount, demoted_ns) VALUES ($1, $2, $3, $4)
ON CONFLICT (entry_id) DO NOTHING`, d.EntryID, d.Member, d.By, d.At.UnixNano())
	return err == nil && tag.RowsAffected() == 1, err
}

// DemoteSharer durably records d unless a demotion for its entry exists.
func (s *Store) DemoteSharer(ctx context.Context, d store.CladeDemotion) (bool, error) {
	if err := s.ok(); err != nil {
		return false, err
	}
	if err := store.CheckCladeDemotion(d); err != nil {
		return false, fmt.Errorf("postgres: demote sharer: %w", err)
	}
	demoted, err := demote(ctx, s.pool, &d)
	if err != nil {
		return false, fmt.Errorf("postgres: demote sharer of %s: %w", d.EntryID, err)
	}
	return demoted, nil
}

func scanCladeVote(row pgx.CollectableRow) (store.CladeVote, error) {
	var (
		v  store.CladeVote
		ns int64
	)
	err := row.Scan(&v.EntryID, &v.Member, &v.Rejected, &ns)
	v.At = time.Unix(0, ns).UTC()
	return v, err
}

// CladeVotes returns every vote, the entry first voted on first.
func (s *Store) CladeVotes(ctx context.Context) ([]store.CladeVote, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	out, err := queryRows(ctx, s.pool, scanCladeVote, `SELECT v.entry_id, v.member, v.rejected, v.voted_ns FROM clade_votes v
JOIN (SELECT entry_id, seq FROM clade_entries ORDER BY seq DESC LIMIT $1) e USING (entry_id) ORDER BY e.seq, v.member`,
		store.MaxCladeEntries)
	if err != nil {
		return nil, fmt.Errorf("postgres: clade votes: %w", err)
	}
	return out, nil
}

func scanCladeDemotion(row pgx.CollectableRow) (store.CladeDemotion, error) {
	var (
		d  store.CladeDemotion
		ns int64
	)
	err := row.Scan(&d.EntryID, &d.Member, &d.By, &ns)
	d.At = time.Unix(0, ns).UTC()
	return d, err
}

// CladeDemotions returns every demotion, oldest first.
func (s *Store) CladeDemotions(ctx context.Context) ([]store.CladeDemotion, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	out, err := queryRows(ctx, s.pool, scanCladeDemotion, `SELECT entry_id, member, amount, demoted_ns FROM clade_demotions ORDER BY demoted_ns, entry_id`)
	if err != nil {
		return nil, fmt.Errorf("postgres: clade demotions: %w", err)
	}
	return out, nil
}
