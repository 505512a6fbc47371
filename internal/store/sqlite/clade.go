package sqlite

import (
	"context"
	"fmt"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

// VoteClade durably records a member's vote and, once, the sharer's
// demotion (see store.Clade).
func (s *Store) VoteClade(ctx context.Context, v store.CladeVote, d *store.CladeDemotion) (bool, error) {
	if err := store.CheckCladeVote(v, d); err != nil {
		return false, fmt.Errorf("sqlite: clade vote: %w", err)
	}
	var dem *store.CladeDemotion
	if d != nil {
		c := *d
		dem = &c
	}
	demoted := false
	err := s.do(ctx, func(tx *wtx) error {
		demoted = false
		if _, err := tx.exec(`INSERT OR REPLACE INTO clade_votes (entry_id, member, rejected, voted_ns) VALUES (?, ?, ?, ?)`,
			v.EntryID, v.Member, v.Rejected, v.At); err != nil {
			return err
		}
		n, err := tx.exec(`INSERT INTO clade_entries (entry_id) VALUES (?) ON CONFLICT (entry_id) DO NOTHING`, v.EntryID)
		if err != nil {
			return err
		}
		if n == 1 {
			if err := forgetCladeEntries(tx); err != nil {
				return err
			}
		}
		if dem == nil {
			return nil
		}
		demoted, err = demote(tx, dem)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("sqlite: clade vote on %s: %w", v.EntryID, err)
	}
	return demoted, nil
}

// forgetCladeEntries deletes the votes on the entries beyond the newest
// store.MaxCladeEntries.
func forgetCladeEntries(tx *wtx) error {
	last, err := tx.int64(`SELECT max(seq) FROM clade_entries`)
	if err != nil {
		return err
	}
	cut := last - store.MaxCladeEntries
	if cut < 1 {
		return nil
	}
	if _, err := tx.exec(`DELETE FROM clade_votes WHERE entry_id IN (SELECT entry_id FROM clade_entries WHERE seq <= ?)`, cut); err != nil {
		return err
	}
	_, err = tx.exec(`DELETE FROM clade_entries WHERE seq <= ?`, cut)
	return err
}

// demote records d unless its entry's sharer was demoted for it.
func demote(tx *wtx, d *store.CladeDemotion) (bool, error) {
	n, err := tx.exec(`INSERT INTO clade_demotions (entry_id, member, amount, demoted_ns) VALUES (?, ?, ?, ?)
ON CONFLICT (entry_id) DO NOTHING`, d.EntryID, d.Member, d.By, d.At)
	return n == 1, err
}

// DemoteSharer durably records d unless a demotion for its entry exists.
func (s *Store) DemoteSharer(ctx context.Context, d store.CladeDemotion) (bool, error) {
	if err := store.CheckCladeDemotion(d); err != nil {
		return false, fmt.Errorf("sqlite: demote sharer: %w", err)
	}
	demoted := false
	err := s.do(ctx, func(tx *wtx) error {
		var err error
		demoted, err = demote(tx, &d)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("sqlite: demote sharer of %s: %w", d.EntryID, err)
	}
	return demoted, nil
}

// CladeVotes returns every vote, the entry first voted on first.
func (s *Store) CladeVotes(ctx context.Context) ([]store.CladeVote, error) {
	var out []store.CladeVote
	err := s.r.query(ctx, `SELECT v.entry_id, v.member, v.rejected, v.voted_ns FROM clade_votes v
JOIN clade_entries e USING (entry_id) ORDER BY e.seq, v.member`, nil, func(st *sqlite3.Stmt) error {
		out = append(out, store.CladeVote{EntryID: st.ColumnText(0), Member: st.ColumnText(1), Rejected: st.ColumnBool(2), At: nsTime(st, 3)})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: clade votes: %w", err)
	}
	return out, nil
}

// CladeDemotions returns every demotion, oldest first.
func (s *Store) CladeDemotions(ctx context.Context) ([]store.CladeDemotion, error) {
	var out []store.CladeDemotion
	err := s.r.query(ctx, `SELECT entry_id, member, amount, demoted_ns FROM clade_demotions ORDER BY demoted_ns, entry_id`, nil,
		func(st *sqlite3.Stmt) error {
			out = append(out, store.CladeDemotion{EntryID: st.ColumnText(0), Member: st.ColumnText(1), By: st.ColumnFloat(2), At: nsTime(st, 3)})
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("sqlite: clade demotions: %w", err)
	}
	return out, nil
}
