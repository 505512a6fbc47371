package mcp

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/event"
)

// StreamLogger is the logger name of the notifications that carry live
// data updates (the stream_ tools' subscriptions).
const StreamLogger = "ward.stream"

// streamBuffer bounds the stream events waiting for delivery; past it an
// update is dropped (the bus counts it) rather than held.
const streamBuffer = 1024

// sendTimeout bounds one notification to one client.
const sendTimeout = 2 * time.Second

// DefaultSweep is how often a server looks for MCP sessions that ended,
// to end their subscriptions, when Config.StreamSweep is zero.
const DefaultSweep = 30 * time.Second

// streamNotice is the data of one notifications/message: a stream event
// as the subscriber needs it.
type streamNotice struct {
	Event          event.Kind      `json:"event"` // subscription:update or subscription:ended
	SubscriptionID string          `json:"subscription_id"`
	Kind           string          `json:"kind"`
	Target         string          `json:"target"`
	Value          json.RawMessage `json:"value,omitempty"`
	Code           string          `json:"code,omitempty"`
	Message        string          `json:"message,omitempty"`
	Seq            uint64          `json:"seq"`
	Time           time.Time       `json:"time"`
}

// delivery sends a gate session's stream events to the MCP sessions that
// work in it, as notifications/message (logging) notifications, and ends
// the subscriptions of a gate session once none of its MCP sessions is
// left. Server.Deliver runs it.
//
// Logging notifications carry the update itself as data, so any MCP
// client that sets a log level (logging/setLevel) receives each change in
// one message with no request of its own; resources/updated would only
// name a resource the client must then read.
type delivery struct {
	srv   *sdk.Server
	bus   *event.Bus
	end   func(session string) int
	every time.Duration

	mu    sync.Mutex
	bound map[string]map[*sdk.ServerSession]bool // gate session → its MCP sessions
}

func newDelivery(srv *sdk.Server, bus *event.Bus, end func(string) int, sweep time.Duration) *delivery {
	return &delivery{srv: srv, bus: bus, end: end, every: sweep, bound: map[string]map[*sdk.ServerSession]bool{}}
}

// Deliver sends the stream events of the bus (Config.Updates) to the MCP
// sessions whose gate session they belong to, and ends the subscriptions
// of gate sessions whose MCP sessions have all ended, until ctx ends. Its
// caller owns it (ward serve runs it until shutdown begins); without
// Config.Updates it returns at once.
func (s *Server) Deliver(ctx context.Context) {
	if s.streams == nil {
		return
	}
	s.streams.run(ctx)
}

// bind records that MCP session ss works in gate session id.
func (d *delivery) bind(ss *sdk.ServerSession, id string) {
	if ss == nil || id == "" {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.bound[id] == nil {
		d.bound[id] = map[*sdk.ServerSession]bool{}
	}
	d.bound[id][ss] = true
}

func (d *delivery) run(ctx context.Context) {
	sub := d.bus.Subscribe(streamBuffer, func(k event.Kind) bool { return k.Family() == "subscription" })
	defer sub.Close()
	t := time.NewTicker(d.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case e, ok := <-sub.C():
			if !ok {
				return
			}
			d.send(ctx, e)
		case <-t.C:
			d.sweep()
		}
	}
}

// send notifies every MCP session bound to e's gate session.
func (d *delivery) send(ctx context.Context, e event.Event) {
	p, _ := e.Payload.(event.StreamData)
	n := streamNotice{Event: e.Kind, SubscriptionID: p.ID, Kind: p.Kind, Target: p.Target, Value: p.Value,
		Code: e.Code, Message: e.Message, Seq: e.Seq, Time: e.Time}
	level := sdk.LoggingLevel("info")
	switch {
	case e.Kind == event.SubscriptionEnded:
		level = "notice"
	case !e.Success:
		level = "warning"
	}
	d.mu.Lock()
	to := make([]*sdk.ServerSession, 0, len(d.bound[e.SessionID]))
	for ss := range d.bound[e.SessionID] {
		to = append(to, ss)
	}
	d.mu.Unlock()
	for _, ss := range to {
		sctx, cancel := context.WithTimeout(ctx, sendTimeout)
		// A client gone or too slow misses this update; the sweep ends
		// its subscriptions once its session is gone.
		_ = ss.Log(sctx, &sdk.LoggingMessageParams{Level: level, Logger: StreamLogger, Data: n})
		cancel()
	}
}

// sweep ends the subscriptions of every gate session whose MCP sessions
// have all ended.
func (d *delivery) sweep() {
	live := map[*sdk.ServerSession]bool{}
	for ss := range d.srv.Sessions() {
		live[ss] = true
	}
	var ended []string
	d.mu.Lock()
	for id, sss := range d.bound {
		for ss := range sss {
			if !live[ss] {
				delete(sss, ss)
			}
		}
		if len(sss) == 0 {
			delete(d.bound, id)
			ended = append(ended, id)
		}
	}
	d.mu.Unlock()
	for _, id := range ended {
		d.end(id)
	}
}
