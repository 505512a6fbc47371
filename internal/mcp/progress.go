package mcp

import (
	"context"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressQueue bounds the steps waiting to be sent for one call.
const progressQueue = 16

// progress forwards one call's progress steps to the client as MCP
// progress notifications. The gate reports steps synchronously, from inside
// the call, and must not be held up by a slow client: report only queues a
// step (dropping it when the queue is full), and one goroutine, started by
// startProgress and waited for by stop, sends them.
type progress struct {
	ctx   context.Context
	ss    *sdk.ServerSession
	token any
	queue chan *sdk.ProgressNotificationParams
	done  chan struct{}

	mu     sync.Mutex
	last   int // the last progress value queued: values only increase
	closed bool
}

// startProgress starts forwarding the steps of the call whose request
// context is ctx (the SDK routes a notification made with it to that
// request's stream).
func startProgress(ctx context.Context, ss *sdk.ServerSession, token any) *progress {
	p := &progress{ctx: ctx, ss: ss, token: token,
		queue: make(chan *sdk.ProgressNotificationParams, progressQueue), done: make(chan struct{})}
	go p.send()
	return p
}

func (p *progress) send() {
	defer close(p.done)
	for n := range p.queue {
		// A client that went away fails the send; the call goes on and
		// its result meets the same fate.
		_ = p.ss.NotifyProgress(p.ctx, n)
	}
}

// report is the call's facade.Progress. The message is the step's fixed
// text from the tool's definition; the internal tool name is not sent.
func (p *progress) report(_, step string, index, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || index+1 <= p.last {
		return
	}
	p.last = index + 1
	n := &sdk.ProgressNotificationParams{ProgressToken: p.token, Progress: float64(index + 1), Total: float64(total), Message: step}
	select {
	case p.queue <- n:
	default:
	}
}

// stop sends what is queued and returns when the sender has finished.
func (p *progress) stop() {
	p.mu.Lock()
	p.closed = true
	close(p.queue)
	p.mu.Unlock()
	<-p.done
}
