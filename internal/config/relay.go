package config

import (
	"fmt"
	"net"
	"net/url"
	"time"
)

// Relay configures the relay between the members of the operator's clade
// ([relay]): filters of known-bad content, immune signatures, entries
// shared for validation, verdicts and source reports, over NATS. Without a
// [relay] table ward relays nothing.
type Relay struct {
	// Enabled is set by a [relay] table.
	Enabled bool
	// URLs are the NATS servers to connect to (nats:// or tls://); none:
	// ward starts an embedded server on Listen (one host, JetStream on,
	// storage in the data directory).
	URLs []string
	// Listen is the embedded server's client address (default
	// DefaultRelayListen, loopback).
	Listen string
	// Credentials is a NATS .creds file (user JWT and NKey seed).
	Credentials string
	// TLS: CA verifies the servers; Cert and Key are the client's
	// certificate (both or neither).
	TLSCA, TLSCert, TLSKey string
	// KeyFile holds this member's secp256k1 key (hex); its address must be
	// a member of [grimoire] clade. Every message is signed with it.
	KeyFile string
	// MaxAge is how long the stream keeps messages for members that are
	// offline (default DefaultRelayMaxAge).
	MaxAge time.Duration
	// MaxBytes caps the stream's storage; JetStream reserves it when the
	// stream is created, so every server must have that much free (default
	// DefaultRelayMaxBytes).
	MaxBytes int64
	// Replicas is the stream's replication factor (default 1; 3 on a
	// three-node cluster).
	Replicas int
}

// Defaults of [relay].
const (
	DefaultRelayListen = "127.0.0.1:4222"
	DefaultRelayMaxAge = 7 * 24 * time.Hour
	// DefaultRelayMaxBytes is relay.DefaultMaxBytes (1 GiB).
	DefaultRelayMaxBytes = 1 << 30
)

type relayTOML struct {
	URLs        []string `toml:"urls"`
	Listen      *string  `toml:"listen"`
	Credentials *string  `toml:"credentials"`
	TLSCA       *string  `toml:"tls_ca"`
	TLSCert     *string  `toml:"tls_cert"`
	TLSKey      *string  `toml:"tls_key"`
	KeyFile     *string  `toml:"key_file"`
	MaxAge      *string  `toml:"max_age" shape:"duration"`
	MaxBytes    *int64   `toml:"max_bytes"`
	Replicas    *int     `toml:"replicas"`
}

func relaySection(f *File, raw *fileTOML, idx *positions) []Diagnostic {
	f.Relay = Relay{}
	r := raw.Relay
	if r == nil {
		return nil
	}
	out := Relay{Enabled: true, Listen: DefaultRelayListen, MaxAge: DefaultRelayMaxAge, MaxBytes: DefaultRelayMaxBytes, Replicas: 1}
	var diags []Diagnostic
	for i, u := range r.URLs {
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "nats" && p.Scheme != "tls") || p.Host == "" {
			diags = append(diags, idx.at("relay.urls", fmt.Sprintf("entry %d: want nats://host:port or tls://host:port", i+1)))
		}
	}
	out.URLs = r.URLs
	str := func(key string, p *string, dst *string) {
		if p == nil {
			return
		}
		if *p == "" {
			diags = append(diags, idx.at("relay."+key, "must not be empty (leave it out)"))
		}
		*dst = *p
	}
	str("listen", r.Listen, &out.Listen)
	str("credentials", r.Credentials, &out.Credentials)
	str("tls_ca", r.TLSCA, &out.TLSCA)
	str("tls_cert", r.TLSCert, &out.TLSCert)
	str("tls_key", r.TLSKey, &out.TLSKey)
	str("key_file", r.KeyFile, &out.KeyFile)
	if r.Listen != nil && *r.Listen != "" {
		if _, _, err := net.SplitHostPort(*r.Listen); err != nil {
			diags = append(diags, idx.at("relay.listen", "want host:port"))
		}
		if len(r.URLs) > 0 {
			diags = append(diags, idx.at("relay.listen", "is for the embedded server: leave it out with urls"))
		}
	}
	if (out.TLSCert == "") != (out.TLSKey == "") {
		diags = append(diags, idx.at("relay.tls_cert", "tls_cert and tls_key go together"))
	}
	if out.KeyFile == "" && r.KeyFile == nil {
		diags = append(diags, idx.at("relay", "needs key_file: the member key every message is signed with"))
	}
	if r.MaxAge != nil {
		d, err := time.ParseDuration(*r.MaxAge)
		if err != nil || d < time.Minute || d > 365*24*time.Hour {
			diags = append(diags, idx.at("relay.max_age", fmt.Sprintf("invalid duration %q: want 1m to 8760h", *r.MaxAge)))
		} else {
			out.MaxAge = d
		}
	}
	if r.MaxBytes != nil {
		if *r.MaxBytes < 1<<20 || *r.MaxBytes > 1<<40 {
			diags = append(diags, idx.at("relay.max_bytes", fmt.Sprintf("%d: want 1048576 (1 MiB) to 1099511627776 (1 TiB) bytes", *r.MaxBytes)))
		} else {
			out.MaxBytes = *r.MaxBytes
		}
	}
	if r.Replicas != nil {
		if *r.Replicas < 1 || *r.Replicas > 5 {
			diags = append(diags, idx.at("relay.replicas", "want 1 to 5"))
		} else {
			out.Replicas = *r.Replicas
		}
	}
	if f.Grimoire.Clade == "" {
		diags = append(diags, idx.at("relay", "needs [grimoire] clade: the relay carries one clade's messages"))
	}
	f.Relay = out
	return diags
}
