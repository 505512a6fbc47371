package rules

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules/shell"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// commands builds command safety's forbidden-pattern rule (priority 5): the
// seed's patterns and more of the same kind, found by parsing the command
// (quotes, escapes, wrappers such as sudo and xargs, nested sh -c, eval and
// command substitutions) rather than by matching its text alone.
//
// The rule applies to every tool. The tools of Commands.Tools must carry a
// command (in an argument named as ArgNames.Command says); any other tool
// is checked when its parameters carry one, recognised by their role in its
// schema (shell.CommandParams over Config.ToolParams), or, when the schema
// is unknown or does not declare the argument, by the names and types of the
// call's arguments.
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
	ps := b.paths
	names := b.cfg.Args.Command
	tools := slices.Clone(c.Tools)
	procs := slices.Clone(c.ProcessNames)
	params := &paramCache{schema: b.cfg.ToolParams}
	analyses := newCommandCache()
	var messages textMemo[shell.Finding]
	b.add(policy.Rule{
		ID: "command-safety.forbidden-patterns", Priority: 5, Applies: policy.All(),
		Eval: func(r *policy.Request) (policy.Result, error) {
			var lines []commandLine
			var skip []string // the arguments already read
			if slices.Contains(tools, r.Tool.Name) {
				cmd, res := commandArg(r.Args, names)
				if res.Opinion {
					return res, nil
				}
				lines = append(lines, commandLine{cmd: cmd})
				skip = names
			}
			more, res := params.lines(r.Tool.Name, r.Args, skip)
			if res.Opinion {
				return res, nil
			}
			lines = append(lines, more...)
			if len(lines) == 0 {
				return policy.NoOpinion, nil
			}
			base, err := ps.base(r)
			if err != nil {
				return policy.Denies(reason.InvalidPath, "the working directory is invalid: "+err.Error()), nil
			}
			words := ps.wordFuncsFor(base)
			env := &shell.Env{
				Protected:    words.protected,
				Sensitive:    words.sensitive,
				ProcessNames: procs,
				Root:         base,
				Home:         ps.home,
				Own:          ps.own,
				Secret:       ps.secret,
			}
			var worst *shell.Finding
			for _, l := range lines {
				for _, re := range extra {
					if re.MatchString(l.cmd) {
						return policy.Denies(reason.ForbiddenCommand, "command matches a forbidden pattern of the policy"), nil
					}
				}
				var findings []shell.Finding
				if l.stdin != nil {
					findings, err = shell.AnalyzeInput(l.cmd, *l.stdin, env)
				} else {
					findings, err = analyses.analyze(base, l.cmd, env)
				}
				if err != nil {
					return policy.Denies(reason.MalformedCommand, "the command cannot be checked safely: "+err.Error()), nil
				}
				for i := range findings {
					if worst == nil || severity(findings[i].Kind) < severity(worst.Kind) {
						worst = &findings[i]
					}
				}
			}
			if worst != nil {
				return policy.Denies(reason.ForbiddenCommand, messages.get(*worst, findingMessage)), nil
			}
			return policy.NoOpinion, nil
		},
	})
}

// findingMessage is the message of a deny for finding f.
func findingMessage(f shell.Finding) string {
	return "command matches the forbidden pattern '" + f.Pattern + "' (" + f.Kind.String() + ")"
}

// severity orders the kinds of findings for the message of a deny, most
// severe first: what destroys, then what leaks, then what hides.
func severity(k shell.Kind) int {
	switch k {
	case shell.DestroyFiles:
		return 0
	case shell.RawDisk:
		return 1
	case shell.DestroyState:
		return 2
	case shell.Shutdown, shell.KillProcess, shell.ForkBomb:
		return 3
	case shell.SQLDrop, shell.SQLDestroy:
		return 4
	case shell.Exfiltrate:
		return 5
	case shell.ReadSecrets:
		return 6
	}
	return 7
}

// commandLine is one command line a call would run, and the text it would
// read on its standard input, if given.
type commandLine struct {
	cmd   string
	stdin *string
}

// paramCache finds the parameters of each tool that carry a command: from
// the tool's schema, classified once, or from the call's arguments.
type paramCache struct {
	schema func(string) json.RawMessage
	known  sync.Map // tool name → *schemaCommands, for tools with a schema
}

// schemaCommands is what a tool's schema says of its parameters: those
// that carry a command, and every one it declares (sorted).
type schemaCommands struct {
	params   []shell.CommandParam
	declared []string
}

// of returns the command parameters of a tool, classified from its schema
// (and cached), or from the names and types of a's arguments, except those
// in skip, when its schema is unknown. An argument the schema does not
// declare is classified by its name and type, as without a schema: an
// unclassified argument is never skipped.
func (pc *paramCache) of(name string, a *tool.Args, skip []string) []shell.CommandParam {
	var sch *schemaCommands
	if pc.schema != nil {
		if v, ok := pc.known.Load(name); ok {
			sch = v.(*schemaCommands)
		} else if raw := pc.schema(name); raw != nil {
			v, _ := pc.known.LoadOrStore(name, &schemaCommands{params: shell.CommandParams(raw), declared: declaredParams(raw)})
			sch = v.(*schemaCommands)
		}
	}
	var params []shell.CommandParam
	if sch != nil {
		params = sch.params
	}
	if a == nil || a.Len() == 0 {
		return params
	}
	var names, kinds []string
	for i := range a.Len() {
		k := a.Key(i) // most names are not commandish: their values are not read
		if commandish(k) && !slices.Contains(skip, k) && (sch == nil || !slices.Contains(sch.declared, k)) {
			names = append(names, k)
			kinds = append(kinds, a.Field(i).Value.Kind().String())
		}
	}
	if len(names) == 0 {
		return params
	}
	return append(slices.Clip(params), shell.ParamRoles(names, kinds)...)
}

// declaredParams returns the top-level parameters a schema declares,
// sorted (none if it does not decode).
func declaredParams(schema json.RawMessage) []string {
	var sch struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &sch) != nil {
		return nil
	}
	out := make([]string, 0, len(sch.Properties))
	for n := range sch.Properties {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// commandish reports an argument name that may name a command's part, so
// that most calls are classified without work: one of a few words occurs
// in it, in any case.
func commandish(name string) bool {
	if name == "sh" {
		return true
	}
	for i := 0; i < len(name); i++ {
		rest := name[i:]
		switch name[i] | 0x20 {
		case 'c':
			if hasFold(rest, "cmd") || hasFold(rest, "command") {
				return true
			}
		case 's':
			if hasFold(rest, "script") || hasFold(rest, "shell") || hasFold(rest, "stdin") {
				return true
			}
		case 'a':
			if hasFold(rest, "arg") {
				return true
			}
		case 'p':
			if hasFold(rest, "program") {
				return true
			}
		case 'e':
			if hasFold(rest, "exe") {
				return true
			}
		case 'b':
			if hasFold(rest, "binary") || hasFold(rest, "bash") {
				return true
			}
		case 'i':
			if hasFold(rest, "interpreter") || hasFold(rest, "input") {
				return true
			}
		}
	}
	return false
}

// hasFold reports whether s starts with the lower-case ASCII word w, in
// any case.
func hasFold(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if s[i]|0x20 != w[i] {
			return false
		}
	}
	return true
}

// lines returns the command lines a call carries in the command parameters
// of its tool, except those named in skip.
func (pc *paramCache) lines(name string, a *tool.Args, skip []string) ([]commandLine, policy.Result) {
	var out []commandLine
	for _, p := range pc.of(name, a, skip) {
		if slices.Contains(skip, p.Name) || a == nil {
			continue
		}
		prog := ""
		if p.Program != "" {
			if v, ok := a.Get(p.Program); ok {
				s, isStr := v.Str()
				if !isStr {
					continue
				}
				prog = s + " "
			}
		}
		var stdin *string
		if p.Stdin != "" {
			if v, ok := a.Get(p.Stdin); ok {
				if s, isStr := v.Str(); isStr {
					stdin = &s
				}
			}
		}
		v, ok := a.Get(p.Name)
		if !ok {
			if prog != "" {
				out = append(out, commandLine{cmd: prog, stdin: stdin})
			}
			continue
		}
		if s, isStr := v.Str(); isStr {
			out = append(out, commandLine{cmd: prog + s, stdin: stdin})
			continue
		}
		if v.Kind() != tool.Array {
			continue // the schema allows it: not a command
		}
		elems, res := stringElems(v, p.Name)
		if res.Opinion {
			return nil, res
		}
		if p.Each {
			for _, e := range elems {
				out = append(out, commandLine{cmd: e, stdin: stdin})
			}
			continue
		}
		out = append(out, commandLine{cmd: prog + quoteArgs(elems), stdin: stdin})
	}
	return out, policy.NoOpinion
}

// stringElems returns the strings of an array argument; any other element
// denies the call.
func stringElems(v tool.Value, name string) ([]string, policy.Result) {
	elems := v.Elems()
	out := make([]string, len(elems))
	for i, e := range elems {
		s, isStr := e.Str()
		if !isStr {
			return nil, policy.Denies(reason.BadInput, fmt.Sprintf("argument %q must be a string or a list of strings", name))
		}
		out[i] = s
	}
	return out, policy.NoOpinion
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
		elems, res := stringElems(v, name)
		if res.Opinion {
			return "", res
		}
		return quoteArgs(elems), policy.NoOpinion
	}
	return "", policy.Denies(reason.BadInput, fmt.Sprintf("argument %q must be a string or a list of strings", name))
}

// quoteArgs returns the command line that quotes each element of an argv.
func quoteArgs(argv []string) string {
	var sb strings.Builder
	for i, s := range argv {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(shellQuote(s))
	}
	return sb.String()
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
