package rules

import (
	"fmt"
	"strconv"
	"sync"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules/format"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// A validator checks one string argument; what names the value in messages.
type validator struct {
	id   string
	code reason.Code
	what string
	str  func(string) error
	// num checks a JSON number argument; nil means numbers are refused.
	num func(tool.Value) error
}

var validators = map[string]validator{
	"npm_package": {id: "validation.npm-package-name", code: reason.InvalidPackageName, what: "npm package name", str: format.NPMPackage},
	"url":         {id: "validation.url-format", code: reason.InvalidURL, what: "URL", str: format.URL},
	"address":     {id: "validation.address", code: reason.InvalidAddress, what: "address", str: format.Address},
	"git_hash":    {id: "validation.git-hash", code: reason.InvalidGitHash, what: "git hash", str: format.GitHash},
	"port": {id: "validation.port", code: reason.InvalidPort, what: "port", str: format.PortString,
		num: func(v tool.Value) error {
			n, err := v.Int()
			if err != nil {
				return fmt.Errorf("port must be an integer")
			}
			return format.Port(n)
		}},
	"cron":       {id: "validation.cron", code: reason.InvalidCron, what: "cron expression", str: format.Cron},
	"shell_safe": {id: "validation.shell-metacharacters", code: reason.ShellMetacharacters, what: "value", str: format.ShellSafe},
}

// validCache remembers values a costly validator accepted (an EIP-55
// checksum is a Keccak-256): agents pay the same few recipients again and
// again. Only valid values are cached, and the cache is bounded.
type validCache struct {
	fn func(string) error
	mu sync.RWMutex
	ok map[string]struct{}
}

const maxValidCache = 4096

func newValidCache(fn func(string) error) *validCache {
	return &validCache{fn: fn, ok: make(map[string]struct{})}
}

func (c *validCache) check(s string) error {
	c.mu.RLock()
	_, hit := c.ok[s]
	c.mu.RUnlock()
	if hit {
		return nil
	}
	if err := c.fn(s); err != nil {
		return err
	}
	c.mu.Lock()
	if len(c.ok) >= maxValidCache {
		c.ok = make(map[string]struct{})
	}
	c.ok[s] = struct{}{}
	c.mu.Unlock()
	return nil
}

// validations builds the format checks (priority 60): package names, URLs,
// addresses (EIP-55 checksums, and never the zero address as a recipient),
// git hashes, ports, cron expressions, and shell metacharacters in values
// interpolated into commands.
func (b *builder) validations() {
	used := map[string]int{}
	for i, v := range b.cfg.Validate {
		path := fmt.Sprintf("validate.%d", i)
		val, ok := validators[v.Kind]
		if !ok {
			b.errorf(path+".kind", "unknown kind %q (want npm_package, url, address, git_hash, port, cron or shell_safe)", v.Kind)
			continue
		}
		if len(v.Tools) == 0 {
			b.errorf(path+".tools", "list at least one tool")
			continue
		}
		if len(v.Args) == 0 {
			b.errorf(path+".args", "list at least one argument name")
			continue
		}
		used[val.id]++
		id := val.id
		if n := used[val.id]; n > 1 {
			id += "-" + strconv.Itoa(n)
		}
		args, required, kind := v.Args, v.Required, v.Kind
		if kind == "address" {
			val.str = newValidCache(val.str).check
		}
		b.add(policy.Rule{
			ID: id, Priority: 60, Applies: policy.Names(v.Tools...),
			Eval: func(r *policy.Request) (policy.Result, error) {
				x, name, ok, err := arg(r.Args, args)
				switch {
				case err != nil:
					return policy.Denies(reason.AmbiguousArgument, err.Error()), nil
				case !ok && required:
					return policy.Denies(reason.MissingArgument, fmt.Sprintf("argument %q is required", args[0])), nil
				case !ok:
					return policy.NoOpinion, nil
				}
				var verr error
				if s, isStr := x.Str(); isStr {
					verr = val.str(s)
					if verr == nil && kind == "address" && format.ZeroAddress(s) {
						return policy.Denies(reason.ZeroAddress, fmt.Sprintf("argument %q is the zero address", name)), nil
					}
				} else if x.Kind() == tool.Number && val.num != nil {
					verr = val.num(x)
				} else {
					verr = fmt.Errorf("must be a string, not %s", x.Kind())
				}
				if verr != nil {
					return policy.Denies(val.code, fmt.Sprintf("invalid %s in argument %q: %v", val.what, name, verr)), nil
				}
				return policy.NoOpinion, nil
			},
		})
	}
}
