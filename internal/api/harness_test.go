package api_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/api"
	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/facade"
)

// The API's tests run against the real thing: daemon.Serve on a free
// loopback port with a temporary data directory (its embedded dev chain,
// store, policy, hooks and bus), the API mounted as ward serve mounts it.

// testPolicy quarantines Uniswap V3 swaps above 100 USDC.
const testPolicy = `
[store]
synchronous = "normal"

[[policy.rules]]
id = "custom.review-big-swaps"
applies_to = { by = "name", names = ["uniswap_execute_swap"] }
when = 'int(args.amount_in) > 100000000'
action = "quarantine"
reason_code = "SWAP_REVIEW"
message = "swaps above 100 USDC wait for the owner"
`

// harness is one running ward serve with tokens of each role.
type harness struct {
	t                  *testing.T
	base               string
	owner, agent, peer string // bearer tokens
	agentID            string // the agent token's principal id
	srv                *daemon.Server
	api                *api.Server
	usdc, weth         string
	client             *http.Client
	stop               func()
	served             chan error
	stopped            bool
}

type harnessOpts struct {
	heartbeat  time.Duration
	maxStreams int
	safe       api.Safe // zero: the daemon's
	ownerTxs   api.OwnerTxs
}

func start(t *testing.T, o harnessOpts) *harness {
	t.Helper()
	f, err := config.Parse("ward.toml", []byte(testPolicy))
	if err != nil {
		t.Fatal(err)
	}
	if o.heartbeat == 0 {
		o.heartbeat = time.Hour
	}
	h := &harness{t: t, client: &http.Client{Timeout: 2 * time.Minute}, served: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	h.stop = cancel
	pr, pw := io.Pipe()
	mount := func(s *daemon.Server) error {
		h.srv = s
		st := s.Stack
		a, err := api.New(api.Config{
			Authenticate: s.Authenticate, Session: s.Session,
			Tools: st.Facade, Store: st.Store, Policy: st.Engine.Snapshot,
			Spending: st.Hooks.Spending, Bus: st.Bus, Log: s.Log,
			Heartbeat: o.heartbeat, MaxStreams: o.maxStreams,
			Trust: api.Trust{
				Create: func(ctx context.Context, p auth.Principal, o api.SessionOptions) (*facade.Session, error) {
					return s.CreateSession(ctx, p, daemon.SessionOptions(o))
				},
				Named: s.NamedSession, ByID: s.SessionByID,
			},
			Tokens:   api.Tokens{Store: st.Store, Invalidate: s.Verifier.Invalidate},
			Safe:     o.safe,
			OwnerTxs: o.ownerTxs,
		})
		if err != nil {
			return err
		}
		a.Mount(s.Mux)
		h.api = a
		now := time.Now()
		for _, tok := range []struct {
			dst  *string
			role auth.Role
		}{{&h.owner, auth.Owner}, {&h.agent, auth.Agent}, {&h.peer, auth.Peer}} {
			v, p, err := auth.Create(ctx, st.Store, auth.Spec{Role: tok.role, Name: "test " + string(tok.role)}, now)
			if err != nil {
				return err
			}
			*tok.dst = v
			if tok.role == auth.Agent {
				h.agentID = p.ID
			}
		}
		dc := st.Dev.Contracts()
		h.usdc, h.weth = dc.USDC.Hex(), dc.WETH.Hex()
		return nil
	}
	go func() {
		err := daemon.Serve(ctx, daemon.ServeConfig{Addr: "127.0.0.1:0", Data: t.TempDir(), File: f, Out: pw, Mount: mount})
		pw.CloseWithError(fmt.Errorf("serve returned: %v", err))
		h.served <- err
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("ward serve did not start: %v", err)
	}
	go io.Copy(io.Discard, pr)
	addr, _, _ := strings.Cut(strings.TrimPrefix(line, "ward ready on "), " ")
	h.base = addr
	t.Cleanup(h.shutdown)
	return h
}

// shutdown stops ward serve and checks it stopped cleanly and quickly.
func (h *harness) shutdown() {
	if h.stopped {
		return
	}
	h.stopped = true
	start := time.Now()
	h.stop()
	if err := <-h.served; err != nil {
		h.t.Errorf("ward serve: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		h.t.Errorf("shutdown took %v", d)
	}
}

// response is a finished request.
type response struct {
	status int
	header http.Header
	body   []byte
}

// errCode is the error code of a JSON error response ("" if it is none).
func (r *response) errCode() string {
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(r.body, &e) != nil {
		return ""
	}
	return e.Error.Code
}

func (r *response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("response %d %s: %v", r.status, r.body, err)
	}
}

// do sends a request; body is JSON-encoded unless it is a string or
// []byte.
func (h *harness) do(method, path, token string, body any, headers ...string) *response {
	h.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			h.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, h.base+path, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := h.client.Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatalf("%s %s: read: %v", method, path, err)
	}
	return &response{status: resp.StatusCode, header: resp.Header, body: b}
}

// want checks a response's status and, for an error, its code.
func (h *harness) want(r *response, status int, code string) {
	h.t.Helper()
	if r.status != status {
		h.t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	if code != "" && r.errCode() != code {
		h.t.Fatalf("error code %q, want %q: %s", r.errCode(), code, r.body)
	}
}

// swap returns preview_action's arguments for a USDC → WETH swap.
func (h *harness) swap(usdc int64) string {
	return fmt.Sprintf(`{"action_type":"swap","venue":"uniswap_v3","params":{"token_in":%q,"token_out":%q,"amount_in":"%d"}}`,
		h.usdc, h.weth, usdc*1_000_000)
}

// sessionOf returns the id of the session token holds under name ("" is
// its default session), as GET /v1/gate reports it.
func (h *harness) sessionOf(token, name string) string {
	h.t.Helper()
	var headers []string
	if name != "" {
		headers = []string{"X-Ward-Session", name}
	}
	r := h.do("GET", "/v1/gate", token, nil, headers...)
	h.want(r, http.StatusOK, "")
	var g struct {
		SessionID string `json:"session_id"`
	}
	r.decode(h.t, &g)
	if g.SessionID == "" {
		h.t.Fatal("GET /v1/gate named no session")
	}
	return g.SessionID
}
