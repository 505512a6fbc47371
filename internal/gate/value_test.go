package gate

import (
	"testing"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/reason"
)

// TestDefaultPolicyHoldsValueToStrangers: under the default policy, a
// previewed transfer worth more than the threshold
// (treasury.quarantine_untrusted_above_cents, $100) to an address the
// owner never gave waits for the owner in a clean session, while the same
// transfer to the owner's directive or address book, or a small one, goes
// through. The fixture's plan is worth amount/10 000 cents.
func TestDefaultPolicyHoldsValueToStrangers(t *testing.T) {
	const (
		stranger = "0x5151515151515151515151515151515151515151"
		booked   = "0x0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b"
		usd250   = 250_000_000 // 25 000 cents
		usd50    = 50_000_000  // 5 000 cents
	)
	// The spending hook is unlimited here, so that only the policy decides.
	f := newFixture(t, fixtureOpts{trust: true, addressBook: []string{booked},
		spending: hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: hook.Unlimited}})
	s := trustSession(t, f, "value")

	_, err := f.tools.Preview(t.Context(), s, "erc20_transfer_token", xferArgs(tokA.String(), stranger, usd250))
	r := wantRefusal(t, err, reason.UntrustedRecipient)
	if r.Quarantine == "" {
		t.Errorf("the $250 transfer to a stranger was refused, not held for the owner: %+v", r)
	}
	for _, tc := range []struct {
		name, to string
		amount   int64
	}{
		{"the directive's recipient", friend, usd250},
		{"the address book's recipient", booked, usd250},
		{"below the threshold", stranger, usd50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := f.tools.Preview(t.Context(), s, "erc20_transfer_token", xferArgs(tokA.String(), tc.to, tc.amount)); err != nil {
				t.Errorf("refused: %v", err)
			}
		})
	}
}
