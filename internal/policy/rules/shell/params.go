package shell

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"

	"github.com/wardhq/ward/internal/tool"
)

// CommandParam is a parameter of a tool through which a call passes a
// command to run, found by CommandParams from the tool's parameter schema.
// A call's command line is built from the arguments it names: the value of
// Name (a command line; an array of strings is an argument vector, or with
// Each a list of command lines), preceded by the value of Program when that
// is set (Name then holds the program's arguments), with the value of Stdin
// as the command line's standard input (see AnalyzeInput).
type CommandParam struct {
	Name    string
	Program string
	Stdin   string
	Each    bool
}

// role is what one parameter carries.
type role uint8

const (
	roleNone    role = iota
	roleLine         // a command line
	roleLines        // command lines, one per element
	roleArgv         // an argument vector, program first
	roleProgram      // the program (or shell, or interpreter) to run
	roleArgs         // the program's arguments
	roleStdin        // the command's standard input
	roleScript       // a shell script, or the input of an interpreter parameter
)

// CommandParams returns the parameters of a tool that carry a command, given
// the JSON schema of its parameters. A parameter is recognised by its role,
// read from its name, description and type, not by the tool's name: a
// string named or described as a command, shell command, command line or
// script; an array of strings named as a command or argument vector; a
// program with its arguments; text for the command's standard input. Only
// top-level properties are read; a schema that is not a JSON object with
// properties yields none. The result is in a stable order.
func CommandParams(schema json.RawMessage) []CommandParam {
	var sch struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &sch) != nil || len(sch.Properties) == 0 {
		return nil
	}
	names := make([]string, 0, len(sch.Properties))
	for n := range sch.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	roles := make([]role, len(names))
	for i, n := range names {
		var p property
		if json.Unmarshal(sch.Properties[n], &p) != nil {
			continue
		}
		roles[i] = declared(&p)
		if roles[i] == roleNone {
			roles[i] = classify(n, p.Description, p.types())
		}
	}
	return assemble(names, roles)
}

// declared returns the role a parameter's schema declares with "format":
// "command" (tool.FormatCommand), whatever its name and description: a
// string is a command line, an array of strings an argument vector, and
// an array whose items are so annotated holds command lines.
func declared(p *property) role {
	t := p.types()
	switch {
	case p.Format == tool.FormatCommand && t&tString != 0:
		return roleLine
	case p.Format == tool.FormatCommand && t&tStrings != 0:
		return roleArgv
	case p.Items != nil && p.Items.Format == tool.FormatCommand && t&tStrings != 0:
		return roleLines
	}
	return roleNone
}

// ParamRoles is CommandParams for a call whose tool's schema is unknown:
// names are the call's argument names and kinds the JSON types of their
// values ("string", "array", ...), read by name and type only.
func ParamRoles(names, kinds []string) []CommandParam {
	roles := make([]role, len(names))
	for i, n := range names {
		roles[i] = classify(n, "", typeSet(kinds[i]))
	}
	return assemble(names, roles)
}

// property is the part of a parameter's schema the classifier reads.
type property struct {
	Type        json.RawMessage `json:"type"`
	Format      string          `json:"format"`
	Description string          `json:"description"`
	Items       *property       `json:"items"`
	AnyOf       []property      `json:"anyOf"`
	OneOf       []property      `json:"oneOf"`
}

// types is the set of JSON types a property allows.
type types uint8

const (
	tString types = 1 << iota
	tStrings
	tOther
)

func typeSet(kind string) types {
	switch kind {
	case "string":
		return tString
	case "array":
		return tStrings
	case "":
		return tString | tStrings
	}
	return tOther
}

func (p *property) types() types {
	var t types
	var names []string
	var one string
	if json.Unmarshal(p.Type, &one) == nil {
		names = []string{one}
	} else {
		_ = json.Unmarshal(p.Type, &names)
	}
	for _, n := range names {
		switch n {
		case "null":
		case "array":
			if p.Items == nil || p.Items.types()&tString != 0 {
				t |= tStrings
			} else {
				t |= tOther
			}
		default:
			t |= typeSet(n)
		}
	}
	for _, alt := range append(slices.Clone(p.AnyOf), p.OneOf...) {
		t |= alt.types()
	}
	if t == 0 && len(p.AnyOf)+len(p.OneOf) == 0 {
		return tString | tStrings // no type: anything
	}
	return t
}

// words splits a name or a description into lower-case words: at
// non-letters and at lower-to-upper case changes.
func words(s string) []string {
	var out []string
	var cur []rune
	prevLower := false
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			if len(cur) > 0 {
				out = append(out, string(cur))
			}
			cur, prevLower = cur[:0], false
			continue
		}
		if unicode.IsUpper(r) && prevLower && len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
		cur = append(cur, unicode.ToLower(r))
	}
	if len(cur) > 0 {
		out = append(out, string(cur))
	}
	return out
}

// classify returns the role of one parameter.
func classify(name, desc string, t types) role {
	if t&(tString|tStrings) == 0 {
		return roleNone
	}
	nw := words(name)
	dw := words(strings.ToLower(desc)) // "JavaScript" is one word in prose
	r := nameRole(nw)
	if r == roleNone && (len(nw) == 0 || !otherRole(nw[len(nw)-1])) {
		r = descRole(dw)
	}
	if r == roleScript && otherLanguage(dw) {
		return roleNone
	}
	switch r {
	case roleLine, roleProgram, roleStdin, roleScript:
		if t&tString == 0 {
			if t&tStrings != 0 && r == roleLine {
				return roleArgv
			}
			return roleNone
		}
	case roleArgv, roleLines, roleArgs:
		if t&tStrings == 0 {
			if r == roleArgs {
				return roleArgs // a string of arguments
			}
			return roleLine
		}
	}
	return r
}

// nameRole reads a parameter's name: its last word, and the words before.
func nameRole(ws []string) role {
	if len(ws) == 0 {
		return roleNone
	}
	head := ws[len(ws)-1]
	mod := func(set ...string) bool {
		for _, w := range ws[:len(ws)-1] {
			if slices.Contains(set, w) {
				return true
			}
		}
		return false
	}
	switch head {
	case "command", "cmd", "cmdline", "commandline", "shellcmd", "bash", "sh":
		if mod("sub") {
			return roleNone // a subcommand's name, such as kubectl's "secret"
		}
		return roleLine
	case "commands", "cmds":
		return roleLines
	case "argv":
		return roleArgv
	case "line", "string", "text", "str":
		if mod("command", "cmd", "shell", "bash") {
			return roleLine
		}
	case "script":
		return roleScript
	case "program", "executable", "exe", "binary", "interpreter", "shell":
		return roleProgram
	case "args", "arguments", "arg":
		return roleArgs
	case "stdin":
		return roleStdin
	case "input":
		if mod("stdin", "standard") {
			return roleStdin
		}
	}
	return roleNone
}

// descRole reads a parameter's description.
func descRole(ws []string) role {
	has := func(seq ...string) bool {
		for i := 0; i+len(seq) <= len(ws); i++ {
			if slices.Equal(ws[i:i+len(seq)], seq) {
				return true
			}
		}
		return false
	}
	switch {
	case has("standard", "input"), has("stdin"):
		return roleStdin
	case has("command", "line"), has("commandline"), has("shell", "command"), has("bash", "command"),
		has("terminal", "command"), has("cli", "command"), has("command", "to", "run"), has("command", "to", "execute"),
		has("command", "and", "its", "arguments"), has("shell", "script"),
		has("bash", "script"):
		return roleLine
	case has("commands", "to", "run"), has("commands", "to", "execute"), has("shell", "commands"):
		return roleLines
	case has("program", "to", "run"), has("executable", "to", "run"), has("interpreter"):
		return roleProgram
	}
	return roleNone
}

// otherRole reports the last word of a parameter name that says what else
// the parameter is, whatever its description mentions: "Working directory
// the command runs in" describes a directory.
func otherRole(w string) bool {
	switch w {
	case "dir", "directory", "cwd", "workdir", "path", "folder", "timeout", "env", "environment", "name", "id",
		"user", "host", "port", "url", "file", "filename", "pid", "session", "container", "namespace", "pod",
		"format", "mode", "type", "language", "lang", "description", "title", "message", "reason", "output", "ms", "seconds":
		return true
	}
	return false
}

// otherLanguage reports a description of code in a language other than a
// shell's: a script parameter so described is not a command line.
func otherLanguage(ws []string) bool {
	for _, w := range ws {
		switch w {
		case "javascript", "js", "typescript", "python", "ruby", "lua", "sql", "applescript", "powershell", "jxa", "php", "perl", "groovy", "kotlin", "swift", "html", "css", "regex", "jq", "graphql":
			return true
		}
	}
	return false
}

// assemble turns the roles of a tool's parameters into CommandParams.
func assemble(names []string, roles []role) []CommandParam {
	find := func(want role) string {
		for i, r := range roles {
			if r == want {
				return names[i]
			}
		}
		return ""
	}
	program, args, stdin := find(roleProgram), find(roleArgs), find(roleStdin)
	var out []CommandParam
	for i, r := range roles {
		n := names[i]
		switch r {
		case roleLine:
			if args != "" && program == "" {
				// command + args: the command is the program.
				out = append(out, CommandParam{Name: args, Program: n, Stdin: stdin})
				continue
			}
			out = append(out, CommandParam{Name: n, Stdin: stdin})
		case roleArgv:
			out = append(out, CommandParam{Name: n, Stdin: stdin})
		case roleLines:
			out = append(out, CommandParam{Name: n, Stdin: stdin, Each: true})
		case roleScript:
			if program != "" {
				continue // the interpreter's input: see below
			}
			out = append(out, CommandParam{Name: n, Stdin: stdin})
		case roleProgram:
			in := stdin
			if in == "" {
				in = find(roleScript)
			}
			if args != "" {
				out = append(out, CommandParam{Name: args, Program: n, Stdin: in})
			} else {
				out = append(out, CommandParam{Name: n, Stdin: in})
			}
		}
	}
	return out
}
