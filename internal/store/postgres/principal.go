package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/wardhq/ward/internal/store"
)

// Principals. A name is unique among the principals not revoked: creation
// takes the advisory lock of the name, so that of concurrent creations
// one checks and inserts first and the others find the name taken (the
// partial unique index stays as the last word). Revocation and rotation
// are one conditional UPDATE each, and notify every instance, whose caches
// of tokens then drop the principal.

const principalColumns = `id, name, role, token_hash, created_ns, expires_ns, revoked_ns, rotated_ns, last_used_ns`

func scanPrincipal(row pgx.Row) (store.PrincipalRecord, error) {
	var (
		p                                  store.PrincipalRecord
		hash                               []byte
		created                            int64
		expires, revoked, rotated, lastUse *int64
	)
	if err := row.Scan(&p.ID, &p.Name, &p.Role, &hash, &created, &expires, &revoked, &rotated, &lastUse); err != nil {
		return p, err
	}
	if len(hash) != len(p.TokenHash) {
		return p, fmt.Errorf("principal %s: stored token hash of %d bytes", p.ID, len(hash))
	}
	copy(p.TokenHash[:], hash)
	p.Created, p.Expires, p.Revoked, p.Rotated, p.LastUsed = nsTime(created), optTime(expires), optTime(revoked), optTime(rotated), optTime(lastUse)
	return p, nil
}

// optTime reads a nullable nanosecond column (NULL: zero time).
func optTime(ns *int64) time.Time {
	if ns == nil {
		return time.Time{}
	}
	return time.Unix(0, *ns).UTC()
}

// optNs binds a zero time as NULL.
func optNs(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixNano()
}

// CreatePrincipal stores p (see store.Principals).
func (s *Store) CreatePrincipal(ctx context.Context, p *store.PrincipalRecord) error {
	if err := s.ok(); err != nil {
		return err
	}
	if p == nil {
		return errors.New("postgres: create principal: nil principal")
	}
	if err := store.CheckPrincipal(p); err != nil {
		return fmt.Errorf("postgres: create principal: %w: %v", store.ErrInvalidRecord, err)
	}
	rec := *p
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := xlock(ctx, tx, lockPrincipal, rec.Name); err != nil {
			return err
		}
		var taken, exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM principals WHERE revoked_ns IS NULL AND name = $1),
  EXISTS (SELECT 1 FROM principals WHERE id = $2 OR token_hash = $3)`, rec.Name, rec.ID, rec.TokenHash[:]).Scan(&taken, &exists); err != nil {
			return err
		}
		switch {
		case taken:
			return store.ErrNameTaken
		case exists:
			return store.ErrPrincipalExists
		}
		if _, err := tx.Exec(ctx, `INSERT INTO principals (id, name, role, token_hash, created_ns, expires_ns) VALUES ($1, $2, $3, $4, $5, $6)`,
			rec.ID, rec.Name, rec.Role, rec.TokenHash[:], rec.Created.UnixNano(), optNs(rec.Expires)); err != nil {
			return uniquePrincipal(err)
		}
		return notifyChange(ctx, tx, store.ChangePrincipal, rec.ID)
	})
	if err != nil {
		return fmt.Errorf("postgres: create principal %s: %w", p.Name, err)
	}
	return nil
}

// uniquePrincipal maps a unique violation on principals to the refusal it
// stands for (a token hash or id taken by a principal created since the
// check, by a writer that did not take the same name lock).
func uniquePrincipal(err error) error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "23505" {
		return err
	}
	if pe.ConstraintName == "principals_live_name" {
		return store.ErrNameTaken
	}
	return store.ErrPrincipalExists
}

func (s *Store) principalWhere(ctx context.Context, what, where string, args ...any) (store.PrincipalRecord, error) {
	if err := s.ok(); err != nil {
		return store.PrincipalRecord{}, err
	}
	p, err := scanPrincipal(s.pool.QueryRow(ctx, `SELECT `+principalColumns+` FROM principals WHERE `+where, args...))
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.PrincipalRecord{}, fmt.Errorf("postgres: principal %s: %w", what, err)
	}
	return p, nil
}

// PrincipalByToken returns the principal whose current token hashes to h.
func (s *Store) PrincipalByToken(ctx context.Context, h [32]byte) (store.PrincipalRecord, error) {
	return s.principalWhere(ctx, "by token", `token_hash = $1`, h[:])
}

// Principal returns the principal id.
func (s *Store) Principal(ctx context.Context, pid string) (store.PrincipalRecord, error) {
	return s.principalWhere(ctx, pid, `id = $1`, pid)
}

// PrincipalByName returns the principal that is not revoked named name.
func (s *Store) PrincipalByName(ctx context.Context, name string) (store.PrincipalRecord, error) {
	return s.principalWhere(ctx, "named "+name, `revoked_ns IS NULL AND name = $1`, name)
}

// ListPrincipals returns every principal, oldest first.
func (s *Store) ListPrincipals(ctx context.Context) ([]store.PrincipalRecord, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	out, err := queryRows(ctx, s.pool, rowTo(scanPrincipal), `SELECT `+principalColumns+` FROM principals ORDER BY created_ns, id`)
	if err != nil {
		return nil, fmt.Errorf("postgres: list principals: %w", err)
	}
	return out, nil
}

// RevokePrincipal revokes id at at, in one conditional update.
func (s *Store) RevokePrincipal(ctx context.Context, pid string, at time.Time) error {
	ns, err := store.Nanos("revoked at", at)
	if err != nil {
		return fmt.Errorf("postgres: revoke principal %s: %w", pid, err)
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE principals SET revoked_ns = $1 WHERE id = $2 AND revoked_ns IS NULL`, ns, pid)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return principalMissing(ctx, tx, pid)
		}
		return notifyChange(ctx, tx, store.ChangePrincipal, pid)
	})
	if err != nil {
		return fmt.Errorf("postgres: revoke principal %s: %w", pid, err)
	}
	return nil
}

// principalMissing says why an update of pid matched nothing: it does not
// exist, or it is revoked.
func principalMissing(ctx context.Context, q querier, pid string) error {
	var exists bool
	if err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM principals WHERE id = $1)`, pid).Scan(&exists); err != nil {
		return err
	}
	if !exists {
		return store.ErrNotFound
	}
	return store.ErrPrincipalRevoked
}

// RotatePrincipal replaces id's token hash with h, in one conditional
// update.
func (s *Store) RotatePrincipal(ctx context.Context, pid string, h [32]byte, at time.Time) error {
	ns, err := store.Nanos("rotated at", at)
	if err != nil {
		return fmt.Errorf("postgres: rotate principal %s: %w", pid, err)
	}
	if h == [32]byte{} {
		return fmt.Errorf("postgres: rotate principal %s: %w", pid, store.Invalid("zero token hash"))
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		var taken bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM principals WHERE token_hash = $1)`, h[:]).Scan(&taken); err != nil {
			return err
		}
		if taken {
			return store.ErrPrincipalExists
		}
		tag, err := tx.Exec(ctx, `UPDATE principals SET token_hash = $1, rotated_ns = $2 WHERE id = $3 AND revoked_ns IS NULL`, h[:], ns, pid)
		if err != nil {
			return uniquePrincipal(err)
		}
		if tag.RowsAffected() == 0 {
			return principalMissing(ctx, tx, pid)
		}
		return notifyChange(ctx, tx, store.ChangePrincipal, pid)
	})
	if err != nil {
		return fmt.Errorf("postgres: rotate principal %s: %w", pid, err)
	}
	return nil
}

// TouchPrincipal records id's last use at at, if later than the stored
// one. It is one statement, committed at once; a change of last use is no
// change other instances must hear of.
func (s *Store) TouchPrincipal(ctx context.Context, pid string, at time.Time) error {
	ns, err := store.Nanos("used at", at)
	if err != nil {
		return fmt.Errorf("postgres: touch principal %s: %w", pid, err)
	}
	if err := s.ok(); err != nil {
		return err
	}
	if _, err := s.pool.Exec(ctx, `UPDATE principals SET last_used_ns = $1 WHERE id = $2 AND (last_used_ns IS NULL OR last_used_ns < $1)`, ns, pid); err != nil {
		return fmt.Errorf("postgres: touch principal %s: %w", pid, err)
	}
	return nil
}
