package validate

import (
	"encoding/hex"
	"regexp"
	"strings"
)

// Supplied destinations. Knowledge may say what an address is, and the
// book checks it; it cannot tell the agent where to send funds or whom to
// grant an allowance. A destination comes from the user or from the book,
// never from retrieved text, because text is what an attacker controls. An
// entry that directs a transfer, withdrawal, bridge, recipient or
// allowance, in the base form of the verb (an instruction or a rule, not
// a report: "sent", "approved" narrate), to an address the book does not
// know supplies a destination, whatever language dresses it: L3 rejects
// it. A known contract ("approve only Permit2 at 0x0000…78BA3") and a
// direction refused ("never send to 0x…") are not supplied destinations.

// UnvettedPrefix starts the reason of a supplied destination.
const UnvettedPrefix = "destination not in the address book: "

var (
	reDirected = regexp.MustCompile(`\b(?:send|transfer|withdraw|forward|route|sweep|bridge|move|pay|deposit|park|wire|redirect|migrate|approve|grant|authori[sz]e|delegate|whitelist|allowlist|set\s+(?:the\s+)?(?:recipient|receiver|beneficiary|payout\s+address|destination|spender))\b` +
		`|(?:^|[^\pL])(?:transfiere|transferir|envía|enviar|envoie|envoyez|envoyer|transférer|transférez|überweise|überweisen|sende|senden|переведи|переведите|отправь|отправьте|invia|trasferisci|envie|transfira)(?:[^\pL]|$)|转到|转账|转给|送金|送って|송금`)
	reAddress40 = regexp.MustCompile(`\b0x([0-9a-fA-F]{40})\b`)
	// reRefused is a direction refused or denied before its verb.
	reRefused = regexp.MustCompile(`\b(?:never|not|don't|do\s+not|doesn't|cannot|can't|won't|avoid|refuse|no)\b(?:\W+\w+){0,3}?\W*$`)
)

// suppliedDestinations returns, per sentence of text, an address the book
// does not know that the sentence directs funds or an allowance to.
func (v *BookVerifier) suppliedDestinations(text string) []string {
	var out []string
	for _, s := range splitSentences(text) {
		ls := strings.ToLower(s)
		addrs := reAddress40.FindAllStringSubmatchIndex(s, -1)
		if len(addrs) == 0 || reAboutAttack.MatchString(ls) {
			continue
		}
		verbs := reDirected.FindAllStringIndex(ls, -1)
		for _, a := range addrs {
			var ad Address
			if _, err := hex.Decode(ad[:], []byte(strings.ToLower(s[a[2]:a[3]]))); err != nil || len(v.known[ad]) > 0 {
				continue
			}
			for _, m := range verbs {
				// The verb comes before the address, within the clause's
				// reach, and is not refused.
				if m[0] > a[0] || a[0]-m[1] > 120 || reRefused.MatchString(ls[max(0, m[0]-40):m[0]]) {
					continue
				}
				out = append(out, UnvettedPrefix+"the entry directs "+strings.Join(strings.Fields(ls[m[0]:m[1]]), " ")+" to "+s[a[0]:a[1]])
				break
			}
		}
	}
	return out
}
