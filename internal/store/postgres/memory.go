package postgres

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/oracle"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
)

// SaveMemory durably stores the oracle's filters and appends immune
// signatures (see store.Memory). It holds the memory's lock while it reads
// the stored filters and writes their OR, so that what two instances learn
// at once is merged, never one overwriting the other.
func (s *Store) SaveMemory(ctx context.Context, f *oracle.Filters, sigs []oracle.Signature, keep int, at time.Time) error {
	if err := s.ok(); err != nil {
		return err
	}
	if err := store.CheckMemory(f, sigs, keep, at); err != nil {
		return fmt.Errorf("postgres: save memory: %w", err)
	}
	sigs = slices.Clone(sigs)
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := xlock(ctx, tx, lockLearnt, "memory"); err != nil {
			return err
		}
		if f != nil {
			// Copies: fn may run again, and the caller keeps f.
			c := *f
			c.Exact.Words, c.Similar.Words = bytes.Clone(f.Exact.Words), bytes.Clone(f.Similar.Words)
			if err := saveFilter(ctx, tx, "exact", &c, &c.Exact, at); err != nil {
				return err
			}
			if err := saveFilter(ctx, tx, "similar", &c, &c.Similar, at); err != nil {
				return err
			}
		}
		for i := range sigs {
			g := &sigs[i]
			var sketch [16]byte
			binary.BigEndian.PutUint64(sketch[:], g.Sketch[0])
			binary.BigEndian.PutUint64(sketch[8:], g.Sketch[1])
			if _, err := tx.Exec(ctx, `INSERT INTO immune_signatures (id, class, centroid, sketch, dim, attack, reason, recorded_ns)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, g.ID[:], g.Class[:], g.Centroid[:], sketch[:], int64(g.Dim), g.Attack.String(),
				string(g.Reason), at.UnixNano()); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `DELETE FROM immune_signatures WHERE seq IN (SELECT seq FROM immune_signatures ORDER BY seq DESC OFFSET $1)`, keep)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: save memory: %w", err)
	}
	return nil
}

// saveFilter stores b as the filter kind, ORed into the stored one when
// the banding, seed and size are the same (the item count is then the
// larger of the two), else replacing it. b's words may be changed.
func saveFilter(ctx context.Context, tx pgx.Tx, kind string, f *oracle.Filters, b *oracle.BloomState, at time.Time) error {
	var (
		bands, rows, hashes int
		seed, bits, items   int64
		old                 []byte
	)
	err := tx.QueryRow(ctx, `SELECT bands, band_bits, seed, hashes, bits, items, words FROM oracle_filters WHERE kind = $1`, kind).
		Scan(&bands, &rows, &seed, &hashes, &bits, &items, &old)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return err
	case bands == f.Bands && rows == f.Rows && uint64(seed) == f.Seed && hashes == b.Hashes && uint64(bits) == b.Bits &&
		len(old) == len(b.Words):
		for i := range old {
			b.Words[i] |= old[i]
		}
		b.Items = max(b.Items, uint64(items))
	}
	_, err = tx.Exec(ctx, `INSERT INTO oracle_filters (kind, bands, band_bits, seed, hashes, bits, items, words, saved_ns)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (kind) DO UPDATE SET bands = EXCLUDED.bands, band_bits = EXCLUDED.band_bits, seed = EXCLUDED.seed,
  hashes = EXCLUDED.hashes, bits = EXCLUDED.bits, items = EXCLUDED.items, words = EXCLUDED.words, saved_ns = EXCLUDED.saved_ns`,
		kind, f.Bands, f.Rows, int64(f.Seed), b.Hashes, int64(b.Bits), int64(b.Items), b.Words, at.UnixNano())
	return err
}

// OracleFilters returns the stored filters.
func (s *Store) OracleFilters(ctx context.Context) (oracle.Filters, bool, error) {
	if err := s.ok(); err != nil {
		return oracle.Filters{}, false, err
	}
	rows, err := s.pool.Query(ctx, `SELECT kind, bands, band_bits, seed, hashes, bits, items, words FROM oracle_filters ORDER BY kind`)
	if err != nil {
		return oracle.Filters{}, false, fmt.Errorf("postgres: oracle filters: %w", err)
	}
	var (
		f                  oracle.Filters
		kinds              []string
		kind               string
		bands, rws, hashes int
		seed, bits, items  int64
		words              []byte
	)
	_, err = pgx.ForEachRow(rows, []any{&kind, &bands, &rws, &seed, &hashes, &bits, &items, &words}, func() error {
		if len(kinds) > 0 && (bands != f.Bands || rws != f.Rows || uint64(seed) != f.Seed) {
			return errors.New("the filters' banding or seed differ")
		}
		f.Bands, f.Rows, f.Seed = bands, rws, uint64(seed)
		b := oracle.BloomState{Hashes: hashes, Bits: uint64(bits), Items: uint64(items), Words: bytes.Clone(words)}
		if kind == "exact" {
			f.Exact = b
		} else {
			f.Similar = b
		}
		kinds = append(kinds, kind)
		return nil
	})
	switch {
	case err != nil:
		return oracle.Filters{}, false, fmt.Errorf("postgres: oracle filters: %w", err)
	case len(kinds) == 0:
		return oracle.Filters{}, false, nil
	case len(kinds) != 2:
		return oracle.Filters{}, false, fmt.Errorf("postgres: oracle filters: only the %s filter is stored", kinds[0])
	}
	return f, true, nil
}

// ImmuneSignatures returns the stored signatures, oldest first.
func (s *Store) ImmuneSignatures(ctx context.Context) ([]oracle.Signature, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT id, class, centroid, sketch, dim, attack, reason FROM immune_signatures ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("postgres: immune signatures: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (oracle.Signature, error) {
		var (
			g                           oracle.Signature
			id, class, centroid, sketch []byte
			dim                         int64
			attack, why                 string
		)
		if err := row.Scan(&id, &class, &centroid, &sketch, &dim, &attack, &why); err != nil {
			return g, err
		}
		if len(id) != len(g.ID) || len(class) != len(g.Class) || len(centroid) != len(g.Centroid) || len(sketch) != 16 {
			return g, errors.New("a stored signature's hashes are of the wrong size")
		}
		copy(g.ID[:], id)
		copy(g.Class[:], class)
		copy(g.Centroid[:], centroid)
		g.Sketch = [2]uint64{binary.BigEndian.Uint64(sketch), binary.BigEndian.Uint64(sketch[8:])}
		g.Dim = uint32(dim)
		g.Reason = reason.Code(why)
		return g, g.Attack.UnmarshalText([]byte(attack))
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: immune signatures: %w", err)
	}
	return out, nil
}
