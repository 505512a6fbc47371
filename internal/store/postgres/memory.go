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
	var stored filterRow
	err := tx.QueryRow(ctx, `SELECT bands, band_bits, seed, hashes, bits, items, words FROM oracle_filters WHERE kind = $1`, kind).
		Scan(stored.dest()...)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return err
	default:
		r := stored.row()
		r.MergeInto(f, b)
	}
	_, err = tx.Exec(ctx, `INSERT INTO oracle_filters (kind, bands, band_bits, seed, hashes, bits, items, words, saved_ns)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (kind) DO UPDATE SET bands = EXCLUDED.bands, band_bits = EXCLUDED.band_bits, seed = EXCLUDED.seed,
  hashes = EXCLUDED.hashes, bits = EXCLUDED.bits, items = EXCLUDED.items, words = EXCLUDED.words, saved_ns = EXCLUDED.saved_ns`,
		kind, f.Bands, f.Rows, int64(f.Seed), b.Hashes, int64(b.Bits), int64(b.Items), b.Words, at.UnixNano())
	return err
}

// filterRow scans the columns bands, band_bits, seed, hashes, bits, items
// and words of oracle_filters.
type filterRow struct {
	bands, rows, hashes int
	seed, bits, items   int64
	words               []byte
}

func (r *filterRow) dest() []any {
	return []any{&r.bands, &r.rows, &r.seed, &r.hashes, &r.bits, &r.items, &r.words}
}

func (r *filterRow) row() store.FilterRow {
	return store.FilterRow{Bands: r.bands, Rows: r.rows, Seed: uint64(r.seed),
		Bloom: oracle.BloomState{Hashes: r.hashes, Bits: uint64(r.bits), Items: uint64(r.items), Words: r.words}}
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
		stored store.FilterRows
		kind   string
		r      filterRow
	)
	_, err = pgx.ForEachRow(rows, append([]any{&kind}, r.dest()...), func() error {
		row := r.row()
		row.Bloom.Words = bytes.Clone(r.words)
		return stored.Add(kind, row)
	})
	if err != nil {
		return oracle.Filters{}, false, fmt.Errorf("postgres: oracle filters: %w", err)
	}
	f, ok, err := stored.Filters()
	if err != nil {
		return oracle.Filters{}, false, fmt.Errorf("postgres: oracle filters: %w", err)
	}
	return f, ok, nil
}

func scanSignature(row pgx.CollectableRow) (oracle.Signature, error) {
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
}

// ImmuneSignatures returns the stored signatures, oldest first.
func (s *Store) ImmuneSignatures(ctx context.Context) ([]oracle.Signature, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	out, err := queryRows(ctx, s.pool, scanSignature, `SELECT id, class, centroid, sketch, dim, attack, reason FROM immune_signatures ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("postgres: immune signatures: %w", err)
	}
	return out, nil
}
