package generate

import (
	"fmt"
	"testing"

	"github.com/wardhq/ward/internal/trust/canon"
	"github.com/wardhq/ward/internal/validate"
)

// TestRareTokenCleanFPR measures how many of the gate suite's incoming
// clean entries L1's rare-token signal puts at or beyond its boundary, and
// how many poisoned ones, with the model and boundary of the suite's
// Grimoire (the shipped English model extended by the seed entries), as
// the pipeline uses them. The clean rate must stay within the seed's FPR
// target.
func TestRareTokenCleanFPR(t *testing.T) {
	s := Generate(GateSeed)
	var seed []validate.CorpusEntry
	for i, r := range s.Grimoire {
		seed = append(seed, validate.CorpusEntry{ID: fmt.Sprint(i), Text: canon.Text(r.Content)})
	}
	corpus := validate.NewCorpus(seed)
	var clean, cleanFlagged, poison, poisonFlagged int
	for _, r := range s.Incoming() {
		score, boundary, err := corpus.Rare(canon.Text(r.Content))
		if err != nil {
			t.Fatal(err)
		}
		flagged := score >= boundary
		if r.Label == LabelPoison {
			poison++
			if flagged {
				poisonFlagged++
			}
			continue
		}
		clean++
		if flagged {
			cleanFlagged++
		}
	}
	fpr := float64(cleanFlagged) / float64(clean)
	t.Logf("rare tokens flag %d of %d clean entries (FPR %.1f%%) and %d of %d poisoned ones", cleanFlagged, clean, 100*fpr, poisonFlagged, poison)
	if clean == 0 || fpr > 0.03 {
		t.Errorf("rare-token FPR %.1f%% on %d clean entries, want at most 3%%", 100*fpr, clean)
	}
}
