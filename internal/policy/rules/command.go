package rules

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules/shell"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// commands builds command safety's forbidden-pattern rule (priority 5): the
// seed's patterns and more of the same kind, found by parsing the command
// (quotes, escapes, wrappers such as sudo and xargs, nested sh -c, eval and
// command substitutions) rather than by matching its text alone.
func (b *builder) commands() {
	c := b.cfg.Commands
	var extra []*regexp.Regexp
	for i, p := range c.ForbiddenPatterns {
		re, err := regexp.Compile(p)
		if err != nil {
			b.errorf(fmt.Sprintf("commands.forbidden_patterns.%d", i), "invalid regular expression: %v", err)
			continue
		}
		extra = append(extra, re)
	}
	if len(c.Tools) == 0 {
		return
	}
	ps := b.paths
	names := b.cfg.Args.Command
	procs := append([]string(nil), c.ProcessNames...)
	b.add(policy.Rule{
		ID: "command-safety.forbidden-patterns", Priority: 5, Applies: policy.Names(c.Tools...),
		Eval: func(r *policy.Request) (policy.Result, error) {
			cmd, res := commandArg(r.Args, names)
			if res.Opinion {
				return res, nil
			}
			for _, re := range extra {
				if re.MatchString(cmd) {
					return policy.Denies(reason.ForbiddenCommand, "command matches a forbidden pattern of the policy"), nil
				}
			}
			base, err := ps.base(r)
			if err != nil {
				return policy.Denies(reason.InvalidPath, "the working directory is invalid: "+err.Error()), nil
			}
			findings, err := shell.Analyze(cmd, &shell.Env{
				Protected:    ps.protectedWord(base),
				Sensitive:    ps.sensitiveWord(base),
				ProcessNames: procs,
				Root:         base,
			})
			if err != nil {
				return policy.Denies(reason.MalformedCommand, "the command cannot be checked safely: "+err.Error()), nil
			}
			if len(findings) > 0 {
				f := findings[0]
				return policy.Denies(reason.ForbiddenCommand,
					"command matches the forbidden pattern '"+f.Pattern+"' ("+f.Kind.String()+")"), nil
			}
			return policy.NoOpinion, nil
		},
	})
}

// commandArg returns the command of a shell tool. A list of strings is an
// argv: it is analysed as the command line that quotes each element.
func commandArg(a *tool.Args, names []string) (string, policy.Result) {
	v, name, ok, err := arg(a, names)
	if err != nil {
		return "", policy.Denies(reason.AmbiguousArgument, err.Error())
	}
	if !ok {
		return "", policy.Denies(reason.MissingArgument, "a shell tool needs a command")
	}
	if s, isStr := v.Str(); isStr {
		return s, policy.NoOpinion
	}
	if v.Kind() == tool.Array {
		var sb strings.Builder
		for i, e := range v.Elems() {
			s, isStr := e.Str()
			if !isStr {
				return "", policy.Denies(reason.BadInput, fmt.Sprintf("argument %q must be a string or a list of strings", name))
			}
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(shellQuote(s))
		}
		return sb.String(), policy.NoOpinion
	}
	return "", policy.Denies(reason.BadInput, fmt.Sprintf("argument %q must be a string or a list of strings", name))
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
