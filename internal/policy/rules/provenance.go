package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// Provenance configures the trust rules (seed 004 and value-level
// provenance). The taint rule needs no configuration: it is on unless
// disabled with builtin."taint.untrusted-arguments".disabled.
type Provenance struct {
	// Require lists, per tool, arguments that must have trusted provenance
	// in every session, clean or tainted (a transfer's recipient, an
	// approval's spender). A call that fails it is quarantined for review.
	Require map[string][]string `json:"require,omitempty"`
}

// provenance adds the trust rules:
//
//   - taint.session-under-review: a session under review changes nothing
//     and sends nothing until its reviewer decides;
//   - taint.untrusted-arguments: once a session has read third-party
//     content, its state-changing and data-sending calls need trusted
//     provenance for every security-relevant argument;
//   - provenance.required: the arguments Provenance.Require names need
//     trusted provenance in any session.
//
// All three quarantine rather than deny, so that a legitimate task that
// needs an untrusted value ("pay the bill in this file") completes once
// the judge or the owner approves it. Messages name arguments, never their
// values (which may be attacker-written).
func (b *builder) provenance() {
	b.add(policy.Rule{
		ID:       "taint.session-under-review",
		Priority: 20,
		Eval: func(r *policy.Request) (policy.Result, error) {
			if r.Trust.TaintLevel() != policy.TaintReview || !changesOrSends(r) {
				return policy.NoOpinion, nil
			}
			return policy.Quarantines(reason.SessionUnderReview,
				"this session is under review: its state-changing and data-sending calls wait for its reviewer"), nil
		},
	})
	b.add(policy.Rule{
		ID:       "taint.untrusted-arguments",
		Priority: 21,
		Eval: func(r *policy.Request) (policy.Result, error) {
			if !r.Trust.Tainted() || !changesOrSends(r) {
				return policy.NoOpinion, nil
			}
			return untrusted(r, r.Trust.Sensitive, "this session has read third-party content, and ")
		},
	})
	b.add(policy.Rule{
		ID:       "taint.hijacked-call",
		Priority: 23,
		Eval: func(r *policy.Request) (policy.Result, error) {
			if !r.Trust.Tainted() || !changesOrSends(r) || !r.Trust.Hijacked {
				return policy.NoOpinion, nil
			}
			return policy.Quarantines(reason.UntrustedProvenance,
				"this session has read third-party text with instructions, and no argument of this call comes from the owner's directive or a trusted tool's output: "+
					"it follows that text, so it waits for review"), nil
		},
	})
	req := b.cfg.Provenance.Require
	names := make([]string, 0, len(req))
	for name, args := range req {
		names = append(names, name)
		if !tool.ValidName(name) {
			b.errorf("provenance.require."+name, "invalid tool name %q", name)
		}
		if len(args) == 0 {
			b.errorf("provenance.require."+name, "list at least one argument")
		}
		for _, a := range args {
			if a == "" {
				b.errorf("provenance.require."+name, "empty argument name")
			}
		}
	}
	if len(names) == 0 {
		return
	}
	slices.Sort(names)
	b.add(policy.Rule{
		ID:       "provenance.required",
		Priority: 22,
		Applies:  policy.Names(names...),
		Eval: func(r *policy.Request) (policy.Result, error) {
			return untrusted(r, req[r.Tool.Name], "")
		},
	})
}

// changesOrSends reports whether a call changes state or sends data out.
func changesOrSends(r *policy.Request) bool {
	return r.Tool.Tier.Effective() != tool.Read || r.Trust.Sends
}

// untrusted quarantines the call if any of args present in the call lacks
// trusted provenance.
func untrusted(r *policy.Request, args []string, lead string) (policy.Result, error) {
	if r.Args == nil {
		return policy.NoOpinion, nil
	}
	var bad []string
	for _, a := range args {
		if _, ok := r.Args.Get(a); !ok {
			continue
		}
		if o := r.Trust.Origin(a); o != policy.ProvenanceTrusted {
			if k := r.Trust.Carries[a]; k != "" {
				bad = append(bad, fmt.Sprintf("%s (carries %s: %s)", a, k, o))
			} else {
				bad = append(bad, fmt.Sprintf("%s (%s)", a, o))
			}
		}
	}
	if len(bad) == 0 {
		return policy.NoOpinion, nil
	}
	return policy.Quarantines(reason.UntrustedProvenance, fmt.Sprintf(
		"%sthe value of %s does not come from the owner's directive, the address book or a trusted tool's output",
		lead, strings.Join(bad, ", "))), nil
}
