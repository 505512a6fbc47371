package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/wardhq/ward/internal/egress"
	"github.com/wardhq/ward/internal/sandbox"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/upstream"
)

// upstreamTOML is one [[upstream]] table.
type upstreamTOML struct {
	Name    *string           `toml:"name"`
	Command []string          `toml:"command"`
	URL     *string           `toml:"url"`
	Env     map[string]string `toml:"env"`
	Headers map[string]string `toml:"headers"`
	// TrustAnnotations: the server's MCP annotations are the operator's
	// word (upstream.Server.TrustAnnotations).
	TrustAnnotations bool `toml:"trust_annotations"`
	// Confinement of a command server (upstream.Confinement).
	Sandbox   *bool    `toml:"sandbox"`
	Network   bool     `toml:"network"`
	Hosts     []string `toml:"hosts"`
	Paths     []string `toml:"paths"`
	Memory    any      `toml:"memory"` // bytes, or "512MiB"
	Processes *int64   `toml:"processes"`
	CPU       any      `toml:"cpu"` // cores: 0.5, 2
	upstreamClassTOML
	Tools map[string]upstreamClassTOML `toml:"tools"`
}

// upstreamClassTOML overrides the classification of a server's tools (at
// the [[upstream]] level) or of one tool ([upstream.tools.NAME]).
type upstreamClassTOML struct {
	Category   *string `toml:"category"`
	Risk       *string `toml:"risk"`
	Tier       *string `toml:"tier"`
	ThirdParty *bool   `toml:"third_party"`
	Egress     *bool   `toml:"egress"`
	// SystemFields: per tool only.
	SystemFields []string `toml:"system_fields"`
}

// upstreamSections fills f.Upstream from raw, adding a diagnostic per
// problem.
func upstreamSections(f *File, raw *fileTOML, idx *positions) []Diagnostic {
	var diags []Diagnostic
	bad := func(key, format string, args ...any) {
		diags = append(diags, idx.at(key, fmt.Sprintf(format, args...)))
	}
	seen := map[string]bool{}
	for i, u := range raw.Upstream {
		at := fmt.Sprintf("upstream.%d", i)
		var s upstream.Server
		switch {
		case u.Name == nil:
			bad(at+".name", "an upstream needs a name")
		case !upstream.ValidServerName(*u.Name):
			bad(at+".name", "must be 1 to 32 lower-case letters and digits, words joined by single underscores")
		case seen[*u.Name]:
			bad(at+".name", "upstream %q is configured twice", *u.Name)
		default:
			s.Name = *u.Name
			seen[s.Name] = true
		}
		s.Command = u.Command
		if u.URL != nil {
			s.URL = *u.URL
		}
		switch {
		case len(s.Command) > 0 && s.URL != "":
			bad(at+".url", "set command (stdio) or url (streamable HTTP), not both")
		case len(s.Command) == 0 && s.URL == "":
			bad(at, "set command (an argv list, spoken to over stdio) or url (streamable HTTP)")
		case len(s.Command) > 0 && s.Command[0] == "":
			bad(at+".command", "the program must not be empty")
		case s.URL != "":
			if p, err := url.Parse(s.URL); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
				bad(at+".url", "must be an http(s) URL")
			}
		}
		if len(u.Headers) > 0 && s.URL == "" {
			bad(at+".headers", "headers apply to a url upstream only")
		}
		if len(u.Env) > 0 && len(s.Command) == 0 {
			bad(at+".env", "env applies to a command upstream only")
		}
		s.Env, s.Headers = u.Env, u.Headers
		s.Defaults = upstreamClass(at, u.upstreamClassTOML, bad)
		s.TrustAnnotations = u.TrustAnnotations
		s.Sandbox = confinement(at, u, len(s.Command) > 0, bad)
		if len(u.SystemFields) > 0 {
			bad(at+".system_fields", "system fields name places in one tool's output: set them under [upstream.tools.NAME]")
		}
		if len(u.Tools) > 0 {
			s.Tools = make(map[string]upstream.Override, len(u.Tools))
			for n, c := range u.Tools {
				s.Tools[n] = upstreamClass(at+".tools."+n, c, bad)
			}
		}
		f.Upstream = append(f.Upstream, s)
	}
	return diags
}

func upstreamClass(at string, c upstreamClassTOML, bad func(key, format string, args ...any)) upstream.Override {
	var o upstream.Override
	if c.Category != nil {
		if !slices.Contains(tool.Categories(), tool.Category(*c.Category)) {
			bad(at+".category", "%q is not one of the 17 categories (data, trading, lending, ...; see docs/tools.md)", *c.Category)
		}
		o.Category = tool.Category(*c.Category)
	}
	if c.Risk != nil {
		r, err := tool.ParseRisk(*c.Risk)
		if err != nil {
			bad(at+".risk", "%v", err)
		}
		o.Risk = r
	}
	if c.Tier != nil {
		switch *c.Tier {
		case "read":
			o.Tier = tool.Read
		case "write":
			o.Tier = tool.Write
		default:
			bad(at+".tier", `must be "read" or "write"`)
		}
	}
	o.ThirdParty = c.ThirdParty
	o.Egress = c.Egress
	for _, p := range c.SystemFields {
		if err := tool.ValidFieldPath(p); err != nil {
			bad(at+".system_fields", "%q: %v (a JSON Pointer into the tool's output, \"*\" for any index or key: \"/messages/*/sender\")", p, err)
		}
	}
	o.SystemFields = c.SystemFields
	return o
}

// confinement reads the sandbox keys of a command server.
func confinement(at string, u upstreamTOML, command bool, bad func(key, format string, args ...any)) upstream.Confinement {
	var c upstream.Confinement
	c.Off = u.Sandbox != nil && !*u.Sandbox
	c.Network, c.Paths = u.Network, u.Paths
	if u.Sandbox != nil && !command {
		bad(at+".sandbox", "sandbox applies to a command upstream only")
	}
	c.Hosts = u.Hosts
	if len(u.Hosts) > 0 && !u.Network {
		bad(at+".hosts", "hosts are what network = true reaches: set network = true with them")
	}
	for _, h := range u.Hosts {
		if err := egress.ValidHost(h); err != nil {
			bad(at+".hosts", "%v (want \"name\", \"name:port\" or an address; port 443 by default)", err)
		}
	}
	if u.Memory != nil {
		n, err := parseBytes(u.Memory)
		switch {
		case err != nil:
			bad(at+".memory", "%v (bytes, or a size such as \"512MiB\")", err)
		case n < upstream.MinMemory || n > 1<<40:
			bad(at+".memory", "%d bytes: want %d (32 MiB) to 1 TiB", n, upstream.MinMemory)
		default:
			c.Memory = n
		}
	}
	if u.Processes != nil {
		if *u.Processes < 1 || *u.Processes > upstream.MaxProcesses {
			bad(at+".processes", "must be 1 to %d", upstream.MaxProcesses)
		} else {
			c.Processes = int(*u.Processes)
		}
	}
	if u.CPU != nil {
		var n float64
		number := true
		switch x := u.CPU.(type) {
		case int64:
			n = float64(x)
		case float64:
			n = x
		default:
			number = false
			bad(at+".cpu", "%v: want a number of cores (0.5 for half of one core, 2 for two)", u.CPU)
		}
		switch {
		case !number:
		case !(n >= sandbox.MinCPU && n <= sandbox.MaxCPU):
			bad(at+".cpu", "%g cores: want %g to %d", n, sandbox.MinCPU, sandbox.MaxCPU)
		default:
			c.CPU = n
		}
	}
	for _, p := range u.Paths {
		if !filepath.IsAbs(p) || filepath.Clean(p) == "/" {
			bad(at+".paths", "%q: want an absolute path other than /", p)
		}
	}
	switch set := c.Network || len(c.Hosts) > 0 || len(c.Paths) > 0 || u.Memory != nil || u.Processes != nil || u.CPU != nil; {
	case set && !command:
		bad(at, "network, hosts, paths, memory, processes and cpu confine a command upstream only")
	case set && c.Off:
		bad(at+".sandbox", "network, hosts, paths, memory, processes and cpu confine a sandboxed server: not with sandbox = false")
	}
	return c
}

// parseBytes reads a size: an integer of bytes, or a string of digits
// and a unit (B, KiB, MiB, GiB, TiB).
func parseBytes(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case string:
		units := []struct {
			s string
			n int64
		}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"B", 1}}
		for _, u := range units {
			if num, ok := strings.CutSuffix(x, u.s); ok {
				n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
				if err != nil || n < 0 || n > (1<<62)/u.n {
					return 0, fmt.Errorf("%q is not a size", x)
				}
				return n * u.n, nil
			}
		}
		return 0, fmt.Errorf("%q has no unit (B, KiB, MiB, GiB, TiB)", x)
	default:
		return 0, fmt.Errorf("%v is not a size", v)
	}
}
