// Package relay carries ward's knowledge traffic between the members of a
// clade over NATS JetStream (the Grimoire's Styx). It moves only typed,
// signed envelopes and knows nothing about what their bodies mean.
//
// Contract:
//   - Subjects are ward.relay.clade.<clade>.<kind> and
//     ward.relay.commons.<kind>, all in one stream, WARD_RELAY, covering
//     ward.relay.> with retention limits (MaxAge, MaxMsgs, MaxBytes). Open
//     creates or updates it.
//   - Only the kinds in Kind flow. Bodies are opaque and at most MaxBody.
//   - Every envelope is signed with the member's secp256k1 key (EIP-191
//     over its binary encoding, see envelope.go); the recovered address is
//     the sender. Each sender numbers its messages 1, 2, ... strictly
//     increasing, and persists the number in DataDir before publishing, so
//     a restart never reuses one.
//   - Every message is written to the sender's outbox in DataDir before it
//     is sent, and the outbox is sent strictly in sequence order, each
//     message only once JetStream stored the one before (outbox.go): a
//     publish that fails (a node died, a leader election) is retried, never
//     dropped, and never overtaken by a later number that would make the
//     retry a replay.
//   - A received envelope counts only if it decodes strictly, its signature
//     recovers its sender, the sender is a member (Config.Members for the
//     clade, Config.Commons for the commons), it arrived on the subject its
//     signed scope, clade and kind name, it is dated no more than MaxSkew
//     ahead nor older than MaxAge, and its sequence number is above the
//     highest accepted from that sender (persisted in DataDir before the ack).
//     Anything else is acked (never redelivered), not handed to the
//     subscriber, and counted in Stats by Cause.
//   - Subscribe uses a durable consumer named after the member's address,
//     so a member that was away receives what it missed within retention.
//     One message is in flight at a time (MaxAckPending 1): per-sender order
//     is what makes "seq ≤ highest" mean replay, and a handler error
//     redelivers that message, with backoff, before any later one.
//     Delivery to the handler is at least once: a crash between the handler
//     returning and the state write redelivers.
//   - A member's own messages are not delivered back to it.
//
// A Relay is safe for concurrent use. Messages are numbered and sent in
// one order, so the stream holds one sender's messages in sequence order.
package relay

import (
	"cmp"
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Stream is the JetStream stream holding every relay subject.
const Stream = "WARD_RELAY"

// apiTimeout bounds a JetStream API call whose context has no deadline.
const apiTimeout = 20 * time.Second

// subscribeWait bounds how long Subscribe tries to create its consumer
// while the cluster cannot answer (a leader election after a node went
// down).
const subscribeWait = time.Minute

// Defaults applied by Open to zero Config fields.
const (
	DefaultMaxAge     = 7 * 24 * time.Hour
	DefaultMaxMsgs    = 1_000_000
	DefaultMaxBytes   = 1 << 30
	DefaultMaxSkew    = 10 * time.Minute
	DefaultMaxDeliver = 5
	DefaultMaxPending = 1024 // see outbox.go
)

// Config configures a Relay. The zero value is refused: Clade, Key,
// Members and DataDir are required.
type Config struct {
	// URLs are the NATS servers to connect to. Empty: Open starts an
	// embedded nats-server with JetStream, storage under DataDir/nats,
	// bound to Listen (loopback only; empty picks a free port).
	URLs   []string
	Listen string
	// Credentials is a NATS .creds file (nats.UserCredentials).
	Credentials string
	// TLS: CA verifies the servers (nats.RootCAs); Cert and Key, together,
	// are the client certificate (nats.ClientCert).
	TLS struct{ CA, Cert, Key string }

	// Clade is this member's clade: one subject token of [A-Za-z0-9_-].
	Clade string
	// Key is the member's secp256k1 key; its Ethereum address is its member id.
	Key *ecdsa.PrivateKey
	// Members reports whether an address is a current member of Clade. It
	// is called for every received clade message and must be safe for
	// concurrent use.
	Members func(addr common.Address) bool
	// Commons reports whether an address may speak on the commons subjects.
	// Nil: this member neither receives nor sends commons messages.
	Commons func(addr common.Address) bool

	// DataDir holds the durable replay state (and the embedded server's
	// storage). One Relay per DataDir.
	DataDir string

	// Retention of the stream. Zero takes the default; negative is refused.
	MaxAge   time.Duration
	MaxMsgs  int64
	MaxBytes int64
	// Replicas of the stream: 1 by default, 3 on a 3-node cluster.
	Replicas int

	// MaxSkew is how far in the future a message may be dated (default 10 min).
	MaxSkew time.Duration
	// MaxDeliver bounds deliveries of a message whose handler keeps
	// failing (default 5); after the last it is terminated and counted.
	MaxDeliver int
	// MaxPending bounds the messages the outbox holds while the cluster
	// does not take them (0: DefaultMaxPending). A Publish beyond it is
	// refused, queuing nothing.
	MaxPending int

	// Logger receives drop and connection events; never bodies or keys.
	// Nil discards.
	Logger *slog.Logger
}

// Message is an accepted message handed to the subscriber.
type Message struct {
	Kind Kind
	// Commons is true for a message on the commons subjects.
	Commons bool
	// Clade is the sender's clade.
	Clade string
	From  common.Address
	Seq   uint64
	Time  time.Time
	// ID is the hex hash of the signed envelope: stable across redeliveries.
	ID   string
	Body []byte
}

// Stats counts what the relay did since Open.
type Stats struct {
	Published uint64
	// Delivered counts messages the handler accepted.
	Delivered uint64
	// Own counts this member's own messages skipped on receipt.
	Own uint64
	// Redelivered counts redeliveries of messages already accepted (their
	// ack was lost): acked again, not handed to the handler.
	Redelivered uint64
	// Pending counts this member's messages in the outbox, persisted and
	// not yet stored by JetStream (outbox.go).
	Pending uint64
	Dropped map[Cause]uint64
}

// Relay is one member's connection to the relay. Make it with Open.
type Relay struct {
	cfg  Config
	self common.Address
	log  *slog.Logger

	srv *Server // the embedded server, nil with URLs
	nc  *nats.Conn
	js  jetstream.JetStream

	pubMu    sync.Mutex // serialises numbering and queuing: seq order is outbox order
	seq      uint64     // last seq used
	reserved uint64     // highest seq reserved on disk

	// The outbox (outbox.go): messages persisted and not yet stored by
	// JetStream, in seq order, sent by one drain at a time (sendLock).
	outMu    sync.Mutex
	outbox   []*queued
	sendLock chan struct{}
	kicked   chan struct{}
	stop     context.CancelFunc // ends the sender

	recvMu sync.Mutex // guards recv and the receiver file
	recv   receiverState

	published, delivered, own, redelivered atomic.Uint64
	dropped                                [causeEnd]atomic.Uint64

	subMu  sync.Mutex
	subs   []jetstream.ConsumeContext
	closed bool
	wg     sync.WaitGroup
}

// Open validates cfg, loads the durable state from DataDir, starts the
// embedded server if no URLs are given, connects, and creates or updates
// the stream. The caller must Close the Relay.
func Open(ctx context.Context, cfg Config) (*Relay, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("relay: data dir: %w", err)
	}
	r := &Relay{cfg: cfg, self: crypto.PubkeyToAddress(cfg.Key.PublicKey), log: cfg.Logger}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if err := r.loadState(); err != nil {
		return nil, err
	}
	if err := r.loadOutbox(); err != nil {
		return nil, err
	}
	r.sendLock, r.kicked = make(chan struct{}, 1), make(chan struct{}, 1)
	urls := cfg.URLs
	if len(urls) == 0 {
		srv, err := StartServer(ServerConfig{Name: "ward-relay", Listen: cfg.Listen, StoreDir: filepath.Join(cfg.DataDir, "nats")})
		if err != nil {
			return nil, err
		}
		r.srv = srv
		urls = []string{srv.URL()}
	}
	nc, err := nats.Connect(strings.Join(urls, ","), r.natsOptions()...)
	if err != nil {
		r.shutdownServer()
		return nil, fmt.Errorf("relay: connect: %w", err)
	}
	r.nc = nc
	// JetStream API calls without a context deadline wait apiTimeout, not
	// nats.go's 5 s: placing a replicated stream on a loaded cluster can
	// take longer, and failing Open for it would be a false outage.
	if r.js, err = jetstream.New(nc, jetstream.WithDefaultTimeout(apiTimeout)); err != nil {
		r.Close()
		return nil, fmt.Errorf("relay: jetstream: %w", err)
	}
	if err := r.createStream(ctx); err != nil {
		r.Close()
		return nil, err
	}
	sctx, stop := context.WithCancel(context.Background())
	r.stop = stop
	r.wg.Add(1)
	go r.sender(sctx)
	if r.pending() > 0 {
		r.kick() // what a previous run queued and did not see stored
	}
	return r, nil
}

// loadState loads the sender's reserved sequence and the receiver's
// highest and seen sequences from the data directory.
func (r *Relay) loadState() error {
	var sender senderState
	if err := loadJSON(filepath.Join(r.cfg.DataDir, senderFile), &sender); err != nil {
		return err
	}
	r.seq, r.reserved = sender.Reserved, sender.Reserved
	if err := loadJSON(filepath.Join(r.cfg.DataDir, receiverFile), &r.recv); err != nil {
		return err
	}
	if r.recv.Highest == nil {
		r.recv.Highest = map[common.Address]uint64{}
	}
	if r.recv.Seen == nil {
		r.recv.Seen = map[common.Address]Seen{}
	}
	return nil
}

// natsOptions are the connection's options: reconnect forever, log
// disconnections, and the configured credentials and TLS files.
func (r *Relay) natsOptions() []nats.Option {
	opts := []nats.Option{
		nats.Name("ward-relay " + r.self.Hex()),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			r.log.Warn("relay: disconnected", "err", err)
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			r.log.Info("relay: reconnected", "server", nc.ConnectedUrlRedacted())
		}),
	}
	if r.cfg.Credentials != "" {
		opts = append(opts, nats.UserCredentials(r.cfg.Credentials))
	}
	if r.cfg.TLS.CA != "" {
		opts = append(opts, nats.RootCAs(r.cfg.TLS.CA))
	}
	if r.cfg.TLS.Cert != "" {
		opts = append(opts, nats.ClientCert(r.cfg.TLS.Cert, r.cfg.TLS.Key))
	}
	return opts
}

// createStream creates the relay's stream or updates it to the config's
// limits.
func (r *Relay) createStream(ctx context.Context) error {
	cfg := r.cfg
	_, err := r.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:       Stream,
		Subjects:   []string{"ward.relay.>"},
		Retention:  jetstream.LimitsPolicy,
		Storage:    jetstream.FileStorage,
		MaxAge:     cfg.MaxAge,
		MaxMsgs:    cfg.MaxMsgs,
		MaxBytes:   cfg.MaxBytes,
		MaxMsgSize: int32(MaxEnvelope),
		Replicas:   cfg.Replicas,
		Duplicates: 2 * time.Minute,
		Discard:    jetstream.DiscardOld,
	})
	if err != nil {
		if insufficientStorage(err) {
			return fmt.Errorf("relay: stream %s: the NATS servers cannot reserve max_bytes = %d for it (free disk, or lower [relay] max_bytes): %w", Stream, cfg.MaxBytes, err)
		}
		return fmt.Errorf("relay: stream %s: %w", Stream, err)
	}
	return nil
}

func (c *Config) validate() error {
	if !validClade(c.Clade) {
		return fmt.Errorf("relay: clade %q: want 1-%d characters of [A-Za-z0-9_-]", c.Clade, maxCladeLen)
	}
	if c.Key == nil || c.Key.Curve != crypto.S256() || c.Key.D == nil || c.Key.D.Sign() <= 0 {
		return errors.New("relay: key: want a secp256k1 private key")
	}
	if c.Members == nil {
		return errors.New("relay: members: nil (no membership check, no relay)")
	}
	if c.DataDir == "" {
		return errors.New("relay: data dir: empty")
	}
	if (c.TLS.Cert == "") != (c.TLS.Key == "") {
		return errors.New("relay: tls: cert and key go together")
	}
	if c.MaxAge < 0 || c.MaxMsgs < 0 || c.MaxBytes < 0 || c.Replicas < 0 || c.MaxSkew < 0 || c.MaxDeliver < 0 || c.MaxPending < 0 {
		return errors.New("relay: retention, replicas, skew and max deliver must not be negative")
	}
	if c.Replicas > 5 {
		return fmt.Errorf("relay: replicas %d: JetStream allows at most 5", c.Replicas)
	}
	if len(c.URLs) > 0 && c.Listen != "" {
		return errors.New("relay: listen is for the embedded server; it conflicts with urls")
	}
	c.MaxAge = cmp.Or(c.MaxAge, DefaultMaxAge)
	c.MaxMsgs = cmp.Or(c.MaxMsgs, DefaultMaxMsgs)
	c.MaxBytes = cmp.Or(c.MaxBytes, DefaultMaxBytes)
	c.Replicas = cmp.Or(c.Replicas, 1)
	c.MaxSkew = cmp.Or(c.MaxSkew, DefaultMaxSkew)
	c.MaxDeliver = cmp.Or(c.MaxDeliver, DefaultMaxDeliver)
	c.MaxPending = cmp.Or(c.MaxPending, DefaultMaxPending)
	return nil
}

// Addr is this member's address.
func (r *Relay) Addr() common.Address { return r.self }

// Publish signs body as a kind message to the clade, persists it in the
// member's outbox, and returns once JetStream has stored it and every
// message queued before it. If ctx ends first, the error wraps ErrQueued:
// the message is on disk and the relay's sender delivers it, in order,
// when the cluster takes messages again (after a restart too). A body over
// MaxBody, an invalid kind, a body on a member announcement, an envelope
// over the server's max_payload, or a full outbox (Config.MaxPending) is refused
// before anything is queued.
func (r *Relay) Publish(ctx context.Context, kind Kind, body []byte) error {
	return r.publish(ctx, scopeClade, kind, body)
}

// PublishCommons is Publish on the commons subjects. It is refused unless
// Config.Commons is set.
func (r *Relay) PublishCommons(ctx context.Context, kind Kind, body []byte) error {
	if r.cfg.Commons == nil {
		return errors.New("relay: commons: not configured")
	}
	return r.publish(ctx, scopeCommons, kind, body)
}

// Announce publishes this member's signed membership announcement.
func (r *Relay) Announce(ctx context.Context) error {
	return r.publish(ctx, scopeClade, KindMember, nil)
}

func (r *Relay) publish(ctx context.Context, sc scope, kind Kind, body []byte) error {
	if !kind.Valid() {
		return fmt.Errorf("relay: publish: invalid kind %d", uint8(kind))
	}
	if kind == KindMember && len(body) > 0 {
		return errors.New("relay: publish: a member announcement has no body")
	}
	if len(body) > MaxBody {
		return fmt.Errorf("relay: publish: body of %d bytes exceeds %d", len(body), MaxBody)
	}
	r.pubMu.Lock()
	if r.seq == r.reserved {
		next := r.reserved + seqBlock
		if err := saveJSON(filepath.Join(r.cfg.DataDir, senderFile), senderState{Reserved: next}); err != nil {
			r.pubMu.Unlock()
			return fmt.Errorf("relay: publish: %w", err)
		}
		r.reserved = next
	}
	e := &envelope{kind: kind, scope: sc, clade: r.cfg.Clade, from: r.self, seq: r.seq + 1, time: time.Now(), body: body}
	wire, id, err := e.seal(r.cfg.Key)
	if err == nil {
		if max := r.nc.MaxPayload(); int64(len(wire)) > max {
			err = fmt.Errorf("relay: publish: envelope of %d bytes exceeds the server's max_payload %d", len(wire), max)
		}
	}
	q := &queued{seq: e.seq, subject: e.subject(), id: id}
	if err == nil {
		err = r.enqueue(q, wire)
	}
	if err == nil {
		r.seq++
	}
	r.pubMu.Unlock()
	if err != nil {
		return err
	}
	// Sent in order behind whatever is queued before it; if ctx ends
	// first, the sender finishes the job.
	if err := r.lockSend(ctx); err != nil {
		r.kick()
		return fmt.Errorf("%w: %s seq %d: %w", ErrQueued, kind, q.seq, err)
	}
	err = r.drainThrough(ctx, q.seq)
	r.unlockSend()
	if err != nil {
		r.kick()
		return fmt.Errorf("%w: %s seq %d: %w", ErrQueued, kind, q.seq, err)
	}
	return nil
}

// transient reports whether a publish error may clear on its own: the
// server did not answer, or the connection is being re-established.
func transient(err error) bool {
	var api *jetstream.APIError
	if errors.As(err, &api) {
		return api.Code == 503 // no quorum or leader while a node is down
	}
	return errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, nats.ErrTimeout) ||
		errors.Is(err, nats.ErrNoResponders) ||
		errors.Is(err, nats.ErrConnectionReconnecting) ||
		errors.Is(err, nats.ErrDisconnected) ||
		errors.Is(err, jetstream.ErrNoStreamResponse)
}

// Subscribe starts delivering accepted messages to fn through this
// member's durable consumer, from the first message it has not acked
// (everything in the stream, the first time). A message is acked once fn
// returns nil; an error redelivers it with backoff, up to MaxDeliver
// times, and then it is terminated and counted as CauseHandler. fn is
// called from one goroutine, one message at a time. Delivery stops when
// ctx is done or the Relay is closed. Subscribe once per Relay.
func (r *Relay) Subscribe(ctx context.Context, fn func(ctx context.Context, m Message) error) error {
	filters := []string{"ward.relay.clade." + r.cfg.Clade + ".>"}
	if r.cfg.Commons != nil {
		filters = append(filters, "ward.relay.commons.>")
	}
	name := "ward-" + strings.ToLower(r.self.Hex()[2:])
	cfg := jetstream.ConsumerConfig{
		Durable:        name,
		Description:    "ward relay member " + r.self.Hex(),
		DeliverPolicy:  jetstream.DeliverAllPolicy,
		AckPolicy:      jetstream.AckExplicitPolicy,
		AckWait:        ackWait,
		MaxDeliver:     r.cfg.MaxDeliver,
		MaxAckPending:  1,
		FilterSubjects: filters,
		Replicas:       0, // the stream's
	}
	// A member that starts while a node of the cluster is down may find
	// it electing a leader (no answer, or 503): it tries again for up to
	// subscribeWait rather than failing its start.
	var cons jetstream.Consumer
	var err error
	for deadline := time.Now().Add(subscribeWait); ; {
		if cons, err = r.js.CreateOrUpdateConsumer(ctx, Stream, cfg); err == nil {
			break
		}
		if ctx.Err() != nil || !transient(err) || time.Now().After(deadline) {
			return fmt.Errorf("relay: consumer %s: %w", name, err)
		}
		r.log.Debug("relay: consumer retry", "consumer", name, "err", err)
		select {
		case <-ctx.Done():
			return fmt.Errorf("relay: consumer %s: %w", name, ctx.Err())
		case <-time.After(250 * time.Millisecond):
		}
	}
	hctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	cc, err := cons.Consume(func(m jetstream.Msg) { r.receive(hctx, m, fn) },
		jetstream.PullMaxMessages(1),
		jetstream.PullExpiry(5*time.Second),
		jetstream.ConsumeErrHandler(func(_ jetstream.ConsumeContext, err error) {
			r.log.Debug("relay: consume", "err", err)
		}))
	if err != nil {
		cancel()
		return fmt.Errorf("relay: consume: %w", err)
	}
	r.subMu.Lock()
	if r.closed {
		r.subMu.Unlock()
		cc.Stop()
		cancel()
		return errors.New("relay: closed")
	}
	r.subs = append(r.subs, cc)
	r.wg.Add(1)
	r.subMu.Unlock()
	go func() {
		defer r.wg.Done()
		defer cancel()
		select {
		case <-ctx.Done():
			cc.Stop()
		case <-cc.Closed():
		}
		<-cc.Closed()
	}()
	return nil
}

// receive checks one delivery and hands it to fn if it counts.
func (r *Relay) receive(ctx context.Context, m jetstream.Msg, fn func(context.Context, Message) error) {
	msg, cause, ok := r.check(m.Subject(), m.Data())
	if !ok && cause == CauseReplay {
		// A message accepted whose ack was lost (a node died, AckWait
		// passed) comes back with the same stream sequence: that is a
		// redelivery, not a replay. An attacker's copy is a new stream
		// message, delivered for the first time.
		if md, err := m.Metadata(); err == nil && md.NumDelivered > 1 {
			r.redelivered.Add(1)
			r.ack(m)
			return
		}
	}
	if !ok {
		r.drop(m, cause)
		return
	}
	if msg.From == r.self {
		r.own.Add(1)
		r.ack(m)
		return
	}
	if err := r.handle(ctx, m, msg, fn); err != nil {
		md, merr := m.Metadata()
		if merr == nil && md.NumDelivered >= uint64(r.cfg.MaxDeliver) {
			r.log.Warn("relay: handler failed on every delivery; terminated", "kind", msg.Kind, "from", msg.From, "seq", msg.Seq, "err", err)
			r.dropped[CauseHandler].Add(1)
			if err := m.Term(); err != nil {
				r.log.Warn("relay: term", "err", err)
			}
			return
		}
		n := uint64(1)
		if merr == nil {
			n = md.NumDelivered
		}
		if err := m.NakWithDelay(backoff(n)); err != nil {
			r.log.Warn("relay: nak", "err", err)
		}
		return
	}
	if err := r.accept(msg); err != nil {
		// Not acked: it comes back, and the handler sees it again.
		r.log.Error("relay: persist replay state", "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	r.delivered.Add(1)
	r.ack(m)
}

// ackWait is how long the consumer waits for an ack before redelivering.
// It is short so that a message whose ack was lost with a dying node comes
// back in seconds; a slow handler keeps its message with InProgress.
const ackWait = 5 * time.Second

// handle runs fn on msg, telling the server every ackWait/3 that the
// message is still being worked on.
func (r *Relay) handle(ctx context.Context, m jetstream.Msg, msg Message, fn func(context.Context, Message) error) error {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(ackWait / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if err := m.InProgress(); err != nil {
					r.log.Debug("relay: in progress", "err", err)
				}
			}
		}
	}()
	err := fn(ctx, msg)
	close(done)
	wg.Wait()
	return err
}

// backoff is the delay before redelivery n+1: 100ms doubling, at most 5s.
func backoff(n uint64) time.Duration {
	d := 100 * time.Millisecond
	for i := uint64(1); i < n && d < 5*time.Second; i++ {
		d *= 2
	}
	return min(d, 5*time.Second)
}

// check verifies one raw message that arrived on subject. It changes no
// state.
func (r *Relay) check(subject string, data []byte) (Message, Cause, bool) {
	if len(data) > MaxEnvelope {
		return Message{}, CauseOversized, false
	}
	e, id, signer, err := open(data)
	if err != nil {
		return Message{}, CauseMalformed, false
	}
	if !e.kind.Valid() || e.kind == KindMember && len(e.body) > 0 {
		return Message{}, CauseKind, false
	}
	if signer != e.from {
		return Message{}, CauseForged, false
	}
	if subject != e.subject() {
		return Message{}, CauseClade, false
	}
	switch e.scope {
	case scopeClade:
		if e.clade != r.cfg.Clade {
			return Message{}, CauseClade, false
		}
		if e.from != r.self && !r.cfg.Members(e.from) {
			return Message{}, CauseMember, false
		}
	case scopeCommons:
		if r.cfg.Commons == nil {
			return Message{}, CauseClade, false
		}
		if e.from != r.self && !r.cfg.Commons(e.from) {
			return Message{}, CauseMember, false
		}
	}
	now := time.Now()
	if e.time.After(now.Add(r.cfg.MaxSkew)) || e.time.Before(now.Add(-r.cfg.MaxAge-r.cfg.MaxSkew)) {
		return Message{}, CauseTime, false
	}
	r.recvMu.Lock()
	highest := r.recv.Highest[e.from]
	r.recvMu.Unlock()
	if e.seq <= highest {
		return Message{}, CauseReplay, false
	}
	return Message{
		Kind: e.kind, Commons: e.scope == scopeCommons, Clade: e.clade,
		From: e.from, Seq: e.seq, Time: e.time, ID: id, Body: e.body,
	}, 0, true
}

// accept persists msg's seq as the sender's highest (and, for an
// announcement, the last-seen entry) before the message is acked.
func (r *Relay) accept(msg Message) error {
	r.recvMu.Lock()
	defer r.recvMu.Unlock()
	next := receiverState{Highest: maps.Clone(r.recv.Highest), Seen: maps.Clone(r.recv.Seen)}
	next.Highest[msg.From] = msg.Seq
	if msg.Kind == KindMember && !msg.Commons {
		next.Seen[msg.From] = Seen{Addr: msg.From, Clade: msg.Clade, Announced: msg.Time, Seq: msg.Seq}
	}
	if err := saveJSON(filepath.Join(r.cfg.DataDir, receiverFile), next); err != nil {
		return err
	}
	r.recv = next
	return nil
}

func (r *Relay) drop(m jetstream.Msg, c Cause) {
	r.dropped[c].Add(1)
	r.log.Debug("relay: dropped", "cause", c, "subject", m.Subject(), "bytes", len(m.Data()))
	r.ack(m)
}

func (r *Relay) ack(m jetstream.Msg) {
	if err := m.Ack(); err != nil {
		r.log.Warn("relay: ack", "err", err)
	}
}

// Stats returns the counters.
func (r *Relay) Stats() Stats {
	s := Stats{
		Published:   r.published.Load(),
		Delivered:   r.delivered.Load(),
		Own:         r.own.Load(),
		Redelivered: r.redelivered.Load(),
		Pending:     uint64(r.pending()),
		Dropped:     map[Cause]uint64{},
	}
	for c := range causeEnd {
		if n := r.dropped[c].Load(); n > 0 {
			s.Dropped[c] = n
		}
	}
	return s
}

// Members returns the last announcement received from each member, by
// address. It survives a restart (it is kept with the replay state).
func (r *Relay) Members() []Seen {
	r.recvMu.Lock()
	defer r.recvMu.Unlock()
	out := make([]Seen, 0, len(r.recv.Seen))
	for _, s := range r.recv.Seen {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Seen) int { return a.Addr.Cmp(b.Addr) })
	return out
}

// Close stops delivery, waits for the handler to return, closes the
// connection and stops the embedded server, if any. The durable consumer
// stays on the server, so a later Open and Subscribe resumes from it.
func (r *Relay) Close() {
	r.subMu.Lock()
	r.closed = true
	subs := r.subs
	r.subs = nil
	r.subMu.Unlock()
	for _, cc := range subs {
		cc.Stop()
	}
	if r.stop != nil {
		r.stop()
	}
	r.wg.Wait()
	if r.nc != nil {
		r.nc.Close()
	}
	r.shutdownServer()
}

func (r *Relay) shutdownServer() {
	if r.srv != nil {
		r.srv.Shutdown()
		r.srv = nil
	}
}

// insufficientStorage reports whether err is JetStream refusing a stream
// because no server can reserve its MaxBytes: resources exceeded (one
// server) or no peer with room (a cluster).
func insufficientStorage(err error) bool {
	var api *jetstream.APIError
	if !errors.As(err, &api) {
		return false
	}
	// nats-server's JSStorageResourcesExceededErr and JSClusterNoPeersErrF;
	// nats.go names neither.
	const resourcesExceeded, noPeers jetstream.ErrorCode = 10047, 10005
	return api.ErrorCode == resourcesExceeded ||
		(api.ErrorCode == noPeers && strings.Contains(api.Description, "insufficient storage"))
}
