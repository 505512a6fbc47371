// Package egress is the proxy through which a sandboxed program without
// the network reaches the hosts an operator listed for it, and nothing
// else.
//
// A Proxy serves one connection at a time as an HTTP proxy: a CONNECT
// request (the tunnel HTTPS clients open through HTTPS_PROXY) or a plain
// HTTP request with an absolute URI. It forwards only to a listed
// host:port. It resolves names itself and dials the address it checked,
// so what the program's own resolver says never matters and a name that
// resolves to another address by the time of the dial (DNS rebinding)
// still reaches only an address the check saw. A name that resolves to a
// loopback, private, link-local, unspecified or multicast address is
// refused; such an address is reachable only when listed literally. An
// address literal is reachable only when listed literally. Every refusal
// is answered with an HTTP error status and no detail beyond "not
// allowed".
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
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultPort is the port of a host listed without one.
const DefaultPort = 443

// Config is a Proxy's configuration. The zero Config allows nothing.
type Config struct {
	// Hosts are the destinations allowed: "name", "name:port",
	// "address" or "[v6address]:port"; without a port, DefaultPort.
	Hosts []string
	// Resolve resolves a name to its addresses; nil uses the system
	// resolver (net.DefaultResolver.LookupNetIP).
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// Dial connects to an address the proxy allowed ("ip:port"); nil uses
	// a net.Dialer with a 10 s timeout.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Refused is told of each refused connection, on the connection's
	// goroutine with ServeConn's ctx (which ends with the sandbox),
	// before the refusal is answered (so that a record of it precedes
	// the program's knowing); nil reports none. It must not block for
	// long: the connection's slot is held meanwhile.
	Refused func(ctx context.Context, r Refusal)
}

// Reason is why a connection was refused. The zero value is no reason.
type Reason uint8

// Reasons of a refusal.
const (
	reasonNone Reason = iota
	// NotListed: the destination's host and port are not listed (an
	// address literal reached by a listed name included).
	NotListed
	// NotPublic: a listed name resolved to a loopback, private,
	// link-local, shared or unspecified address.
	NotPublic
	// Unresolved: a listed name did not resolve.
	Unresolved
	// BadRequest: the connection did not open with a proxy request the
	// proxy serves (CONNECT, or plain HTTP with an absolute http URI).
	BadRequest
	// OverCap: the sandbox was already serving its maximum of
	// connections (sandbox.MaxEgressConns); no request was read. The
	// sandbox reports it, not the proxy.
	OverCap
	numReasons
)

var reasonNames = [numReasons]string{"", "not_listed", "not_public", "unresolved", "bad_request", "over_cap"}

// String returns the reason's code, as records carry it.
func (r Reason) String() string {
	if r < numReasons {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// MarshalText encodes the reason as its code.
func (r Reason) MarshalText() ([]byte, error) {
	if r == reasonNone || r >= numReasons {
		return nil, fmt.Errorf("egress: marshal reason %d: not a reason", uint8(r))
	}
	return []byte(r.String()), nil
}

// Refusal is one refused connection: the destination it asked for
// ("host:port" as the program sent it, cut to MaxTarget bytes; empty when
// no request was read) and why.
type Refusal struct {
	Target string
	Reason Reason
}

// MaxTarget bounds the destination a Refusal carries.
const MaxTarget = 256

// Proxy enforces a Config. Its methods are safe for concurrent use.
type Proxy struct {
	allowed map[hostPort]bool
	resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	dial    func(ctx context.Context, network, addr string) (net.Conn, error)
	refused func(context.Context, Refusal)
}

type hostPort struct {
	host string // a lower-case name without trailing dot, or an address's String
	port uint16
}

// New validates cfg and returns its Proxy.
func New(cfg Config) (*Proxy, error) {
	p := &Proxy{allowed: map[hostPort]bool{}, resolve: cfg.Resolve, dial: cfg.Dial, refused: cfg.Refused}
	for _, h := range cfg.Hosts {
		hp, err := parseHost(h)
		if err != nil {
			return nil, err
		}
		p.allowed[hp] = true
	}
	if p.resolve == nil {
		p.resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	if p.dial == nil {
		d := &net.Dialer{Timeout: 10 * time.Second}
		p.dial = d.DialContext
	}
	return p, nil
}

// ValidHost checks one entry of Config.Hosts.
func ValidHost(s string) error {
	_, err := parseHost(s)
	return err
}

// parseHost returns an entry of Config.Hosts in the form the proxy
// compares.
func parseHost(s string) (hostPort, error) {
	host, port := s, DefaultPort
	if h, p, err := net.SplitHostPort(s); err == nil {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil || n == 0 {
			return hostPort{}, fmt.Errorf("egress: host %q: port must be 1 to 65535", s)
		}
		host, port = h, int(n)
	} else if strings.Count(s, ":") == 1 {
		return hostPort{}, fmt.Errorf("egress: host %q: %w", s, err)
	}
	hp, ok := canonical(host)
	if !ok {
		return hostPort{}, fmt.Errorf("egress: host %q is not a host name or an address", s)
	}
	hp.port = uint16(port)
	return hp, nil
}

// canonical returns host as the proxy compares it, and false when it is
// neither an address nor a plausible DNS name.
func canonical(host string) (hostPort, bool) {
	if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")); err == nil {
		if a.Zone() != "" {
			return hostPort{}, false
		}
		return hostPort{host: a.Unmap().String()}, true
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "" || len(host) > 253 {
		return hostPort{}, false
	}
	for label := range strings.SplitSeq(host, ".") {
		if label == "" || len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") {
			return hostPort{}, false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				return hostPort{}, false
			}
		}
	}
	return hostPort{host: host}, true
}

// ErrNotAllowed is the cause of a refused destination.
var ErrNotAllowed = errors.New("egress: destination not allowed")

// check resolves target ("host:port") and returns the addresses the proxy
// may dial for it, or the reason of a refusal and an error wrapping
// ErrNotAllowed.
func (p *Proxy) check(ctx context.Context, target string) ([]netip.AddrPort, Reason, error) {
	h, portStr, err := net.SplitHostPort(target)
	if err != nil {
		return nil, NotListed, fmt.Errorf("%w: %q is not host:port", ErrNotAllowed, target)
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil || port == 0 {
		return nil, NotListed, fmt.Errorf("%w: port %q", ErrNotAllowed, portStr)
	}
	hp, ok := canonical(h)
	if !ok {
		return nil, NotListed, fmt.Errorf("%w: host %q", ErrNotAllowed, h)
	}
	hp.port = uint16(port)
	if !p.allowed[hp] {
		return nil, NotListed, fmt.Errorf("%w: %s not listed", ErrNotAllowed, target)
	}
	if a, err := netip.ParseAddr(hp.host); err == nil {
		return []netip.AddrPort{netip.AddrPortFrom(a, hp.port)}, reasonNone, nil // listed literally
	}
	addrs, err := p.resolve(ctx, hp.host)
	if err != nil {
		return nil, Unresolved, fmt.Errorf("%w: resolve %s: %v", ErrNotAllowed, hp.host, err)
	}
	var out []netip.AddrPort
	for _, a := range addrs {
		a = a.Unmap()
		if !public(a) {
			return nil, NotPublic, fmt.Errorf("%w: %s resolves to %s, not a public address", ErrNotAllowed, hp.host, a)
		}
		out = append(out, netip.AddrPortFrom(a, hp.port))
	}
	if len(out) == 0 {
		return nil, Unresolved, fmt.Errorf("%w: %s resolves to nothing", ErrNotAllowed, hp.host)
	}
	return out, reasonNone, nil
}

// public reports whether a is an address a listed name may resolve to.
func public(a netip.Addr) bool {
	return a.IsValid() && a.IsGlobalUnicast() && !a.IsPrivate() && !a.IsLoopback() && !a.IsLinkLocalUnicast() &&
		!cgnat.Contains(a) && !a.Is4In6()
}

// cgnat is the shared address space of RFC 6598, private in all but name.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// maxHeader bounds the request head the proxy reads from the program.
const maxHeader = 16 << 10

// ServeConn serves one client connection: it reads one request, checks
// its destination and either relays bytes both ways until either side
// closes or ctx ends, or answers with an error status. It closes conn.
func (p *Proxy) ServeConn(ctx context.Context, conn net.Conn) {
	defer conn.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	head := &io.LimitedReader{R: conn, N: maxHeader}
	br := bufio.NewReaderSize(head, maxHeader)
	req, err := http.ReadRequest(br)
	if err != nil {
		// A connection closed before a byte (or by ward's end) asked for
		// nothing.
		if !errors.Is(err, io.EOF) && ctx.Err() == nil {
			p.refuse(ctx, "", BadRequest)
		}
		reply(conn, http.StatusBadRequest)
		return
	}
	conn.SetReadDeadline(time.Time{})
	head.N = 1 << 62 // the body is not bounded
	target, connect := req.Host, req.Method == http.MethodConnect
	if !connect {
		if req.URL.Scheme != "http" || req.URL.Host == "" {
			p.refuse(ctx, req.Host, BadRequest)
			reply(conn, http.StatusBadRequest)
			return
		}
		target = req.URL.Host
		if _, _, err := net.SplitHostPort(target); err != nil {
			target = net.JoinHostPort(strings.Trim(target, "[]"), "80")
		}
	}
	addrs, why, err := p.check(ctx, target)
	if err != nil {
		p.refuse(ctx, target, why)
		reply(conn, http.StatusForbidden)
		return
	}
	var up net.Conn
	for _, a := range addrs {
		if up, err = p.dial(ctx, "tcp", a.String()); err == nil {
			break
		}
	}
	if up == nil {
		reply(conn, http.StatusBadGateway)
		return
	}
	defer up.Close()
	if !connect {
		// One request per connection, the response relayed back: a next
		// request may name another host.
		req.Header.Del("Proxy-Connection")
		req.Header.Del("Proxy-Authorization")
		req.Close = true
		if err := req.WriteProxy(up); err == nil {
			io.Copy(conn, up)
		}
		return
	}
	if _, err := io.WriteString(conn, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	// What the client sent past the request head is the tunnel's start.
	if n := br.Buffered(); n > 0 {
		b, _ := br.Peek(n)
		if _, err := up.Write(b); err != nil {
			return
		}
	}
	relay(conn, up)
}

// refuse reports a refusal to Config.Refused.
func (p *Proxy) refuse(ctx context.Context, target string, why Reason) {
	if p.refused == nil {
		return
	}
	if len(target) > MaxTarget {
		target = strings.ToValidUTF8(target[:MaxTarget], "")
	}
	p.refused(ctx, Refusal{Target: target, Reason: why})
}

// relay copies both ways until both directions end.
func relay(a, b net.Conn) {
	var wg sync.WaitGroup
	half := func(dst, src net.Conn) {
		io.Copy(dst, src)
		if cw, ok := dst.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		} else {
			dst.Close()
		}
	}
	wg.Go(func() { half(b, a) })
	half(a, b)
	wg.Wait()
}

func reply(w io.Writer, code int) {
	fmt.Fprintf(w, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: 12\r\n\r\nnot allowed\n", code, http.StatusText(code))
}
