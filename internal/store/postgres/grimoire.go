package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/store"
)

// The Grimoire is insert-only but for the adoption record: PutEntry is
// one INSERT ... ON CONFLICT (id) DO NOTHING, so of concurrent puts of an
// id exactly one stores it, and a trigger refuses any change of an
// entry's source or claimed confidence. Embeddings are stored as
// store.EncodeEmbedding's bytes and so round-trip bit for bit.

const grimoireCols = `id, partition, entry_type, content, provenance, confidence, agent, signature, anchor, listing, clade,
  source_ns, embedding, claim, heuristic, created_ns, adoption`

// PutEntry durably stores a copy of g. An entry store.CheckGrimoireEntry
// refuses is refused unwritten; an id that exists fails with an error
// wrapping store.ErrEntryExists.
func (s *Store) PutEntry(ctx context.Context, g *store.GrimoireEntry) error {
	if err := s.ok(); err != nil {
		return err
	}
	if g == nil {
		return errors.New("postgres: put entry: nil entry")
	}
	if err := store.CheckGrimoireEntry(g); err != nil {
		return fmt.Errorf("postgres: put entry: %w: %w", store.ErrInvalidRecord, err)
	}
	e := &g.Entry
	var claim, heuristic, adoption any
	for _, v := range []struct {
		dst *any
		src any
		ok  bool
	}{{&claim, e.Claim, e.Claim != nil}, {&heuristic, e.Heuristic, e.Heuristic != nil}, {&adoption, g.Adoption, g.Adoption != nil}} {
		if !v.ok {
			continue
		}
		b, err := json.Marshal(v.src)
		if err != nil {
			return fmt.Errorf("postgres: put entry %s: %w", e.ID, err)
		}
		*v.dst = string(b)
	}
	var sig any
	if len(e.Source.Signature) > 0 {
		sig = e.Source.Signature
	}
	var emb any
	if b := store.EncodeEmbedding(e.Embedding); b != nil {
		emb = b
	}
	tag, err := s.pool.Exec(ctx, `INSERT INTO grimoire_entries (`+grimoireCols+`)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) ON CONFLICT (id) DO NOTHING`,
		e.ID, g.Partition.String(), e.Type.String(), e.Content, e.Source.Provenance.String(), e.Confidence,
		null(e.Source.Agent), sig, null(e.Source.Anchor), null(e.Source.ListingID), null(e.Source.CladeID),
		e.Source.Timestamp.UnixNano(), emb, claim, heuristic, g.Created.UnixNano(), adoption)
	if err == nil && tag.RowsAffected() == 0 {
		err = store.ErrEntryExists
	}
	if err != nil {
		return fmt.Errorf("postgres: put entry %s: %w", e.ID, err)
	}
	return nil
}

// Entry returns the Grimoire entry with id, or an error wrapping
// store.ErrNotFound.
func (s *Store) Entry(ctx context.Context, id string) (*store.GrimoireEntry, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	g, err := queryOne(ctx, s.pool, scanGrimoire, `SELECT `+grimoireCols+` FROM grimoire_entries WHERE id = $1`, id)
	if err != nil {
		return nil, fmt.Errorf("postgres: entry %s: %w", id, err)
	}
	return &g, nil
}

// Entries returns partition's entries, newest first (by creation, then
// id), up to limit (0: all).
func (s *Store) Entries(ctx context.Context, partition knowledge.Partition, limit int) ([]store.GrimoireEntry, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	if !partition.Valid() {
		return nil, fmt.Errorf("postgres: entries: %w", store.Invalid("partition %d", uint8(partition)))
	}
	if limit < 0 {
		return nil, fmt.Errorf("postgres: entries: negative limit %d", limit)
	}
	out, err := queryRows(ctx, s.pool, scanGrimoire, `SELECT `+grimoireCols+` FROM grimoire_entries WHERE partition = $1
ORDER BY created_ns DESC, id DESC LIMIT $2`, partition.String(), limitArg(limit))
	if err != nil {
		return nil, fmt.Errorf("postgres: entries of %s: %w", partition, err)
	}
	return out, nil
}

// limitArg is a LIMIT's argument: NULL (no limit) for 0.
func limitArg(n int) any {
	if n == 0 {
		return nil
	}
	return int64(n)
}

// scanGrimoire reads a row of grimoireCols.
func scanGrimoire(row pgx.CollectableRow) (store.GrimoireEntry, error) {
	var (
		g                             store.GrimoireEntry
		partition, typ, provenance    string
		agent, anchor, listing, clade *string
		claim, heuristic, adoption    *string
		sig, emb                      []byte
		sourceNs, createdNs           int64
	)
	e := &g.Entry
	if err := row.Scan(&e.ID, &partition, &typ, &e.Content, &provenance, &e.Confidence, &agent, &sig, &anchor, &listing, &clade,
		&sourceNs, &emb, &claim, &heuristic, &createdNs, &adoption); err != nil {
		return g, err
	}
	errs := []error{
		g.Partition.UnmarshalText([]byte(partition)),
		e.Type.UnmarshalText([]byte(typ)),
		e.Source.Provenance.UnmarshalText([]byte(provenance)),
	}
	e.Source.Agent, e.Source.Anchor, e.Source.ListingID, e.Source.CladeID = text(agent), text(anchor), text(listing), text(clade)
	if len(sig) > 0 {
		e.Source.Signature = slices.Clip(sig)
	}
	e.Source.Timestamp = time.Unix(0, sourceNs).UTC()
	var err error
	e.Embedding, err = store.DecodeEmbedding(emb)
	errs = append(errs, err)
	if claim != nil {
		e.Claim = new(knowledge.Claim)
		errs = append(errs, json.Unmarshal([]byte(*claim), e.Claim))
	}
	if heuristic != nil {
		e.Heuristic = new(knowledge.Heuristic)
		errs = append(errs, json.Unmarshal([]byte(*heuristic), e.Heuristic))
	}
	g.Created = time.Unix(0, createdNs).UTC()
	if adoption != nil {
		g.Adoption = new(adopt.Record)
		errs = append(errs, json.Unmarshal([]byte(*adoption), g.Adoption))
	}
	if err := errors.Join(errs...); err != nil {
		return g, fmt.Errorf("stored entry %s: %w", e.ID, err)
	}
	return g, nil
}

// PutAdoption durably sets the adoption record of the existing entry r.ID
// with one UPDATE; an error wraps store.ErrNotFound when there is no such
// entry. A record store.CheckAdoption refuses is refused unwritten.
func (s *Store) PutAdoption(ctx context.Context, r *adopt.Record) error {
	if err := s.ok(); err != nil {
		return err
	}
	if r == nil {
		return errors.New("postgres: put adoption: nil record")
	}
	if err := store.CheckAdoption(r); err != nil {
		return fmt.Errorf("postgres: put adoption: %w: %w", store.ErrInvalidRecord, err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("postgres: put adoption %s: %w", r.ID, err)
	}
	tag, err := s.pool.Exec(ctx, `UPDATE grimoire_entries SET adoption = $1 WHERE id = $2`, string(b), r.ID)
	if err == nil && tag.RowsAffected() == 0 {
		err = store.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("postgres: put adoption %s: %w", r.ID, err)
	}
	return nil
}

// DeleteEntry durably deletes the Grimoire entry id with its adoption
// record; an error wraps store.ErrNotFound when there is no such entry.
func (s *Store) DeleteEntry(ctx context.Context, id string) error {
	if err := s.ok(); err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `DELETE FROM grimoire_entries WHERE id = $1`, id)
	if err == nil && tag.RowsAffected() == 0 {
		err = store.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("postgres: delete entry %s: %w", id, err)
	}
	return nil
}

// Adoption returns the adoption record of the entry id, or an error
// wrapping store.ErrNotFound when there is no such entry or it has none.
func (s *Store) Adoption(ctx context.Context, id string) (*adopt.Record, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	var b []byte
	err := s.pool.QueryRow(ctx, `SELECT adoption FROM grimoire_entries WHERE id = $1 AND adoption IS NOT NULL`, id).Scan(&b)
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: adoption %s: %w", id, err)
	}
	r := new(adopt.Record)
	if err := json.Unmarshal(b, r); err != nil {
		return nil, fmt.Errorf("postgres: adoption %s: %w", id, err)
	}
	return r, nil
}

func scanAdoption(row pgx.CollectableRow) (adopt.Record, error) {
	var (
		b []byte
		r adopt.Record
	)
	if err := row.Scan(&b); err != nil {
		return r, err
	}
	return r, json.Unmarshal(b, &r)
}

// Adoptions returns the adoption records in order of adoption (the
// entries' creation, then id), up to limit (0: all).
func (s *Store) Adoptions(ctx context.Context, limit int) ([]adopt.Record, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	if limit < 0 {
		return nil, fmt.Errorf("postgres: adoptions: negative limit %d", limit)
	}
	out, err := queryRows(ctx, s.pool, scanAdoption, `SELECT adoption FROM grimoire_entries WHERE adoption IS NOT NULL ORDER BY created_ns, id LIMIT $1`,
		limitArg(limit))
	if err != nil {
		return nil, fmt.Errorf("postgres: adoptions: %w", err)
	}
	return out, nil
}
