package egress

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
)

// names is the test's DNS: a public name, a name that resolves to
// loopback (a rebinding to the host) and one that resolves to a private
// address.
var names = map[string][]netip.Addr{
	"api.example.com":    {netip.MustParseAddr("203.0.113.7")},
	"rebind.example.com": {netip.MustParseAddr("127.0.0.1")},
	"lan.example.com":    {netip.MustParseAddr("203.0.113.8"), netip.MustParseAddr("192.168.1.10")},
	"other.example.com":  {netip.MustParseAddr("203.0.113.9")},
}

func resolve(_ context.Context, host string) ([]netip.Addr, error) {
	if a, ok := names[host]; ok {
		return a, nil
	}
	return nil, errors.New("no such host")
}

func TestCheck(t *testing.T) {
	p, err := New(Config{Hosts: []string{"api.example.com", "rebind.example.com", "lan.example.com:8443", "127.0.0.1:9000", "[2001:db8::1]:443"}, Resolve: resolve})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		target string
		want   string // the first address allowed, "" for a refusal
	}{
		{"api.example.com:443", "203.0.113.7:443"},
		{"API.Example.COM.:443", "203.0.113.7:443"},
		{"api.example.com:80", ""},                 // port not listed
		{"other.example.com:443", ""},              // name not listed
		{"203.0.113.7:443", ""},                    // the listed name's address, not listed itself
		{"rebind.example.com:443", ""},             // listed, resolves to loopback
		{"lan.example.com:8443", ""},               // one of its addresses is private
		{"127.0.0.1:9000", "127.0.0.1:9000"},       // loopback listed literally
		{"127.0.0.1:9001", ""},                     // another port of it
		{"[2001:db8::1]:443", "[2001:db8::1]:443"}, // a v6 literal
		{"[::ffff:127.0.0.1]:9000", "127.0.0.1:9000"},
		{"api.example.com", ""},
		{"api.example.com:0", ""},
		{"nope:443", ""},
	} {
		t.Run(tc.target, func(t *testing.T) {
			got, _, err := p.check(t.Context(), tc.target)
			switch {
			case tc.want == "" && !errors.Is(err, ErrNotAllowed):
				t.Errorf("got %v, %v; want ErrNotAllowed", got, err)
			case tc.want != "" && (err != nil || got[0].String() != tc.want):
				t.Errorf("got %v, %v; want %s", got, err, tc.want)
			}
		})
	}
}

func TestValidHost(t *testing.T) {
	for _, h := range []string{"api.example.com", "api.example.com:8443", "10.0.0.1", "[::1]:443", "::1"} {
		if err := ValidHost(h); err != nil {
			t.Errorf("%q: %v", h, err)
		}
	}
	for _, h := range []string{"", "http://api.example.com", "api.example.com:0", "api.example.com:99999", "a b", "-x.com", "api.example.com/path", "*.example.com", "fe80::1%eth0"} {
		if err := ValidHost(h); err == nil {
			t.Errorf("%q: valid, want an error", h)
		}
	}
}

// TestServeConn runs the proxy against a real origin on loopback that
// the test's DNS calls api.example.com (203.0.113.7): the dial is
// redirected, the decision is the proxy's.
func TestServeConn(t *testing.T) {
	origin, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer origin.Close()
	go func() {
		for {
			c, err := origin.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				line, _ := r.ReadString('\n')
				if strings.HasPrefix(line, "GET ") {
					io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\norigin")
					return
				}
				io.WriteString(c, "echo "+line)
			}()
		}
	}()
	var dialed []string
	var refused []Refusal
	p, err := New(Config{Hosts: []string{"api.example.com", "api.example.com:80", "rebind.example.com", "gone.example.com"}, Resolve: resolve,
		Refused: func(_ context.Context, r Refusal) { refused = append(refused, r) },
		Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dialed = append(dialed, addr)
			if addr != "203.0.113.7:443" && addr != "203.0.113.7:80" {
				return nil, fmt.Errorf("test: no route to %s", addr)
			}
			return net.Dial("tcp4", origin.Addr().String())
		}})
	if err != nil {
		t.Fatal(err)
	}
	exchange := func(req string) string {
		client, server := net.Pipe()
		done := make(chan struct{})
		go func() { p.ServeConn(t.Context(), server); close(done) }()
		io.WriteString(client, req)
		b, _ := io.ReadAll(client)
		client.Close()
		<-done
		return string(b)
	}
	if got := exchange("CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\r\nhello\n"); !strings.Contains(got, " 200 ") || !strings.HasSuffix(got, "echo hello\n") {
		t.Errorf("CONNECT to a listed host: %q", got)
	}
	if got := exchange("GET http://api.example.com/x HTTP/1.1\r\nHost: api.example.com\r\n\r\n"); !strings.HasSuffix(got, "origin") {
		t.Errorf("plain GET to a listed host: %q", got)
	}
	if len(refused) != 0 {
		t.Errorf("listed hosts reported refusals %v", refused)
	}
	dialed = nil
	long := strings.Repeat("a", 300) + ".example.com:443"
	for _, tc := range []struct {
		req  string
		want Refusal
	}{
		{"CONNECT other.example.com:443 HTTP/1.1\r\nHost: other.example.com:443\r\n\r\n", Refusal{"other.example.com:443", NotListed}},
		{"CONNECT api.example.com:8443 HTTP/1.1\r\nHost: api.example.com:8443\r\n\r\n", Refusal{"api.example.com:8443", NotListed}},
		{"CONNECT 203.0.113.7:443 HTTP/1.1\r\nHost: 203.0.113.7:443\r\n\r\n", Refusal{"203.0.113.7:443", NotListed}},
		{"CONNECT rebind.example.com:443 HTTP/1.1\r\nHost: rebind.example.com:443\r\n\r\n", Refusal{"rebind.example.com:443", NotPublic}},
		{"CONNECT gone.example.com:443 HTTP/1.1\r\nHost: gone.example.com:443\r\n\r\n", Refusal{"gone.example.com:443", Unresolved}},
		{"GET http://other.example.com/ HTTP/1.1\r\nHost: api.example.com\r\n\r\n", Refusal{"other.example.com:80", NotListed}},
		{"GET /relative HTTP/1.1\r\nHost: api.example.com\r\n\r\n", Refusal{"api.example.com", BadRequest}},
		{"not http\r\n\r\n", Refusal{"", BadRequest}},
		{"CONNECT " + long + " HTTP/1.1\r\n\r\n", Refusal{long[:MaxTarget], NotListed}},
	} {
		refused = nil
		got := exchange(tc.req)
		if code := statusCode(got); code != http.StatusForbidden && code != http.StatusBadRequest {
			t.Errorf("%q: got %q, want 403 or 400", tc.req, got)
		}
		if len(refused) != 1 || refused[0] != tc.want {
			t.Errorf("%q: reported %v, want %v", tc.req, refused, tc.want)
		}
	}
	if len(dialed) != 0 {
		t.Errorf("refused requests dialed %v", dialed)
	}
	refused = nil
	client, server := net.Pipe()
	client.Close()
	p.ServeConn(t.Context(), server)
	if len(refused) != 0 {
		t.Errorf("a connection closed before a byte reported %v; want no refusal", refused)
	}
}

func statusCode(resp string) int {
	var code int
	fmt.Sscanf(resp, "HTTP/1.1 %d", &code)
	return code
}

func FuzzServeConnHead(f *testing.F) {
	f.Add("CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\r\n")
	f.Add("GET http://api.example.com/ HTTP/1.1\r\n\r\n")
	f.Add("CONNECT [::1]:443 HTTP/1.1\r\n\r\n")
	var bad atomic.Value
	p, err := New(Config{Hosts: []string{"api.example.com"}, Resolve: resolve,
		Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if addr != "203.0.113.7:443" {
				bad.Store(addr)
			}
			return nil, errors.New("fuzz: no dial")
		}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, head string) {
		client, server := net.Pipe()
		done := make(chan struct{})
		go func() { p.ServeConn(t.Context(), server); close(done) }()
		go io.Copy(io.Discard, client)
		io.WriteString(client, head)
		client.Close()
		<-done
		if a := bad.Load(); a != nil {
			t.Fatalf("%q dialed %v, which is not listed", head, a)
		}
	})
}
