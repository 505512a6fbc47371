package ingest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/validate/onchain"
)

// At Standard strictness a provably false on-chain claim is rejected by L3
// alone, although the other Stage 2 layers pass the same entry; a true one
// is adopted.
func TestPipelineRejectsFalseOnChainClaim(t *testing.T) {
	d, c := devChain(t)
	head := headNumber(t, d.Provider())
	falseClaim := fmt.Sprintf("The ETH/USD price feed %s reported 2,000 at block %d.", c.FeedETHUSD, head)
	trueClaim := fmt.Sprintf("The ETH/USD price feed %s reported 3,000 at block %d.", c.FeedETHUSD, head)

	stage2 := func(t *testing.T, onChain bool) []Validator {
		vs, err := Stage2(nil)
		if err != nil {
			t.Fatal(err)
		}
		if onChain {
			vs = append(vs, OnChain(d.Provider(), onchain.Config{}))
		}
		return vs
	}

	t.Run("other layers pass it", func(t *testing.T) {
		h := newHarness(t, knowledge.Standard, stage2(t, false)...)
		want(t, h.ingest(h.signed(falseClaim, 0.3)), Adopted, StageAdopt, reason.KnowledgeAdopted, knowledge.NoAttack)
	})
	t.Run("L3 rejects it", func(t *testing.T) {
		h := newHarness(t, knowledge.Standard, stage2(t, true)...)
		e := h.signed(falseClaim, 0.3)
		r := h.ingest(e)
		want(t, r, Rejected, StageStage2, reason.KnowledgeVerifiableFalse, knowledge.CausalGraphPoisoning)
		if r.Layer != knowledge.LayerOnChain {
			t.Errorf("rejected by layer %q, want %s", r.Layer, knowledge.LayerOnChain)
		}
		why := strings.Join(r.Reasons, "; ")
		for _, s := range []string{"decisive", "verifiable_claim_false", "feed_answer", strings.ToLower(c.FeedETHUSD.Hex()), "claimed 2000", "actual 3000"} {
			if !strings.Contains(why, s) {
				t.Errorf("reasons %q do not mention %q", r.Reasons, s)
			}
		}
		if got := r.Scores[knowledge.LayerOnChain.String()]; got != 1 {
			t.Errorf("L3 score %v, want 1", got)
		}
		if q := h.status(e.ID); q.Status != store.QuarantineFailed {
			t.Errorf("quarantine status %s, want failed", q.Status)
		}
	})
	t.Run("true claim adopted", func(t *testing.T) {
		h := newHarness(t, knowledge.Standard, stage2(t, true)...)
		r := h.ingest(h.signed(trueClaim, 0.3))
		want(t, r, Adopted, StageAdopt, reason.KnowledgeAdopted, knowledge.NoAttack)
		if !slices.ContainsFunc(r.Reasons, func(s string) bool { return strings.Contains(s, knowledge.LayerOnChain.String()) }) {
			t.Errorf("reasons %q do not count L3's pass", r.Reasons)
		}
	})
}
