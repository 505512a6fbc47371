package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/store"
)

// changeChannel is the LISTEN/NOTIFY channel of store.Change.
const changeChannel = "ward_changes"

// notifyChange sends c on changeChannel in tx: PostgreSQL delivers it to
// every listener when, and only if, tx commits. Every write that changes a
// session (its record, level, review, directive or ledger), a principal
// (its tokens, revocation, review or taint) or the gate's control calls it
// in its own transaction.
func notifyChange(ctx context.Context, tx pgx.Tx, kind store.ChangeKind, id string) error {
	_, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, changeChannel, encodeChange(store.Change{Kind: kind, ID: id}))
	return err
}

// encodeChange is "<kind digit>:<id>".
func encodeChange(c store.Change) string { return string(rune('0'+c.Kind)) + ":" + c.ID }

// decodeChange reverses encodeChange; anything else is ChangeAll.
func decodeChange(p string) store.Change {
	if len(p) < 2 || p[1] != ':' || p[0] < '0' || p[0] > '3' {
		return store.Change{}
	}
	return store.Change{Kind: store.ChangeKind(p[0] - '0'), ID: p[2:]}
}
