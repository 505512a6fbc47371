// Package llm is ward's one client for OpenAI-compatible APIs: chat
// completions (ChatJSON) and embeddings (Embed). Every model call ward makes
// goes through it: the trust checker, the knowledge pipeline's reasoner and
// decomposer, and the embedder.
//
// The contract is fail-closed: a transport error, a timeout, a non-2xx
// status, a body over the bound or an answer that does not parse is an
// error, which callers treat as a rejection. An Endpoint's Timeout bounds
// the whole call, retries included; a call is retried only when Retries
// allows it and the server answered 429 or 5xx. The API key is a
// taint.String sent as a bearer token and appears in no error: a chat key
// is revealed to taint.LLMContext only, so a key labelled WalletSecret or
// OwnerSecret is refused; an embeddings key is used whatever its labels,
// as internal/embed always did. No error carries any part of a response
// but an error object's type token ("rate_limit_exceeded"): a message may
// echo the request, key or untrusted data included.
//
// llm depends on the standard library and internal/taint only, so that
// mechanisms of any layer may call a model without importing each other.
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/taint"
)

// DefaultTimeout bounds a call whose Endpoint sets no Timeout.
const DefaultTimeout = 30 * time.Second

// Retry waits: the server's Retry-After when it gives one, else
// baseBackoff doubled per attempt; never more than maxBackoff.
const (
	baseBackoff = 500 * time.Millisecond
	maxBackoff  = 10 * time.Second
	maxDrain    = 64 << 10 // bytes of a non-2xx body read to reuse the connection
)

// Endpoint is where one call goes and how it is bounded. It is a plain
// value: a zero Timeout is DefaultTimeout, a nil Client is
// http.DefaultClient, zero Retries is a single attempt.
type Endpoint struct {
	URL     string // the full URL, ending in /chat/completions or /embeddings
	Model   string
	APIKey  *taint.String // sent as a bearer token; nil: no key
	Client  *http.Client
	Timeout time.Duration // bounds the whole call, retries included
	Retries int           // further attempts after a 429 or 5xx answer
	// MaxTokens is a chat request's max_tokens, bounding the answer's
	// length and cost; 0: not sent, the server's default applies.
	MaxTokens int
}

// ErrEndpoint reports an Endpoint whose URL is not an http(s) URL with a
// host.
var ErrEndpoint = errors.New("endpoint is not an http(s) URL")

// Check reports whether ep can be used for chat: its URL is http(s) with a
// host (else ErrEndpoint), its model is not blank, its key (if any) may be
// revealed to taint.LLMContext and Retries is not negative. Errors are
// lower-case fragments ("model is empty") for the caller to prefix.
func (ep Endpoint) Check() error {
	u, err := url.Parse(ep.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ErrEndpoint
	}
	if strings.TrimSpace(ep.Model) == "" {
		return errors.New("model is empty")
	}
	if ep.APIKey != nil {
		if _, err := ep.APIKey.Reveal(taint.LLMContext); err != nil {
			return fmt.Errorf("api key: %w", err)
		}
	}
	if ep.Retries < 0 {
		return fmt.Errorf("retries %d is negative", ep.Retries)
	}
	if ep.MaxTokens < 0 {
		return fmt.Errorf("max tokens %d is negative", ep.MaxTokens)
	}
	return nil
}

// ChatURL is the chat-completions URL of an API whose base URL is base,
// such as http://host/v1.
func ChatURL(base string) string { return strings.TrimRight(base, "/") + "/chat/completions" }

// StatusError reports a non-2xx answer. The body is not kept: it may echo
// the request, key included. Only its error object's type (or code), when
// that is a short token such as "rate_limit_exceeded", is.
type StatusError struct {
	Code       int
	Type       string        // the error object's type or code token; "" if none
	retryAfter time.Duration // the server's Retry-After; -1: none given
}

func (e *StatusError) Error() string {
	if e.Type != "" {
		return fmt.Sprintf("status %d (%s)", e.Code, e.Type)
	}
	return fmt.Sprintf("status %d", e.Code)
}

// retryable reports whether the answer is worth another attempt.
func (e *StatusError) retryable() bool {
	return e.Code == http.StatusTooManyRequests || e.Code >= 500
}

// bearer gives the Authorization header for a key.
type bearer func(*taint.String) (string, error)

// revealBearer reveals the key to the model's context, the chat rule.
func revealBearer(k *taint.String) (string, error) {
	s, err := k.Reveal(taint.LLMContext)
	return "Bearer " + s, err
}

// useBearer reads the key whatever its labels, the embeddings rule.
func useBearer(k *taint.String) (string, error) {
	var h string
	err := k.Use(func(b []byte) error { h = "Bearer " + string(b); return nil })
	return h, err
}

// post sends body to ep and returns up to limit+1 bytes of a 2xx answer,
// retrying a 429 or 5xx answer up to ep.Retries times within ep.Timeout.
// Errors: "api key: …", "build request: …", "post: …" (transport,
// including the deadline), *StatusError, "read response: …"; a deadline
// hit while waiting to retry is joined to the last StatusError.
func post(ctx context.Context, ep Endpoint, body []byte, limit int64, auth bearer) ([]byte, error) {
	timeout, client := ep.Timeout, ep.Client
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if client == nil {
		client = http.DefaultClient
	}
	var header string
	if ep.APIKey != nil {
		h, err := auth(ep.APIKey)
		if err != nil {
			return nil, fmt.Errorf("api key: %w", err)
		}
		header = h
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for attempt := 0; ; attempt++ {
		raw, err := postOnce(ctx, client, ep.URL, body, header, limit)
		var se *StatusError
		if err == nil || attempt >= ep.Retries || !errors.As(err, &se) || !se.retryable() {
			return raw, err
		}
		t := time.NewTimer(backoff(attempt, se.retryAfter))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("%w, then %w", err, ctx.Err())
		case <-t.C:
		}
	}
}

func postOnce(ctx context.Context, client *http.Client, url string, body []byte, header string, limit int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if header != "" {
		req.Header.Set("Authorization", header)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("post: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		se := &StatusError{Code: resp.StatusCode, retryAfter: retryAfter(resp.Header.Get("Retry-After"), time.Now())}
		var eb errorBody
		if b, err := io.ReadAll(io.LimitReader(resp.Body, maxDrain)); err == nil && json.Unmarshal(b, &eb) == nil {
			se.Type, _ = eb.errorType()
		}
		return nil, se
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read response: %w", err)
	}
	return raw, nil
}

// retryAfter parses a Retry-After header, in seconds or as an HTTP date
// (RFC 9110 10.2.3) from now; -1 when absent or unreadable, 0 for a date
// already past.
func retryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if s, err := strconv.Atoi(h); err == nil {
		if s < 0 {
			return -1
		}
		return time.Duration(s) * time.Second
	}
	t, err := http.ParseTime(h)
	if err != nil {
		return -1
	}
	return max(0, t.Sub(now))
}

// backoff is the wait before attempt+1: the server's wish if it gave one,
// else baseBackoff doubled per attempt, capped at maxBackoff.
func backoff(attempt int, serverWish time.Duration) time.Duration {
	if serverWish >= 0 {
		return min(serverWish, maxBackoff)
	}
	return min(baseBackoff<<min(attempt, 8), maxBackoff)
}
