package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/wardhq/ward/internal/event"
)

// maxBody bounds a JSON response the client reads.
const maxBody = 4 << 20

// errNotServed is returned for an endpoint the daemon does not serve (404).
var errNotServed = errors.New("not served")

// Client talks to ward's HTTP API with a bearer token. Its methods are
// safe for concurrent use.
type Client struct {
	base  *url.URL
	token string
	http  *http.Client
}

// NewClient returns a client of the API at addr ("http://127.0.0.1:8787",
// or a bare "host:port") sending token. It refuses plain HTTP to a host
// other than loopback unless insecure is set: the token (an owner's, to
// approve quarantined calls) would cross the network in clear.
func NewClient(addr, token string, insecure bool) (*Client, error) {
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	u, err := url.Parse(addr)
	if err != nil {
		return nil, fmt.Errorf("tui: address: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("tui: address %q: want http(s)://host:port", addr)
	}
	if u.Scheme == "http" && !insecure && !loopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("tui: %s is not a loopback address: use https, or pass --insecure-remote to send the token in clear", u.Host)
	}
	if token == "" {
		return nil, errors.New("tui: a bearer token is required (--token or WARD_TOKEN; see ward token create)")
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	// No client timeout: the event stream is long-lived; every other
	// request has its context's deadline.
	return &Client{base: u, token: token, http: &http.Client{}}, nil
}

func loopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Addr returns the API's base URL.
func (c *Client) Addr() string { return c.base.String() }

func (c *Client) request(ctx context.Context, method, path string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base.String()+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	return req, nil
}

// apiError reads the API's error body ({"error":{"code","message"}}) of a
// failed response.
func apiError(resp *http.Response) error {
	var body struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	_ = json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&body)
	if resp.StatusCode == http.StatusNotFound && (body.Error.Code == "" || body.Error.Code == "NOT_FOUND") {
		return errNotServed
	}
	if body.Error.Code != "" {
		return fmt.Errorf("%s: %s: %s", resp.Status, body.Error.Code, body.Error.Message)
	}
	return errors.New(resp.Status)
}

// getJSON GETs path and decodes its JSON body into v.
func (c *Client) getJSON(ctx context.Context, path string, v any) error {
	req, err := c.request(ctx, http.MethodGet, path)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %w", path, apiError(resp))
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxBody)).Decode(v); err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	return nil
}

// Stream opens GET /v1/events and calls fn for each event until the
// stream ends, fails or ctx ends; opened is called once the daemon has
// accepted the stream. lastID, when not empty, is sent as Last-Event-ID.
// It returns the last event id seen with the error (never nil).
func (c *Client) Stream(ctx context.Context, lastID string, opened func(), fn func(event.Event)) (string, error) {
	req, err := c.request(ctx, http.MethodGet, "/v1/events")
	if err != nil {
		return lastID, err
	}
	req.Header.Set("Accept", "text/event-stream")
	if lastID != "" && len(lastID) <= 64 {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return lastID, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return lastID, apiError(resp)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		return lastID, fmt.Errorf("event stream: content type %q", ct)
	}
	opened()
	return readSSE(resp.Body, lastID, fn)
}

// Decide approves or rejects the quarantined item id
// (POST /v1/quarantine/{id}/approve or .../reject) and returns what the
// review did: an approval runs the call, and the answer carries its
// outcome.
func (c *Client) Decide(ctx context.Context, id string, approve bool) (string, error) {
	verb := "reject"
	if approve {
		verb = "approve"
	}
	path := "/v1/quarantine/" + url.PathEscape(id) + "/" + verb
	req, err := c.request(ctx, http.MethodPost, path)
	if err != nil {
		return "", err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", apiError(resp)
	}
	var w reviewedWire
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxBody)).Decode(&w); err != nil {
		return "", fmt.Errorf("POST %s: %w", path, err)
	}
	return w.summary(), nil
}

// Snapshot fetches the gate's status, the quarantine queue and the recent
// decisions. An endpoint the daemon does not serve is listed in Missing;
// any other failure is returned.
func (c *Client) Snapshot(ctx context.Context) (Snapshot, error) {
	var s Snapshot
	var errs []error
	part := func(name string, err error) {
		if errors.Is(err, errNotServed) {
			s.Missing = append(s.Missing, name)
		} else if err != nil {
			errs = append(errs, err)
		}
	}
	var g gateWire
	err := c.getJSON(ctx, "/v1/gate", &g)
	part("gate", err)
	if err == nil {
		s.Gate = g.gate()
	}
	var q quarantineWire
	err = c.getJSON(ctx, "/v1/quarantine", &q)
	part("quarantine", err)
	if err == nil {
		s.Held = q.held()
	}
	// The reviews of recent held calls, to mark their decisions.
	var all quarantineWire
	if err := c.getJSON(ctx, "/v1/quarantine?status=all&limit=200", &all); err == nil {
		s.Reviews = all.reviews()
	}
	var d decisionsWire
	err = c.getJSON(ctx, "/v1/decisions?origin=gate&limit=50", &d)
	part("decisions", err)
	if err == nil {
		s.Decisions = d.decisions()
	}
	return s, errors.Join(errs...)
}
