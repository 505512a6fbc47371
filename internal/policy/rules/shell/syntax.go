package shell

import (
	"fmt"
	"strings"
)

// Script is a parsed command line: the simple commands it would run.
//
// Parse performs the expansions that can be known without running anything:
// quote removal, ANSI-C strings, brace expansion, $HOME and ~ (both kept as
// "~"), $IFS (a field separator), parameters assigned a literal value earlier
// in the same script, and command substitutions whose output is computable
// (echo, printf, base64 -d, xxd -r -p, rev, tr, which). Everything else stays
// as written and is marked Opaque.
type Script struct {
	// Commands are the simple commands in order of appearance, including
	// those inside subshells, groups, if/while/until/for/case bodies, [[ ]]
	// and (( )). Redirections on a compound command appear as a command
	// with no Args. Bodies of function definitions are in Funcs instead.
	Commands []Command
	// Funcs are the functions the script defines.
	Funcs []Func
	// Subs are command substitutions outside simple commands: in for lists,
	// case words and arithmetic.
	Subs []*Script

	depth int // nesting depth of this script within the command line
	pipes int // pipelines numbered so far
}

// Command is one simple command.
type Command struct {
	// Assigns are the NAME=value words before the command name.
	Assigns []Assign
	// Args is the argument vector after expansion and quote removal; it is
	// empty for a command made only of assignments or redirections.
	Args []Word
	// Redirects are the command's redirections in order.
	Redirects []Redirect
	// Subs are the command and process substitutions in the command's
	// words, assignments and redirections (here-document bodies included),
	// parsed recursively. They run before the command.
	Subs []*Script
	// Pipeline numbers the pipelines of the script from 0; Position is the
	// command's index within its pipeline.
	Pipeline, Position int
	// Piped reports that the command's standard input is a pipe: it is not
	// first in its pipeline, or it is inside a compound command that is.
	Piped bool
	// Background reports that the command runs asynchronously (&).
	Background bool
}

// Argv returns the values of c.Args.
func (c *Command) Argv() []string {
	out := make([]string, len(c.Args))
	for i, w := range c.Args {
		out[i] = w.Value
	}
	return out
}

// Word is one field after expansion.
type Word struct {
	// Value is the text after quote removal. An expansion whose value is
	// unknown is kept as written: "$X", "${X:?}", "$(curl x)", "<(curl x)".
	Value string
	// Vars are the names of the parameters expanded in the word, known or not.
	Vars []string
	// Opaque reports that part of Value stands for an unknown value.
	Opaque bool
	// Glob reports unquoted *, ? or [ in Value: a pathname pattern.
	Glob bool
	// Subst reports an unknown command or process substitution in Value.
	Subst bool

	derived bool // Value differs from the source text by more than quote removal
}

// Assign is a NAME=value assignment word.
type Assign struct {
	Name  string
	Value Word
}

// Redirect is one redirection.
type Redirect struct {
	// Fd is the file descriptor written before the operator, or -1.
	Fd int
	// Op is the operator: <, >, >>, >|, <>, <&, >&, &>, &>>, <<, <<- or <<<.
	Op string
	// Target is the file, descriptor or here-string word; for a here-document
	// it is the body, expanded unless the delimiter was quoted.
	Target Word
}

// Func is a function definition.
type Func struct {
	Name string
	Body *Script
}

// Parse parses cmd. A non-nil error wraps ErrMalformed, ErrTooLong or
// ErrTooDeep.
func Parse(cmd string) (*Script, error) {
	if len(cmd) > MaxLen {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLong, len(cmd), MaxLen)
	}
	root := new(rootAlloc)
	root.st.budget = budget
	return parseInto(root.mem(), cmd, 0, &root.st, nil)
}

// String renders the script for debugging: one command per line.
func (s *Script) String() string {
	var b strings.Builder
	s.write(&b, "")
	return b.String()
}

func (s *Script) write(b *strings.Builder, indent string) {
	for i := range s.Commands {
		c := &s.Commands[i]
		fmt.Fprintf(b, "%s[%d.%d]", indent, c.Pipeline, c.Position)
		if c.Piped {
			b.WriteString(" |")
		}
		if c.Background {
			b.WriteString(" &")
		}
		for _, a := range c.Assigns {
			fmt.Fprintf(b, " %s=%q", a.Name, a.Value.Value)
		}
		for _, w := range c.Args {
			fmt.Fprintf(b, " %q", w.Value)
		}
		for _, r := range c.Redirects {
			fmt.Fprintf(b, " %s%q", r.Op, r.Target.Value)
		}
		b.WriteByte('\n')
		for _, sub := range c.Subs {
			sub.write(b, indent+"  ")
		}
	}
	for _, f := range s.Funcs {
		fmt.Fprintf(b, "%sfunc %s\n", indent, f.Name)
		f.Body.write(b, indent+"  ")
	}
	for _, sub := range s.Subs {
		sub.write(b, indent+"  ")
	}
}
