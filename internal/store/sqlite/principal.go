package sqlite

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

const principalColumns = `id, name, role, token_hash, created_ns, expires_ns, revoked_ns, rotated_ns, last_used_ns`

func scanPrincipal(st *sqlite3.Stmt) (store.PrincipalRecord, error) {
	p := store.PrincipalRecord{
		ID: st.ColumnText(0), Name: st.ColumnText(1), Role: st.ColumnText(2),
		Created: nsTime(st, 4), Expires: nsTime(st, 5), Revoked: nsTime(st, 6), Rotated: nsTime(st, 7), LastUsed: nsTime(st, 8),
	}
	h := st.ColumnRawBlob(3)
	if len(h) != len(p.TokenHash) {
		return p, fmt.Errorf("principal %s: stored token hash of %d bytes", p.ID, len(h))
	}
	copy(p.TokenHash[:], h)
	return p, nil
}

// CreatePrincipal durably stores p (see store.Principals).
func (s *Store) CreatePrincipal(ctx context.Context, p *store.PrincipalRecord) error {
	if p == nil {
		return errors.New("sqlite: create principal: nil principal")
	}
	if err := store.CheckPrincipal(p); err != nil {
		return fmt.Errorf("sqlite: create principal: %w: %v", errInvalid, err)
	}
	rec := *p
	err := s.do(ctx, func(tx *wtx) error {
		taken, err := tx.int64(`SELECT count(*) FROM principals WHERE revoked_ns IS NULL AND name = ?`, rec.Name)
		if err != nil {
			return err
		}
		if taken > 0 {
			return answer(store.ErrNameTaken)
		}
		exists, err := tx.int64(`SELECT count(*) FROM principals WHERE id = ? OR token_hash = ?`, rec.ID, rec.TokenHash[:])
		if err != nil {
			return err
		}
		if exists > 0 {
			return answer(store.ErrPrincipalExists)
		}
		_, err = tx.exec(`INSERT INTO principals (id, name, role, token_hash, created_ns, expires_ns) VALUES (?, ?, ?, ?, ?, ?)`,
			rec.ID, rec.Name, rec.Role, rec.TokenHash[:], rec.Created, rec.Expires)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: create principal %s: %w", p.Name, err)
	}
	return nil
}

func (s *Store) principalWhere(ctx context.Context, what, where string, args ...any) (store.PrincipalRecord, error) {
	p, err := readOne(ctx, s.r, scanPrincipal, `SELECT `+principalColumns+` FROM principals WHERE `+where, args...)
	if err != nil {
		return store.PrincipalRecord{}, fmt.Errorf("sqlite: principal %s: %w", what, err)
	}
	return p, nil
}

// PrincipalByToken returns the principal whose token hashes to h.
func (s *Store) PrincipalByToken(ctx context.Context, h [32]byte) (store.PrincipalRecord, error) {
	return s.principalWhere(ctx, "by token", `token_hash = ?`, h[:])
}

// Principal returns the principal id.
func (s *Store) Principal(ctx context.Context, pid string) (store.PrincipalRecord, error) {
	return s.principalWhere(ctx, pid, `id = ?`, pid)
}

// PrincipalByName returns the principal that is not revoked named name.
func (s *Store) PrincipalByName(ctx context.Context, name string) (store.PrincipalRecord, error) {
	return s.principalWhere(ctx, "named "+name, `revoked_ns IS NULL AND name = ?`, name)
}

// ListPrincipals returns every principal, oldest first.
func (s *Store) ListPrincipals(ctx context.Context) ([]store.PrincipalRecord, error) {
	out, err := readRows(ctx, s.r, scanPrincipal, `SELECT `+principalColumns+` FROM principals ORDER BY created_ns, id`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list principals: %w", err)
	}
	return out, nil
}

// RevokePrincipal durably revokes id.
func (s *Store) RevokePrincipal(ctx context.Context, pid string, at time.Time) error {
	if _, err := nanos("revoked at", at); err != nil {
		return fmt.Errorf("sqlite: revoke principal %s: %w", pid, err)
	}
	err := s.do(ctx, func(tx *wtx) error {
		n, err := tx.exec(`UPDATE principals SET revoked_ns = ? WHERE id = ? AND revoked_ns IS NULL`, at, pid)
		if err != nil || n == 1 {
			return err
		}
		return answer(principalMissing(tx, pid))
	})
	if err != nil {
		return fmt.Errorf("sqlite: revoke principal %s: %w", pid, err)
	}
	return nil
}

// principalMissing says why an update of pid matched nothing: it does not
// exist, or it is revoked.
func principalMissing(tx *wtx, pid string) error {
	n, err := tx.int64(`SELECT count(*) FROM principals WHERE id = ?`, pid)
	switch {
	case err != nil:
		return err
	case n == 0:
		return store.ErrNotFound
	}
	return store.ErrPrincipalRevoked
}

// RotatePrincipal durably replaces id's token hash.
func (s *Store) RotatePrincipal(ctx context.Context, pid string, h [32]byte, at time.Time) error {
	if _, err := nanos("rotated at", at); err != nil {
		return fmt.Errorf("sqlite: rotate principal %s: %w", pid, err)
	}
	if h == [32]byte{} {
		return fmt.Errorf("sqlite: rotate principal %s: %w: zero token hash", pid, errInvalid)
	}
	err := s.do(ctx, func(tx *wtx) error {
		other, err := tx.int64(`SELECT count(*) FROM principals WHERE token_hash = ?`, h[:])
		if err != nil {
			return err
		}
		if other > 0 {
			return answer(store.ErrPrincipalExists)
		}
		n, err := tx.exec(`UPDATE principals SET token_hash = ?, rotated_ns = ? WHERE id = ? AND revoked_ns IS NULL`, h[:], at, pid)
		if err != nil || n == 1 {
			return err
		}
		return answer(principalMissing(tx, pid))
	})
	if err != nil {
		return fmt.Errorf("sqlite: rotate principal %s: %w", pid, err)
	}
	return nil
}

// TouchPrincipal queues id's last use at at for the next group commit.
func (s *Store) TouchPrincipal(ctx context.Context, pid string, at time.Time) error {
	if _, err := nanos("used at", at); err != nil {
		return fmt.Errorf("sqlite: touch principal %s: %w", pid, err)
	}
	return s.doLater(ctx, func(tx *wtx) error {
		_, err := tx.exec(`UPDATE principals SET last_used_ns = ?1 WHERE id = ?2 AND (last_used_ns IS NULL OR last_used_ns < ?1)`, at, pid)
		return err
	})
}
