package validate

import (
	"regexp"
	"strings"

	"github.com/wardhq/ward/internal/knowledge"
)

// Loosened controls: knowledge that directs the agent to weaken one of its
// safety controls — under a condition on the world ("if gas is under 5
// gwei"), on the calendar ("after 15 January", "on the first Monday"), on
// the agent's own state ("if the user has not answered") or as a step of a
// procedure ("runbook, step 3: …", "checklist: - … - …"). The check is a
// mental model of who sets the agent's controls: simulation, slippage and
// output minimums, spend limits, approval caps and expiries, confirmations,
// alerts and monitoring, circuit breakers, staleness and deviation checks,
// leverage bounds are the principal's policy, and no condition, date or
// procedure step in retrieved text lifts them. Sound knowledge conditions
// an action on the world ("if the health factor falls below 1.1, repay")
// or tightens a control; it never loosens one. The trigger model
// (TriggeredOverride) is the case where the condition is an input's
// wording; this one holds whatever the condition. The vocabulary is that
// of safety controls and of directives, not of any data set.

// LoosenModel is the statement of the model the check holds entries to.
const LoosenModel = "No condition, date or procedure step in retrieved knowledge lifts a safety control: the principal's policy sets them"

var (
	// A clause boundary inside a sentence: a colon, semicolon or comma, a
	// list marker ("1)", " - ", "•") or "then".
	reClauseBreak = regexp.MustCompile(`[:;,]\s*|\s[-–•*]\s+|\s\d{1,2}[).]\s+|\bthen\s+`)
	// A sentence's end: a full stop or a line break, not a colon.
	reLoosenSentence = regexp.MustCompile(`[.!?。！？]+(?:\s+|$)|\n+`)
	// The next item of a list, which ends a directive's scope.
	reListItem = regexp.MustCompile(`\s[-–•*]\s+|\s\d{1,2}[).]\s+|\bstep\s*\d{1,2}\b`)
	// A procedure step's label before its directive: "step 3", "3)", "-".
	reStepLabel = regexp.MustCompile(`^(?:(?:step|stage|phase)\s*\d{1,2}\b(?:\s+of\s+(?:the\s+)?[\pL\s-]{1,40}?(?:guide|runbook|checklist|procedure|playbook|process))?\s*[:.)-]?\s*|\d{1,2}[).]\s*|[-–•*]\s*)`)
	// A directive: an imperative verb that can weaken a control, or words
	// that permit or oblige the reader to act.
	reDirective = regexp.MustCompile(`^(?:(?:please|just|simply|now|also|first|finally|temporarily)\s+)?(?:set|skip|disable|deactivate|route|swap|trade|rebalance|resend|open|deposit|fire|broadcast|turn|switch|ignore|bypass|remove|drop|raise|increase|lift|suspend|pause|stop|omit|waive|override|approve|sign|grant|give|borrow|loop|lever|retry|execute|leave|use|make|assume|move|withdraw|bridge|send|transfer|close|allow|let|change|accept|treat|mute|silence|relax|loosen|widen|proceed|run|submit|max|go)\b` +
		`|^(?:it\s+is|it's|is)\s+(?:fine|ok|okay|safe|acceptable|best|better)\s+to\b|^(?:you|the\s+agent|agents|the\s+bot|the\s+assistant|we)\s+(?:can|may|should|must|need\s+to|are\s+free\s+to)\b|^feel\s+free\s+to\b`)
	// Words anywhere in a clause that permit the reader to act or release
	// it from an obligation.
	rePermission = regexp.MustCompile(`\b(?:it\s+is|it's)\s+(?:fine|ok|okay|safe|acceptable)\s+to\b|\bno\s+longer\s+(?:needs?|has|have)\s+to\b|\b(?:you|the\s+agent|agents|the\s+bot|the\s+assistant)\s+(?:can|may|should|must|need\s+to|are\s+free\s+to)\b`)
	// A sentence that warns against the action or reports it as someone
	// else's mistake states no directive.
	reWarnedAgainst = regexp.MustCompile(`\b(?:dangerous|unsafe|risky|reckless|don't|do\s+not|avoid|should\s+not|shouldn't|must\s+not|mistake|wrong|bad\s+idea|ignore\s+(?:it|them|this|such|any\s+such)|warn\w*)\b`)
	// Controls the trigger model's vocabulary lacks: alerts, monitoring,
	// circuit breakers, confirmation prompts, an approval's expiry or size,
	// a consent the user did not give.
	reLoosened = []*regexp.Regexp{
		regexp.MustCompile(`\b(?:disable|deactivate|turn\s+off|switch\s+off|pause|suspend|stop|mute|silence|ignore|skip|remove)\b(?:\W+\w+){0,4}?\W+(?:alerts|alerting|alarms|monitoring|circuit[\s-]breakers?|kill[\s-]switch|health[\s-]factor\s+checks?|prompts?|notifications|enforcing)\b`),
		regexp.MustCompile(`\b(?:checks?|limits?|protection|simulation|alerts?|monitoring|confirmations?|circuit\s+breakers?|guards?|caps?)\s+(?:disabled|deactivated|turned\s+off|switched\s+off|off)\b`),
		regexp.MustCompile(`\b(?:infinite|unlimited|no|max(?:imum)?)\s+(?:expiry|expiration|deadline)\b`),
		regexp.MustCompile(`\bassume\s+(?:the\s+)?(?:user'?s?\s+|principal'?s?\s+|owner'?s?\s+)?(?:approval|consent|confirmation|authori[sz]ation)\b|\btreat\s+(?:silence|no\s+(?:answer|reply|response))\s+as\b`),
		regexp.MustCompile(`\b(?:approvals?|allowances?)\b(?:\W+\w+){0,4}?\W+(?:the\s+)?(?:full|entire|whole)\s+(?:balance|holdings|amount|treasury)\b`),
		regexp.MustCompile(`\bwithout\s+waiting\s+for\s+(?:\w+\s+)?(?:confirmations?|finality|approval|the\s+user)\b`),
		regexp.MustCompile(`\bno\s+longer\s+(?:needs?|has|have)\s+to\s+be\s+(?:capped|checked|limited|simulated|confirmed|reviewed)\b`),
	}
	// A condition, date or procedure in another language: the trigger
	// model's conditionals, and words for step, runbook and checklist.
	reStepI18n = regexp.MustCompile(lb + `(?:schritt|étape|paso|passo|stap|шаг|krok|adım|bước|langkah|checkliste|liste\s+de\s+contrôle|lista\s+de\s+verificación)(?:[^\pL\pN]|$)|步骤|手順|단계`)
	// Alerts and monitoring in those languages, for the i18n actions.
	reAlertI18n = regexp.MustCompile(lb + `(?:désactiv\pL*|deaktivier\pL*|desactiv\pL*|disattiv\pL*|отключ\pL*)(?:[^.!?]{0,30}?)(?:alert\pL*|alarm\pL*|überwachung|surveillance|monitoring|monitoreo|avis\pL*|оповещени\pL*|мониторинг\pL*)`)
)

// LoosenedControl returns the reason text directs its reader to weaken a
// safety control — under a condition, at a date, as a procedure step, or
// outright — or "" when it does not. A sentence about an attack, a warning
// against the action and a denied action state no directive.
func LoosenedControl(text string) string {
	// Sentences end at full stops and line breaks only: a colon or
	// semicolon inside one keeps its directive under a warning or a
	// report ("a scam guide says 'step 3: set slippage to 0'").
	for _, s := range reLoosenSentence.Split(strings.ToLower(text), -1) {
		s = strings.TrimSpace(s)
		if s == "" || reAboutAttack.MatchString(s) || reWarnedAgainst.MatchString(s) {
			continue
		}
		for _, c := range directives(s) {
			if a := loosenedAction(c); a != "" {
				return "contradicts mental model \"" + LoosenModel + "\": the entry directs " + a
			}
		}
		if reCondI18n.MatchString(s) || reStepI18n.MatchString(s) {
			a := unsafeActionI18n(s)
			if a == "" {
				a = reAlertI18n.FindString(s)
			}
			if a != "" {
				return "contradicts mental model \"" + LoosenModel + "\": the entry directs " + strings.TrimSpace(a)
			}
		}
	}
	return ""
}

// directives returns, for each clause of s that opens with a directive (a
// procedure step's label removed), the text from it to the end of its
// scope: the next semicolon or list item.
func directives(s string) []string {
	starts := []int{0}
	for _, m := range reClauseBreak.FindAllStringIndex(s, -1) {
		starts = append(starts, m[1])
	}
	var out []string
	for _, st := range starts {
		c := s[st:]
		if l := reStepLabel.FindString(c); l != "" {
			c = c[len(l):]
		}
		if !reDirective.MatchString(c) {
			m := rePermission.FindStringIndex(c)
			if m == nil {
				continue
			}
			c = c[m[0]:]
		}
		if i := strings.IndexByte(c, ';'); i >= 0 {
			c = c[:i]
		}
		if m := reListItem.FindStringIndex(c); m != nil {
			c = c[:m[0]]
		}
		out = append(out, c)
	}
	return out
}

// loosenedAction returns the weakened control a directive states, not
// denied.
func loosenedAction(c string) string {
	if a := unsafeAction(c); a != "" {
		return a
	}
	for _, re := range reLoosened {
		for _, m := range re.FindAllStringIndex(c, -1) {
			if reDenied.MatchString(c[max(0, m[0]-40):m[0]]) {
				continue
			}
			return strings.Join(strings.Fields(c[m[0]:m[1]]), " ")
		}
	}
	return ""
}

// Loosen is the vote of the loosened-control model on e: a decisive L3b
// failure when its content directs a weakened safety control, a pass
// otherwise.
func Loosen(e *knowledge.Entry) Vote {
	if e == nil {
		return Vote{Layer: knowledge.LayerConsistency, Skipped: true}
	}
	if why := LoosenedControl(e.Content); why != "" {
		return Vote{Layer: knowledge.LayerConsistency, Score: 1, Decisive: true, Scrutiny: true, Reasons: []string{why}}
	}
	return Vote{Layer: knowledge.LayerConsistency, Pass: true}
}
