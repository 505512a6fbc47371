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
			stored := filterRow(st, 0)
			stored.MergeInto(f, b)
			return nil
		})
	if err != nil {
		return err
	}
	_, err = tx.exec(`INSERT OR REPLACE INTO oracle_filters (kind, bands, band_bits, seed, hashes, bits, items, words, saved_ns)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, kind, f.Bands, f.Rows, int64(f.Seed), b.Hashes, b.Bits, b.Items, b.Words, at)
	return err
}

// filterRow reads the columns bands, band_bits, seed, hashes, bits, items
// and words from column i on. The words are st's until its next step.
func filterRow(st *sqlite3.Stmt, i int) store.FilterRow {
	return store.FilterRow{Bands: st.ColumnInt(i), Rows: st.ColumnInt(i + 1), Seed: uint64(st.ColumnInt64(i + 2)),
		Bloom: oracle.BloomState{Hashes: st.ColumnInt(i + 3), Bits: uint64(st.ColumnInt64(i + 4)), Items: uint64(st.ColumnInt64(i + 5)),
			Words: st.ColumnRawBlob(i + 6)}}
}

// OracleFilters returns the stored filters.
func (s *Store) OracleFilters(ctx context.Context) (oracle.Filters, bool, error) {
	var rows store.FilterRows
	err := s.r.query(ctx, `SELECT kind, bands, band_bits, seed, hashes, bits, items, words FROM oracle_filters ORDER BY kind`, nil,
		func(st *sqlite3.Stmt) error {
			r := filterRow(st, 1)
			r.Bloom.Words = st.ColumnBlob(7, nil) // a copy: kept past this row
			return rows.Add(st.ColumnText(0), r)
		})
	if err != nil {
		return oracle.Filters{}, false, fmt.Errorf("sqlite: oracle filters: %w", err)
	}
	f, ok, err := rows.Filters()
	if err != nil {
		return oracle.Filters{}, false, fmt.Errorf("sqlite: oracle filters: %w", err)
	}
	return f, ok, nil
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
