package relay

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// maxPayload is the embedded server's max_payload: room for a MaxEnvelope
// message. NATS defaults to 1 MiB; an external cluster must be configured
// with at least MaxEnvelope for full-size bodies (Publish says so if not).
const maxPayload = 2 << 20

// ServerConfig configures one embedded nats-server with JetStream.
type ServerConfig struct {
	// Name is the server's name, unique within a cluster.
	Name string
	// Listen is the client address; it must be on loopback. Empty: a free
	// port on 127.0.0.1.
	Listen string
	// StoreDir holds JetStream's storage. Required.
	StoreDir string
	// Cluster names the cluster; empty runs a standalone server.
	Cluster string
	// ClusterListen is the route address, on loopback (required with Cluster).
	ClusterListen string
	// Routes are the other nodes' route addresses (host:port).
	Routes []string
}

// Server is a running embedded nats-server. It is safe for concurrent use.
type Server struct {
	s *server.Server
}

// StartServer starts an embedded nats-server with JetStream bound to
// loopback and waits until it accepts connections. The caller owns it and
// must call Shutdown.
func StartServer(cfg ServerConfig) (*Server, error) {
	if cfg.StoreDir == "" {
		return nil, errors.New("relay: server: empty store dir")
	}
	host, port, err := loopback(cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("relay: server listen: %w", err)
	}
	opts := &server.Options{
		ServerName: cfg.Name,
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   cfg.StoreDir,
		MaxPayload: maxPayload,
		NoSigs:     true,
		NoLog:      true,
	}
	if cfg.Cluster != "" {
		chost, cport, err := loopback(cfg.ClusterListen)
		if err != nil || cport <= 0 {
			return nil, fmt.Errorf("relay: server cluster listen %q: need a loopback host:port", cfg.ClusterListen)
		}
		opts.Cluster = server.ClusterOpts{Name: cfg.Cluster, Host: chost, Port: cport}
		for _, r := range cfg.Routes {
			if _, _, err := loopback(r); err != nil {
				return nil, fmt.Errorf("relay: server route: %w", err)
			}
			opts.Routes = append(opts.Routes, &url.URL{Scheme: "nats-route", Host: r})
		}
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("relay: server: %w", err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, errors.New("relay: server: not ready after 10s")
	}
	return &Server{s: s}, nil
}

// URL is the client URL to connect to.
func (s *Server) URL() string { return s.s.ClientURL() }

// Shutdown stops the server and waits for it to finish.
func (s *Server) Shutdown() {
	s.s.Shutdown()
	s.s.WaitForShutdown()
}

// loopback splits addr ("" meaning a free port on 127.0.0.1) and refuses
// any host that is not a loopback address.
func loopback(addr string) (string, int, error) {
	if addr == "" {
		return "127.0.0.1", server.RANDOM_PORT, nil
	}
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("bad port in %q", addr)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	if host == "localhost" {
		return "127.0.0.1", port, nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return "", 0, fmt.Errorf("%q is not a loopback address", host)
	}
	return host, port, nil
}

// Cluster is n embedded JetStream servers clustered on loopback. It is what
// the tests run and what an operator can run for a clade on one host.
type Cluster struct {
	mu      sync.Mutex
	servers []*Server // nil once stopped
	urls    []string
}

// StartCluster starts n (≥ 3 for a replicated stream) clustered servers
// with their storage under dir/node<i>, and waits until JetStream's meta
// leader sees all n. The caller must call Close.
func StartCluster(dir string, n int) (*Cluster, error) {
	if n < 1 {
		return nil, fmt.Errorf("relay: cluster of %d nodes", n)
	}
	routes, err := freePorts(n)
	if err != nil {
		return nil, err
	}
	c := &Cluster{}
	for i := range n {
		s, err := StartServer(ServerConfig{
			Name:          fmt.Sprintf("ward-relay-%d", i),
			StoreDir:      filepath.Join(dir, fmt.Sprintf("node%d", i)),
			Cluster:       "ward-relay",
			ClusterListen: routes[i],
			Routes:        routes,
		})
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("relay: cluster node %d: %w", i, err)
		}
		c.servers = append(c.servers, s)
		c.urls = append(c.urls, s.URL())
	}
	deadline := time.Now().Add(30 * time.Second)
	for !c.ready(n) {
		if time.Now().After(deadline) {
			c.Close()
			return nil, fmt.Errorf("relay: cluster: JetStream has no leader seeing %d peers after 30s", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return c, nil
}

// ready reports whether JetStream's meta leader sees n live peers: only
// then can a stream with n replicas be placed.
func (c *Cluster) ready(n int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.servers {
		if s != nil && s.s.JetStreamIsLeader() && len(s.s.JetStreamClusterPeers()) >= n {
			return true
		}
	}
	return false
}

// URLs returns every node's client URL, stopped ones included (a client
// given them all reconnects to whichever is up).
func (c *Cluster) URLs() []string { return append([]string(nil), c.urls...) }

// Stop shuts node i down; the others keep serving. Stopping a stopped node
// does nothing.
func (c *Cluster) Stop(i int) {
	c.mu.Lock()
	s := c.servers[i]
	c.servers[i] = nil
	c.mu.Unlock()
	if s != nil {
		s.Shutdown()
	}
}

// Close shuts every node down.
func (c *Cluster) Close() {
	for i := range c.servers {
		c.Stop(i)
	}
}

// freePorts finds n free loopback ports. They are released before the
// servers bind them; the window is small and a collision fails loudly.
func freePorts(n int) ([]string, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var addrs []string
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("relay: free port: %w", err)
		}
		ls = append(ls, l)
		addrs = append(addrs, l.Addr().String())
	}
	return addrs, nil
}
