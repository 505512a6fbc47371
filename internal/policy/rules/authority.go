package rules

import (
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// authority blocks dangerous tools for calls from external and peer sources
// and forbidden tools always (seed 003, priority 10).
func (b *builder) authority() {
	b.add(policy.Rule{
		ID:       "authority.dangerous-external-block",
		Priority: 10,
		Applies:  policy.Risks(tool.Dangerous, tool.Forbidden),
		Eval: func(r *policy.Request) (policy.Result, error) {
			switch risk := r.Tool.Risk.Effective(); {
			case risk == tool.Forbidden:
				return policy.Denies(reason.ForbiddenTool, "this tool is forbidden and cannot be invoked"), nil
			case risk == tool.Dangerous && policy.AuthorityOf(r.Turn.Source) == policy.AuthorityExternal:
				return policy.Denies(reason.AuthorityInsufficient, "external and peer sources cannot invoke dangerous tools"), nil
			}
			return policy.NoOpinion, nil
		},
	})
}
