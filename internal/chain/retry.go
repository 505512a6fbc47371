package chain

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/rpc"
)

// retryable reports whether err is a transient failure worth another
// attempt: an endpoint that stalled past its request timeout, a network error, HTTP 429 or 5xx, a rate-limit JSON-RPC error,
// or a node that has not yet seen the block asked for (or, freshly
// started, is still indexing transactions). Reverts, other
// JSON-RPC errors and other HTTP 4xx are final.
func retryable(err error) bool {
	if errors.Is(err, errStalled) {
		return true
	}
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	if revertFrom(err) != nil {
		return false
	}
	var he rpc.HTTPError
	if errors.As(err, &he) {
		return he.StatusCode == 429 || he.StatusCode == 408 || he.StatusCode >= 500
	}
	var re rpc.Error
	if errors.As(err, &re) {
		switch re.ErrorCode() {
		case -32005: // limit exceeded (EIP-1474)
			return true
		}
		// Node messages are the only signal here: geth, erigon and
		// load-balanced providers say so when a request reaches a node
		// behind the block the previous request saw.
		msg := strings.ToLower(re.Error())
		return strings.Contains(msg, "header not found") || strings.Contains(msg, "unknown block") ||
			strings.Contains(msg, "transaction indexing is in progress") ||
			strings.Contains(msg, "rate limit") || strings.Contains(msg, "too many requests")
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EPIPE)
}

// backoff is a retry schedule: attempts in total, the first delay, and the
// cap on a delay; each delay doubles with up to 50 % jitter.
type backoff struct {
	attempts   int
	base, most time.Duration
}

// do runs f until it succeeds, fails with a final error, runs out of
// attempts or ctx ends.
func (b backoff) do(ctx context.Context, f func(ctx context.Context) error) error {
	delay := b.base
	var err error
	for i := 0; i < b.attempts; i++ {
		if err = f(ctx); err == nil || !retryable(err) || i == b.attempts-1 {
			return err
		}
		wait := delay/2 + rand.N(delay/2+1)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, ctx.Err())
		case <-t.C:
		}
		delay = min(delay*2, b.most)
	}
	return err
}
