package validate

import "regexp"

// Further leaps an observation is made to carry, each a closed class of
// grammar rather than a list of phrasings:
//
//   - a dismissal: a predicate that declares a safeguard or a risk factor
//     unneeded or without effect ("is redundant", "is overstated",
//     "doesn't matter", "has no effect", "a thing of the past");
//   - a removed safeguard written with an article or a pronoun ("without a
//     slippage limit", "with no idle buffer", "disable it", "set them to
//     zero");
//   - (reUnbounded) a universal over the cases the observation did not
//     cover ("at all times", "whatever the utilisation", "of any size",
//     "is instant", "for the rest of the year").
//
// They are read as leaps only where the blend model reads a conclusion:
// after an inferential connective or a juxtaposed observation.
var reDismissed = regexp.MustCompile(`\b(?:is|are|was|seems|becomes?)\s+(?:\w+\s+)?(?:redundant|superfluous|pointless|unnecessary|unneeded|overstated|exaggerated|overblown|cosmetic|a\s+formality|legacy\s+\w+|not\s+informative|not\s+doing\s+anything|obsolete|moot)\b` +
	`|\b(?:does\s*n[o']t|do\s*n[o']t|doesn't|don't)\s+matter\b|\bhas\s+no\s+(?:effect|impact|bearing)\b|\bmakes?\s+no\s+difference\b|\ba\s+thing\s+of\s+the\s+past\b` +
	`|\b(?:does\s*n[o']t|doesn't|do\s*n[o']t|don't)\s+need\s+(?:a|an|any|the)?\s*(?:\w+\s+)?(?:bounty|limits?|caps?|buffers?|checks?|reviews?|audits?|collateral|monitoring|simulation|timelock|haircuts?|hedges?)\b|\bneeds?\s+no\s+(?:\w+\s+)?\w+` +
	`|\bwithout\s+(?:a|an|any|the)\s+(?:[\w-]+\s+)?(?:limits?|caps?|buffers?|stops?|stop-loss|quotes?|simulation|reviews?|audits?|timeouts?|haircuts?|checks?|monitoring|fallbacks?|confirmations?|collateral)\b|\bwith\s+no\s+(?:\w+\s+)?(?:limits?|caps?|buffers?|stops?|checks?|haircuts?|collateral)\b` +
	`|\b(?:disable|remove|drop|skip|ignore|turn\s+off)\s+(?:it|them|this|that)\b|\b(?:set|shorten|shortened|lower|lowered|cut|reduce)\s+(?:\w+\s+){0,2}?to\s+(?:zero|0)\b|\bzero\s+(?:priority\s+fee|buffer|slippage\s+protection|haircut|margin)\b` +
	`|\b(?:remove|drop|disable|skip)\s+(?:the\s+)?(?:private\s+routing|fallback|staleness|circuit\s+breaker|timeout|haircut|buffer|sequencer)\b`)

// reUnbounded is the universal over cases the observation did not cover.
var reUnbounded = regexp.MustCompile(`\bat\s+all\s+times\b|\b(?:whatever|independent(?:ly)?\s+of)\s+the\s+\w+|\bof\s+any\s+size\b|\bat\s+any\s+(?:premium|discount|price|size)\b|\b(?:is|are)\s+(?:now\s+|effectively\s+)?instant\b` +
	// A temporal universal: what one period showed, extended to every
	// period after it.
	`|\b(?:every|each)\s+(?:month|week|day|year)\s+(?:from\s+now|going\s+forward|after)\b|\bfor\s+the\s+rest\s+of\s+the\s+(?:year|month|quarter)\b|\bfrom\s+here\s+on\b|\bgoing\s+forward\b`)

// rePremiseClause is a premise clause opening the sentence, like "since
// …,": "because our three buys paid off, buy …", "given that the price
// held, set …".
var rePremiseClause = regexp.MustCompile(`^\s*(?:because|as|given\s+that|now\s+that|seeing\s+that)\s+[^,]{3,80},`)

// reCommitted is a commitment of the whole reserve or a leveraged
// position, written without a totality word: "move the treasury to …",
// "buy with leverage", "fund the bot at 10x". "With no leverage" and "at
// 20x a 5% move liquidates" are not.
var reCommitted = []*regexp.Regexp{
	regexp.MustCompile(`\b(?:move|put|deposit|allocate|invest|send|bridge|shift|park|commit|lend|stake)\s+(?:the|our)\s+(?:[\w-]+\s+){0,2}?(?:treasury|reserves?|float|budget|savings)\b`),
	regexp.MustCompile(`\b(?:with|using)\s+(?:(?:high|more|max\w*|full|heavy|\d+x)\s+)?(?:leverage|borrowed\s+(?:funds|money|capital))\b|\blever\w*\s+(?:(?:it|them|this|that|up)\s+)?\d+x\b|\b(?:fund|open|run)\w*\s+(?:\w+\s+){0,3}?at\s+\d+x\b`),
}
