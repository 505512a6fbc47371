package postgres

import (
	"context"
	"fmt"
	"time"

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

var _ store.Watcher = (*Store)(nil)

// watchBuffer is how many changes a watcher's channel holds before the
// watch drops them for a ChangeAll.
const watchBuffer = 256

// Watch delivers, until ctx ends or the store closes, a store.Change for
// every committed write of any instance on the database that changed a
// session, a principal or the gate's control (implements store.Watcher).
// It listens on a connection of its own, outside the pool. The first value
// is a ChangeAll, and so is the first after a lost connection is made
// again (with backoff, for as long as it takes) or after changes were
// dropped because the receiver fell behind: a cache that sees ChangeAll
// forgets everything. The channel is closed when the watch ends. Watch
// fails only if the first connection cannot be made.
func (s *Store) Watch(ctx context.Context) (<-chan store.Change, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	conn, err := s.listen(ctx)
	if err != nil {
		return nil, fmt.Errorf("postgres: watch: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.bg, cancel)
	in := make(chan store.Change)
	out := make(chan store.Change, watchBuffer)
	if !s.track(2) {
		cancel()
		stop()
		_ = conn.Close(context.Background())
		return nil, store.ErrClosed
	}
	go func() {
		defer s.wg.Done()
		defer stop()
		defer close(in)
		s.receive(ctx, conn, in)
	}()
	go func() {
		defer s.wg.Done()
		defer close(out)
		deliver(in, out)
	}()
	return out, nil
}

// listen opens a connection with the pool's settings and listens on
// changeChannel.
func (s *Store) listen(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, `LISTEN `+changeChannel); err != nil {
		_ = conn.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return conn, nil
}

// receive turns notifications on conn into changes on in until ctx ends,
// starting with a ChangeAll, reconnecting with backoff when the connection
// is lost (and sending a ChangeAll once it is back).
func (s *Store) receive(ctx context.Context, conn *pgx.Conn, in chan<- store.Change) {
	defer func() {
		if conn != nil {
			_ = conn.Close(context.WithoutCancel(ctx))
		}
	}()
	send := func(c store.Change) bool {
		select {
		case in <- c:
			return true
		case <-ctx.Done():
			return false
		}
	}
	if !send(store.Change{}) {
		return
	}
	const minBackoff, maxBackoff = 50 * time.Millisecond, 5 * time.Second
	backoff := minBackoff
	for {
		n, err := conn.WaitForNotification(ctx)
		if err == nil {
			backoff = minBackoff
			if !send(decodeChange(n.Payload)) {
				return
			}
			continue
		}
		_ = conn.Close(context.WithoutCancel(ctx))
		conn = nil
		for conn == nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, maxBackoff)
			conn, _ = s.listen(ctx)
		}
		if !send(store.Change{}) {
			return
		}
	}
}

// deliver forwards changes from in to out, never blocking on out: a change
// that finds out full is dropped, and a ChangeAll is sent in its place as
// soon as there is room. It returns, closing nothing, once in is closed.
func deliver(in <-chan store.Change, out chan<- store.Change) {
	lost := false
	for {
		if lost {
			select {
			case out <- store.Change{}:
				lost = false
			case _, ok := <-in:
				if !ok {
					return
				}
			}
			continue
		}
		c, ok := <-in
		if !ok {
			return
		}
		select {
		case out <- c:
		default:
			lost = true
		}
	}
}
