// Package tui is ward's terminal view of a running daemon, for the owner:
// the gate's phase, halt and spending against its limits; the agent's
// state (thinking while a read runs, executing while a write runs, a
// success or failure flash when a call ends); the calls with progress bars
// driven by their tool:update steps; recent decisions and vetoes with
// their reason codes; and the quarantine queue, whose selected item the
// owner approves (a) or rejects (r).
//
// It is a client of the HTTP API only: GET /v1/events (Server-Sent
// Events, reconnected with backoff when the stream drops), GET /v1/gate,
// /v1/quarantine and /v1/decisions (polled, and refreshed when an event
// says they changed), POST /v1/quarantine/{id}/approve|reject.
//
// The Model is pure: Update and View do no I/O, so tests drive it with
// messages and read its text. Every string from the API is untrusted (an
// agent names sessions, an attacker may name a token or a tool): the model
// strips control characters and escape sequences from each before keeping
// it, so nothing from the daemon reaches the terminal as a control.
package tui

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/wardhq/ward/internal/event"
)

// Reconnection backoff of the event stream.
const (
	backoffMin = 250 * time.Millisecond
	backoffMax = 10 * time.Second
)

// Config configures Run.
type Config struct {
	Client *Client
	In     io.Reader // the terminal's input (os.Stdin when nil)
	Out    io.Writer // the terminal (os.Stdout when nil)
}

// Run shows the TUI until the user quits or ctx ends. It owns the event
// stream's goroutine and waits for it before returning.
func Run(ctx context.Context, cfg Config) error {
	if cfg.Client == nil {
		return errors.New("tui: no client")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	do := func(timeout time.Duration, f func(context.Context) tea.Msg) tea.Cmd {
		return func() tea.Msg {
			c, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			return f(c)
		}
	}
	opts := []tea.ProgramOption{tea.WithContext(ctx)}
	if cfg.In != nil {
		opts = append(opts, tea.WithInput(cfg.In))
	}
	if cfg.Out != nil {
		opts = append(opts, tea.WithOutput(cfg.Out))
	}
	p := tea.NewProgram(NewModel(cfg.Client.Addr(), cfg.Client, do), opts...)
	var wg sync.WaitGroup
	wg.Go(func() { follow(ctx, cfg.Client, p.Send) })
	_, err := p.Run()
	cancel()
	wg.Wait()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		err = nil // the caller's context ended: a normal stop
	}
	return err
}

// streamer opens the event stream; *Client implements it.
type streamer interface {
	Stream(ctx context.Context, lastID string, opened func(), fn func(event.Event)) (string, error)
}

// follow keeps the event stream open until ctx ends, sending its events
// and its connection state to send. When the stream fails or ends it
// waits a backoff that doubles from backoffMin to backoffMax, with
// jitter, and resets once a stream opens; it resumes from the last event
// id seen.
func follow(ctx context.Context, s streamer, send func(tea.Msg)) {
	backoff := backoffMin
	lastID := ""
	for ctx.Err() == nil {
		send(connMsg{state: connConnecting})
		var err error
		lastID, err = s.Stream(ctx, lastID,
			func() { backoff = backoffMin; send(connMsg{state: connLive}) },
			func(e event.Event) { send(eventMsg(e)) })
		if ctx.Err() != nil {
			return
		}
		wait := backoff + rand.N(backoff/4+1)
		msg := "stream ended"
		if err != nil && !errors.Is(err, io.EOF) {
			msg = err.Error()
		}
		send(connMsg{state: connDown, err: msg, retryIn: wait})
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		backoff = min(backoff*2, backoffMax)
	}
}
