package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/wardhq/ward/internal/relay"
)

// The relay is the fleet's transport (internal/relay): it signs what this
// member publishes, and delivers only what a member of the clade signed,
// once, in each sender's order, including what this member missed while
// it was down. These two adapters join it to the pipeline.

// RelayPublisher publishes the pipeline's fleet messages on r.
func RelayPublisher(r *relay.Relay) FleetPublisher { return relayPublisher{r} }

type relayPublisher struct{ r *relay.Relay }

func (f relayPublisher) Publish(ctx context.Context, kind FleetKind, body []byte) error {
	k, ok := relay.ParseKind(kind.String())
	if !ok || k == relay.KindMember {
		return fmt.Errorf("relay: the fleet kind %v has no relay kind", kind)
	}
	if err := f.r.Publish(ctx, k, body); err != nil && !errors.Is(err, relay.ErrQueued) {
		return err
	}
	// Stored by JetStream, or persisted in the relay's outbox, which
	// delivers it in order once the cluster takes messages again: either
	// way the clade will hear it.
	return nil
}

// RelayHandler returns what the relay calls with each delivered message:
// HandleFleet on the pipeline. A verdict on an entry this member does not
// hold yet is returned as an error, so that the relay delivers it again
// later (the entry may be on its way); every other refusal is final (the
// pipeline counted it; delivering a forged or malformed message again
// changes nothing) and is logged.
func (p *Pipeline) RelayHandler(log *slog.Logger) func(ctx context.Context, m relay.Message) error {
	if log == nil {
		log = slog.Default()
	}
	return func(ctx context.Context, m relay.Message) error {
		if m.Kind == relay.KindMember || m.Commons {
			return nil // the relay keeps the membership table itself
		}
		var k FleetKind
		if err := k.UnmarshalText([]byte(m.Kind.String())); err != nil {
			return nil
		}
		err := p.HandleFleet(ctx, FleetMessage{Kind: k, From: strings.ToLower(m.From.Hex()), Body: m.Body})
		switch {
		case err == nil:
			return nil
		case errors.Is(err, ErrNoEntry):
			return err
		default:
			log.Warn("relay: a message was refused", "kind", m.Kind.String(), "from", m.From.Hex(), "err", err)
			return nil
		}
	}
}
