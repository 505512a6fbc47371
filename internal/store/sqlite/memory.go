package sqlite

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/oracle"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
)

// SaveMemory durably stores the oracle's filters and appends immune
// signatures (see store.Memory).
func (s *Store) SaveMemory(ctx context.Context, f *oracle.Filters, sigs []oracle.Signature, keep int, at time.Time) error {
	if err := store.CheckMemory(f, sigs, keep, at); err != nil {
		return fmt.Errorf("sqlite: save memory: %w", err)
	}
	var fs *oracle.Filters
	if f != nil {
		c := *f
		c.Exact.Words, c.Similar.Words = bytes.Clone(f.Exact.Words), bytes.Clone(f.Similar.Words)
		fs = &c
	}
	sigs = slices.Clone(sigs)
	err := s.do(ctx, func(tx *wtx) error {
		if fs != nil {
			if err := saveFilter(tx, "exact", fs, &fs.Exact, at); err != nil {
				return err
			}
			if err := saveFilter(tx, "similar", fs, &fs.Similar, at); err != nil {
				return err
			}
		}
		for i := range sigs {
			g := &sigs[i]
			attack, err := signatureAttack(g.Attack)
			if err != nil {
				return answer(err)
			}
			var sketch [16]byte
			binary.BigEndian.PutUint64(sketch[:], g.Sketch[0])
			binary.BigEndian.PutUint64(sketch[8:], g.Sketch[1])
			if _, err := tx.exec(`INSERT INTO immune_signatures (id, class, centroid, sketch, dim, attack, reason, recorded_ns)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, g.ID[:], g.Class[:], g.Centroid[:], sketch[:], int64(g.Dim), attack, string(g.Reason), at); err != nil {
				return err
			}
		}
		_, err := tx.exec(`DELETE FROM immune_signatures WHERE seq <= (SELECT max(seq) FROM immune_signatures) - ?`, keep)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: save memory: %w", err)
	}
	return nil
}

// saveFilter stores b as the filter kind, ORed into the stored one when
// the banding, seed and size are the same (the item count is then the
// larger of the two), else replacing it. b's words may be changed.
func saveFilter(tx *wtx, kind string, f *oracle.Filters, b *oracle.BloomState, at time.Time) error {
	_, err := tx.one(`SELECT bands, band_bits, seed, hashes, bits, items, words FROM oracle_filters WHERE kind = ?`, []any{kind},
		func(st *sqlite3.Stmt) error {
			if st.ColumnInt(0) != f.Bands || st.ColumnInt(1) != f.Rows || uint64(st.ColumnInt64(2)) != f.Seed ||
				st.ColumnInt(3) != b.Hashes || uint64(st.ColumnInt64(4)) != b.Bits {
				return nil
			}
			old := st.ColumnRawBlob(6)
			if len(old) != len(b.Words) {
				return nil
			}
			for i := range old {
				b.Words[i] |= old[i]
			}
			b.Items = max(b.Items, uint64(st.ColumnInt64(5)))
			return nil
		})
	if err != nil {
		return err
	}
	_, err = tx.exec(`INSERT OR REPLACE INTO oracle_filters (kind, bands, band_bits, seed, hashes, bits, items, words, saved_ns)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, kind, f.Bands, f.Rows, int64(f.Seed), b.Hashes, b.Bits, b.Items, b.Words, at)
	return err
}

// OracleFilters returns the stored filters.
func (s *Store) OracleFilters(ctx context.Context) (oracle.Filters, bool, error) {
	var (
		f     oracle.Filters
		kinds []string
	)
	err := s.r.query(ctx, `SELECT kind, bands, band_bits, seed, hashes, bits, items, words FROM oracle_filters ORDER BY kind`, nil,
		func(st *sqlite3.Stmt) error {
			bands, rows, seed := st.ColumnInt(1), st.ColumnInt(2), uint64(st.ColumnInt64(3))
			if len(kinds) > 0 && (bands != f.Bands || rows != f.Rows || seed != f.Seed) {
				return fmt.Errorf("the filters' banding or seed differ")
			}
			f.Bands, f.Rows, f.Seed = bands, rows, seed
			b := oracle.BloomState{Hashes: st.ColumnInt(4), Bits: uint64(st.ColumnInt64(5)), Items: uint64(st.ColumnInt64(6)),
				Words: st.ColumnBlob(7, nil)}
			kind := st.ColumnText(0)
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
		return oracle.Filters{}, false, fmt.Errorf("sqlite: oracle filters: %w", err)
	case len(kinds) == 0:
		return oracle.Filters{}, false, nil
	case len(kinds) != 2:
		return oracle.Filters{}, false, fmt.Errorf("sqlite: oracle filters: only the %s filter is stored", kinds[0])
	}
	return f, true, nil
}

// ImmuneSignatures returns the stored signatures, oldest first.
func (s *Store) ImmuneSignatures(ctx context.Context) ([]oracle.Signature, error) {
	var out []oracle.Signature
	err := s.r.query(ctx, `SELECT id, class, centroid, sketch, dim, attack, reason FROM immune_signatures ORDER BY seq`, nil,
		func(st *sqlite3.Stmt) error {
			var g oracle.Signature
			id, class, centroid, sketch := st.ColumnRawBlob(0), st.ColumnRawBlob(1), st.ColumnRawBlob(2), st.ColumnRawBlob(3)
			if len(id) != len(g.ID) || len(class) != len(g.Class) || len(centroid) != len(g.Centroid) || len(sketch) != 16 {
				return fmt.Errorf("signature %d: stored hashes of the wrong size", len(out))
			}
			copy(g.ID[:], id)
			copy(g.Class[:], class)
			copy(g.Centroid[:], centroid)
			g.Sketch = [2]uint64{binary.BigEndian.Uint64(sketch), binary.BigEndian.Uint64(sketch[8:])}
			g.Dim = uint32(st.ColumnInt64(4))
			attack, err := parseSignatureAttack(st.ColumnRawText(5))
			if err != nil {
				return err
			}
			g.Attack = attack
			g.Reason = reason.Code(st.ColumnText(6))
			out = append(out, g)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("sqlite: immune signatures: %w", err)
	}
	return out, nil
}

// signatureAttack is a's name in immune_signatures.attack, whose CHECK
// calls knowledge.NoAttack "unknown" (the name of oracle's own attack enum
// when the table was made).
func signatureAttack(a knowledge.AttackType) (string, error) {
	if a == knowledge.NoAttack {
		return "unknown", nil
	}
	b, err := a.MarshalText()
	return string(b), err
}

// parseSignatureAttack reverses signatureAttack.
func parseSignatureAttack(b []byte) (knowledge.AttackType, error) {
	var a knowledge.AttackType
	if string(b) == "unknown" {
		return a, nil
	}
	err := a.UnmarshalText(b)
	return a, err
}
