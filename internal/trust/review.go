package trust

import (
	"context"
	"errors"
	"fmt"
	"github.com/wardhq/ward/internal/trust/screen"
	"slices"
	"strings"
	"unicode/utf8"
)

// ArgCase is one argument of a call under review.
type ArgCase struct {
	Name  string `json:"name"`
	Value string `json:"value"` // the value as JSON text, truncated to 256 bytes
	// Role is the role the argument plays in this call (Role.For).
	Role     Role     `json:"role"`
	Evidence Evidence `json:"evidence"`
	// Carried are the identifiers found in the argument's text (for an
	// argument whose role is not critical: those are checked whole), each
	// with its own provenance: an address inside a message body is an
	// address.
	Carried []Carried `json:"carried,omitempty"`
	// Steered lists the untrusted sources with instruction-like text that
	// runs of the argument's words come from (Ledger.Traces).
	Steered []Source `json:"steered,omitempty"`
}

// Carried is an identifier found inside an argument.
type Carried struct {
	Kind     IdentKind `json:"kind"`
	Value    string    `json:"value"` // truncated to 64 bytes
	Evidence Evidence  `json:"evidence"`
}

// Case is a quarantined call, or an output, under review.
type Case struct {
	ID        string `json:"id"`         // quarantine item or output key
	SessionID string `json:"session_id"` // the session that produced it (its author)
	Tool      string `json:"tool"`
	Changes   bool   `json:"changes"` // changes state
	Sends     bool   `json:"sends"`   // sends data out (egress)
	// Dangerous marks a call whose risk is dangerous or forbidden: it
	// moves value or destroys something.
	Dangerous bool      `json:"dangerous,omitempty"`
	Args      []ArgCase `json:"args,omitempty"`
	// Text is set when the case is an output to promote (withheld
	// third-party output); empty for a call.
	Text      string `json:"text,omitempty"`
	Directive string `json:"directive,omitempty"` // the owner's current directive, for context
	// Hijacked is set for a call of a tainted session none of whose
	// arguments comes from the owner's directive or a trusted output while
	// the session has read text with instructions that its arguments (or,
	// for a call without arguments, the session) follow.
	Hijacked bool `json:"hijacked,omitempty"`
}

// Verdict is a checker's answer on a Case. The zero Verdict rejects.
type Verdict struct {
	By            string `json:"by"` // the checker's name
	Approve       bool   `json:"approve"`
	Authoritative bool   `json:"authoritative"` // true for a judge
	// Reasons are for people; they never quote more than 64 bytes of an
	// argument value.
	Reasons []string `json:"reasons,omitempty"`
}

// Checker reviews a Case. A reviewer is advisory; a judge's verdict is
// authoritative. An error comes with a rejecting Verdict.
type Checker interface {
	Name() string
	Check(ctx context.Context, c *Case) (Verdict, error)
}

// ErrNoCase is returned for a nil Case.
var ErrNoCase = errors.New("trust: no case to check")

// maxPreview bounds the bytes of an argument value a reason quotes.
const maxPreview = 32

// preview returns at most maxPreview bytes of v, marking a cut.
func preview(v string) string {
	if len(v) <= maxPreview {
		return v
	}
	return truncate(v, maxPreview) + "…"
}

// truncate returns at most n bytes of s, cut at a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

type rules struct {
	name  string
	judge bool
}

// RulesReviewer returns the deterministic advisory reviewer, "rules-reviewer".
// For a call it approves unless an argument's sources have instruction-like
// text or a destination or credential argument is not Trusted; for an output,
// unless Detect finds instruction-like text in it. Its reasons list every
// finding.
func RulesReviewer() Checker { return rules{name: "rules-reviewer"} }

// RulesJudge returns the deterministic judge, "rules-judge", whose verdicts
// are authoritative. It approves a call iff (1) every argument whose role
// is critical in the call (a destination, a credential, a value ward
// cannot classify; see Role.For) is Trusted, (2) every identifier carried
// inside another argument (a URL or an address in a message body) is
// Trusted, (3) no sensitive argument is Untrusted, nor Unknown when the
// ledger has dropped untrusted text (Evidence.Incomplete), which could hide
// that it was Untrusted, or when the call is Dangerous, (4) no source that supplied an argument value, or
// a run of an argument's words, has instruction-like text, and (5) the call
// is not Hijacked. Unknown is otherwise acceptable for a sensitive argument
// that is not critical, such as a derived id of a call that sends nothing
// and is not dangerous.
// It approves an output iff Detect finds nothing in it.
func RulesJudge() Checker { return rules{name: "rules-judge", judge: true} }

func (r rules) Name() string { return r.name }

func (r rules) Check(ctx context.Context, c *Case) (Verdict, error) {
	v := Verdict{By: r.name, Authoritative: r.judge}
	if c == nil {
		return v, ErrNoCase
	}
	if err := ctx.Err(); err != nil {
		return v, fmt.Errorf("%s: %w", r.name, err)
	}
	if c.Text != "" {
		if s := screen.Instructions(c.Text); len(s) > 0 {
			v.Reasons = []string{"the output has instruction-like text: " + strings.Join(s, ", ")}
			return v, nil
		}
		v.Approve = true
		v.Reasons = []string{"the output has no instruction-like text"}
		return v, nil
	}
	if c.Hijacked {
		v.Reasons = append(v.Reasons, "no argument comes from the owner's directive or a trusted output, and the call follows text with instructions")
	}
	for _, a := range c.Args {
		ev := a.Evidence
		switch {
		case a.Role.Critical() && ev.Origin != Trusted:
			v.Reasons = append(v.Reasons, fmt.Sprintf("argument %s (%s) = %s is %s, not trusted", a.Name, a.Role, preview(a.Value), ev.Origin))
		case r.judge && a.Role.Sensitive() && ev.Origin == Untrusted:
			v.Reasons = append(v.Reasons, fmt.Sprintf("argument %s (%s) = %s came from untrusted content", a.Name, a.Role, preview(a.Value)))
		case r.judge && a.Role.Sensitive() && ev.Origin == Unknown && ev.Incomplete:
			v.Reasons = append(v.Reasons, fmt.Sprintf("argument %s (%s) = %s is unknown and the ledger dropped untrusted text that may have held it", a.Name, a.Role, preview(a.Value)))
		case r.judge && a.Role.Sensitive() && ev.Origin == Unknown && c.Dangerous:
			v.Reasons = append(v.Reasons, fmt.Sprintf("argument %s (%s) = %s is unknown, and the call is dangerous: a value nothing vouches for does not pick what it moves or destroys", a.Name, a.Role, preview(a.Value)))
		}
		for _, k := range a.Carried {
			if k.Evidence.Origin != Trusted {
				v.Reasons = append(v.Reasons, fmt.Sprintf("argument %s carries the %s %s, which is %s, not trusted", a.Name, k.Kind, preview(k.Value), k.Evidence.Origin))
			}
		}
		seen := map[string]bool{}
		for _, s := range slices.Concat(ev.Sources, carriedSources(a.Carried), a.Steered) {
			if len(s.Instructions) > 0 && !seen[s.Ref] {
				seen[s.Ref] = true
				v.Reasons = append(v.Reasons, fmt.Sprintf("argument %s came from %s (%s), which has instruction-like text: %s", a.Name, s.Ref, s.Kind, strings.Join(s.Instructions, ", ")))
			}
		}
	}
	if len(v.Reasons) > 0 {
		return v, nil
	}
	v.Approve = true
	if r.judge {
		v.Reasons = []string{"destinations, credentials, unclassified values and the identifiers in free text are trusted, no sensitive argument came from untrusted content, and no supplying source has instruction-like text"}
	} else {
		v.Reasons = []string{"destinations, credentials, unclassified values and the identifiers in free text are trusted and no supplying source has instruction-like text"}
	}
	return v, nil
}

// carriedSources returns the sources of carried identifiers.
func carriedSources(cs []Carried) []Source {
	var out []Source
	for _, c := range cs {
		out = append(out, c.Evidence.Sources...)
	}
	return out
}

var _ Checker = rules{}
