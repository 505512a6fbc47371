package relay

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ErrQueued wraps the error of a Publish whose context ended before
// JetStream stored its message. The message is not lost: it was written to
// the member's outbox on disk before anything was sent, and the relay's
// sender publishes it, in sequence order, as soon as the cluster takes
// messages again (after a restart too). The caller must not publish it
// again.
var ErrQueued = errors.New("relay: queued for delivery")

// outboxDir, under Config.DataDir, holds one file per message not yet
// stored by JetStream, named by its sequence number.
const outboxDir = "relay-outbox"

var outboxName = regexp.MustCompile(`^[0-9]{20}\.env$`)

// Sender retry: the first wait after a failed drain, and the longest.
const (
	senderFirstWait = 250 * time.Millisecond
	senderMaxWait   = 10 * time.Second
	// senderAttempt bounds one drain by the sender, so that a Publish
	// waiting for the send lock gets its turn.
	senderAttempt = 5 * time.Second
)

// queued is a sealed message waiting to be stored by JetStream. Its bytes
// stay on disk (path), not in memory: a full outbox of filters would
// otherwise hold hundreds of megabytes.
type queued struct {
	seq     uint64
	subject string
	id      string // Nats-Msg-Id: a resend is a duplicate JetStream drops
	path    string
}

// Why an outbox: a sender numbers its messages and receivers drop any
// whose number is not above the highest they accepted. A message whose
// publish failed (a node died, the stream was electing a leader) and was
// simply dropped would be lost for good, and so would a retry of it made
// after a later message got through: that later number makes the retry a
// replay. So every message is persisted before it is sent, and messages
// are sent strictly in sequence order, each one only once the one before
// it is stored; the same wire bytes and Msg-Id on every attempt let
// JetStream's duplicate window drop a copy stored by an attempt that
// seemed to fail.

// enqueue persists q and appends it to the outbox. The caller holds pubMu
// and assigned q.seq above every queued one.
func (r *Relay) enqueue(q *queued, wire []byte) error {
	r.outMu.Lock()
	n := len(r.outbox)
	r.outMu.Unlock()
	if n >= r.cfg.MaxPending {
		return fmt.Errorf("relay: publish: %d messages already wait for the cluster (MaxPending); not queued", n)
	}
	q.path = filepath.Join(r.cfg.DataDir, outboxDir, fmt.Sprintf("%020d.env", q.seq))
	if err := writeFileAtomic(q.path, wire); err != nil {
		return fmt.Errorf("relay: publish: outbox: %w", err)
	}
	r.outMu.Lock()
	r.outbox = append(r.outbox, q)
	r.outMu.Unlock()
	return nil
}

// drainThrough sends the outbox's messages in order until every message up
// to seq is stored, or ctx ends, or a send fails. Only one drain runs at a
// time: the caller holds the send lock.
func (r *Relay) drainThrough(ctx context.Context, seq uint64) error {
	for {
		r.outMu.Lock()
		var head *queued
		if len(r.outbox) > 0 {
			head = r.outbox[0]
		}
		r.outMu.Unlock()
		if head == nil || head.seq > seq {
			return nil
		}
		if err := r.send(ctx, head); err != nil {
			return err
		}
		r.outMu.Lock()
		r.outbox = r.outbox[1:]
		r.outMu.Unlock()
		r.published.Add(1)
		if err := os.Remove(head.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			// Left on disk it is sent again after a restart, and every
			// receiver drops that copy as a replay: harmless.
			r.log.Warn("relay: outbox: remove", "seq", head.seq, "err", err)
		}
	}
}

// send publishes q until JetStream stores it, retrying transient errors
// until ctx ends.
func (r *Relay) send(ctx context.Context, q *queued) error {
	wire, err := os.ReadFile(q.path)
	if err != nil {
		return fmt.Errorf("relay: publish seq %d: outbox: %w", q.seq, err)
	}
	for {
		actx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := r.js.PublishMsg(actx, &nats.Msg{Subject: q.subject, Data: wire}, jetstream.WithMsgID(q.id))
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil || !transient(err) {
			return fmt.Errorf("relay: publish seq %d: %w", q.seq, err)
		}
		r.log.Debug("relay: publish retry", "seq", q.seq, "err", err)
		select {
		case <-ctx.Done():
			return fmt.Errorf("relay: publish seq %d: %w", q.seq, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// lockSend takes the send lock, or fails when ctx ends first.
func (r *Relay) lockSend(ctx context.Context) error {
	select {
	case r.sendLock <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *Relay) unlockSend() { <-r.sendLock }

// kick wakes the sender.
func (r *Relay) kick() {
	select {
	case r.kicked <- struct{}{}:
	default:
	}
}

// sender publishes what Publish calls left in the outbox, retrying with
// backoff, until the Relay is closed.
func (r *Relay) sender(ctx context.Context) {
	defer r.wg.Done()
	wait := senderFirstWait
	var retry <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.kicked:
		case <-retry:
		}
		retry = nil
		if r.pending() == 0 {
			continue
		}
		if err := r.lockSend(ctx); err != nil {
			return
		}
		actx, cancel := context.WithTimeout(ctx, senderAttempt)
		err := r.drainThrough(actx, math.MaxUint64)
		cancel()
		r.unlockSend()
		if err == nil {
			wait = senderFirstWait
			continue
		}
		if ctx.Err() != nil {
			return
		}
		r.log.Warn("relay: outbox: the cluster did not take a message; retrying", "pending", r.pending(), "in", wait, "err", err)
		retry = time.After(wait)
		wait = min(2*wait, senderMaxWait)
	}
}

// pending is the number of messages in the outbox.
func (r *Relay) pending() int {
	r.outMu.Lock()
	defer r.outMu.Unlock()
	return len(r.outbox)
}

// loadOutbox reads the messages a previous run queued and did not see
// stored. Each must be a message this member signed; anything else in the
// directory is an error, never skipped: skipping would lose a message.
// Temporary files of a write that never completed were never queued and
// are removed.
func (r *Relay) loadOutbox() error {
	dir := filepath.Join(r.cfg.DataDir, outboxDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("relay: outbox: %w", err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("relay: outbox: %w", err)
	}
	for _, de := range ents {
		name := de.Name()
		path := filepath.Join(dir, name)
		if !outboxName.MatchString(name) {
			if isTemp(name) {
				os.Remove(path)
				continue
			}
			return fmt.Errorf("relay: outbox: unexpected file %s", name)
		}
		wire, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("relay: outbox: %w", err)
		}
		e, id, signer, err := open(wire)
		if err != nil {
			return fmt.Errorf("relay: outbox: %s: %w", name, err)
		}
		if signer != r.self || name != fmt.Sprintf("%020d.env", e.seq) {
			return fmt.Errorf("relay: outbox: %s is not this member's message %d", name, e.seq)
		}
		if e.seq > r.reserved {
			return fmt.Errorf("relay: outbox: %s is above the reserved sequence %d", name, r.reserved)
		}
		r.outbox = append(r.outbox, &queued{seq: e.seq, subject: e.subject(), id: id, path: path})
	}
	slices.SortFunc(r.outbox, func(a, b *queued) int { return cmp.Compare(a.seq, b.seq) })
	return nil
}

// isTemp reports whether name is a temporary file of writeFileAtomic.
func isTemp(name string) bool {
	i := strings.LastIndexByte(name, '.')
	return i > 0 && outboxName.MatchString(name[:i])
}
