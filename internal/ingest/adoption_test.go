package ingest

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
)

// claimed returns an unsigned purchased insight carrying a structured claim.
func (h *harness) claimed(content string) *knowledge.Entry {
	e := h.entry(content, 0.5)
	e.Claim = &knowledge.Claim{Subject: "ETH/USDC 0.05%", Relation: "fees_rise_with", Object: "realised volatility"}
	return e
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// nextEvents reads the n events waiting on sub.
func nextEvents(t *testing.T, sub *event.Subscription, n int) []event.Event {
	t.Helper()
	var out []event.Event
	for i := range n {
		select {
		case ev := <-sub.C():
			out = append(out, ev)
		default:
			t.Fatalf("event %d of %d missing", i+1, n)
		}
	}
	select {
	case ev := <-sub.C():
		t.Fatalf("unexpected event %s: %+v", ev.Kind, ev.Payload)
	default:
	}
	return out
}

// entryOf returns the entry a grimoire:* event's payload names ("" for
// another payload).
func entryOf(p event.Payload) string {
	switch p := p.(type) {
	case event.EntryQuarantined:
		return p.EntryID
	case event.ValidationPassed:
		return p.EntryID
	case event.ValidationFailed:
		return p.EntryID
	case event.EntryAdopted:
		return p.EntryID
	case event.EntryConfirmed:
		return p.EntryID
	case event.EntryPruned:
		return p.EntryID
	case event.ImmuneMatch:
		return p.EntryID
	}
	return ""
}

func kinds(evs []event.Event) []event.Kind {
	out := make([]event.Kind, len(evs))
	for i, ev := range evs {
		out[i] = ev.Kind
	}
	return out
}

func sameKinds(a, b []event.Kind) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestAdoptThroughPolicy(t *testing.T) {
	cases := []struct {
		name    string
		pv      knowledge.Provenance
		conf    float64
		initial float64
		ttl     time.Duration
	}{
		{"purchased capped at the source initial", knowledge.Purchased, 0.5, 0.2, adopt.PurchasedTTL},
		{"purchased discounted by the marketplace", knowledge.Purchased, 0.25, 0.15, adopt.PurchasedTTL},
		{"clade", knowledge.Clade, 0.5, 0.2, adopt.CladeTTL},
		{"cross-user discounted by the commons", knowledge.CrossUser, 0.1, 0.05, adopt.CrossUserTTL},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, knowledge.Standard, votes(true, true, true)...)
			sub := h.bus.Subscribe(16, func(k event.Kind) bool { return k.Family() == "grimoire" })
			e := h.entry(clean, tc.conf)
			e.Source.Provenance = tc.pv
			r := h.ingest(h.sign(e, nil))
			want(t, r, Adopted, StageAdopt, reason.KnowledgeAdopted, knowledge.NoAttack)
			adopted := h.clock() // the clock's last reading, taken by adopt
			if !near(r.Confidence, tc.initial) || !near(r.InitialConfidence, tc.initial) || r.ValidationStatus != "pending" || !r.Expires.Equal(adopted.Add(tc.ttl)) {
				t.Errorf("report confidence %v, initial %v, status %q, expires %v; want %v, %v, pending, %v",
					r.Confidence, r.InitialConfidence, r.ValidationStatus, r.Expires, tc.initial, tc.initial, adopted.Add(tc.ttl))
			}
			rec, err := h.st.Adoption(h.ctx, e.ID)
			if err != nil {
				t.Fatalf("stored record: %v", err)
			}
			if !near(rec.Confidence, tc.initial) || rec.Status != adopt.Pending || !rec.Expires.Equal(r.Expires) || rec.Class != adopt.Standard {
				t.Errorf("stored record %+v", rec)
			}
			if k, ok := h.p.Grimoire().Get(e.ID); !ok || k.Adoption == nil || !near(k.Confidence, tc.initial) {
				t.Errorf("view: %v, %+v", ok, k)
			}
			evs := nextEvents(t, sub, 3)
			if got := kinds(evs); !sameKinds(got, []event.Kind{event.GrimoireEntryQuarantined, event.GrimoireValidationPassed, event.GrimoireEntryAdopted}) {
				t.Fatalf("events %v", got)
			}
			p, ok := evs[2].Payload.(event.EntryAdopted)
			if !ok {
				t.Fatalf("entry_adopted payload %#v", evs[2].Payload)
			}
			if p.EntryID != e.ID || !near(p.InitialConfidence, tc.initial) || p.Partition != "external" || p.ValidationStatus != "pending" || !p.Expires.Equal(r.Expires) {
				t.Errorf("entry_adopted payload %+v", p)
			}
		})
	}
}

// The Grimoire view reloads the records with the entries: confidence,
// status and confirmations survive a restart.
func TestAdoptionSurvivesRestart(t *testing.T) {
	h := newHarness(t, knowledge.Standard, votes(true, true, true)...)
	first := h.sign(h.claimed(clean), nil)
	want(t, h.ingest(first), Adopted, StageAdopt, reason.KnowledgeAdopted, knowledge.NoAttack)
	second := h.sign(h.claimed("On volatile days the ETH/USDC 0.05% pool pays its LPs more in fees."), h.newKey(true))
	want(t, h.ingest(second), Confirmed, StageAdopt, reason.KnowledgeAdopted, knowledge.NoAttack)
	before, _ := h.p.Grimoire().Get(first.ID)

	g := NewGrimoire(h.emb)
	if err := g.Load(h.ctx, h.st); err != nil {
		t.Fatal(err)
	}
	after, ok := g.Get(first.ID)
	if !ok || after.Adoption == nil {
		t.Fatalf("reloaded view: %v, record %v", ok, after.Adoption)
	}
	if !near(after.Confidence, before.Confidence) || after.Adoption.Status != adopt.Confirmed || after.Adoption.Validations != 1 || len(after.Adoption.Confirmations) != 1 {
		t.Errorf("reloaded confidence %v (want %v), record %+v", after.Confidence, before.Confidence, after.Adoption)
	}
	if _, ok := g.Get(second.ID); ok || g.Len() != 1 {
		t.Errorf("the confirmation was stored as an entry: %d entries", g.Len())
	}
	if k, ok := g.confirmable(h.claimed("Yet another wording of the fee claim.")); !ok || k.Entry.ID != first.ID {
		t.Errorf("reloaded view does not find the claim's adopted entry")
	}
}

// An entry stored before records were kept gets one in the view, as of its
// creation, and the Curator can prune it.
func TestLoadWithoutRecord(t *testing.T) {
	h := newHarness(t, knowledge.Standard, votes(true, true, true)...)
	e := h.sign(h.entry(clean, 0.5), nil)
	created := h.clock()
	if err := h.st.PutEntry(h.ctx, &store.GrimoireEntry{Entry: *e, Partition: knowledge.PartitionExternal, Created: created}); err != nil {
		t.Fatal(err)
	}
	if err := h.p.Grimoire().Load(h.ctx, h.st); err != nil {
		t.Fatal(err)
	}
	k, ok := h.p.Grimoire().Get(e.ID)
	if !ok || k.Adoption == nil || !k.Adoption.Adopted.Equal(created) || !near(k.Confidence, 0.2) {
		t.Fatalf("view: %v, %+v", ok, k)
	}
	c, err := h.p.Curate(h.ctx, created.Add(adopt.PurchasedTTL))
	if err != nil || len(c.Pruned) != 1 {
		t.Fatalf("Curate = %+v, %v; want the entry pruned", c, err)
	}
}

func TestConfirmation(t *testing.T) {
	anchor := "0x" + strings.Repeat("ab", 32)
	// confidence after one confirmation of a purchased entry at 0.2 under
	// the marketplace ceiling 0.6, by a purchased source (strength 0.2).
	cases := []struct {
		name        string
		second      func(h *harness) *knowledge.Entry
		credit      adopt.Credit
		confidence  float64
		status      string
		validations int
		duplicates  int
	}{
		{"identical content from another source adds nothing", func(h *harness) *knowledge.Entry {
			return h.sign(h.claimed(clean), h.newKey(true))
		}, adopt.DuplicateContent, 0.2, "pending", 0, 1},
		{"re-spaced copy from another source is the same content", func(h *harness) *knowledge.Entry {
			return h.sign(h.entry(strings.ToUpper(strings.ReplaceAll(clean, " ", "  ")), 0.5), h.newKey(true))
		}, adopt.DuplicateContent, 0.2, "pending", 0, 1},
		{"same claim from the same agent is not independent", func(h *harness) *knowledge.Entry {
			return h.sign(h.claimed("ETH/USDC 0.05% LP fees go up with realised volatility."), nil)
		}, adopt.NoCredit, 0.2, "pending", 0, 1},
		{"same claim from another agent confirms", func(h *harness) *knowledge.Entry {
			return h.sign(h.claimed("ETH/USDC 0.05% LP fees go up with realised volatility."), h.newKey(true))
		}, adopt.Independent, 0.2 + 0.2*(0.6-0.2), "confirmed", 1, 0},
		{"a shared anchor counts half", func(h *harness) *knowledge.Entry {
			e := h.claimed("ETH/USDC 0.05% LP fees go up with realised volatility.")
			e.Source.Anchor = anchor
			return h.sign(e, h.newKey(true))
		}, adopt.SharedAnchor, 0.2 + 0.5*0.2*(0.6-0.2), "pending", 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, knowledge.Standard, votes(true, true, true)...)
			first := h.claimed(clean)
			first.Source.Anchor = anchor
			h.sign(first, nil)
			want(t, h.ingest(first), Adopted, StageAdopt, reason.KnowledgeAdopted, knowledge.NoAttack)
			sub := h.bus.Subscribe(16, func(k event.Kind) bool { return k.Family() == "grimoire" })
			second := tc.second(h)
			r := h.ingest(second)
			want(t, r, Confirmed, StageAdopt, reason.KnowledgeAdopted, knowledge.NoAttack)
			if r.Confirms != first.ID || r.Credit != tc.credit.String() || !near(r.Confidence, tc.confidence) || r.ValidationStatus != tc.status || !near(r.InitialConfidence, 0.2) {
				t.Errorf("report confirms %q credit %q confidence %v status %q initial %v; want %q %q %v %q 0.2",
					r.Confirms, r.Credit, r.Confidence, r.ValidationStatus, r.InitialConfidence, first.ID, tc.credit, tc.confidence, tc.status)
			}
			rec, err := h.st.Adoption(h.ctx, first.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !near(rec.Confidence, tc.confidence) || rec.Status.String() != tc.status || rec.Validations != tc.validations || rec.Duplicates != tc.duplicates {
				t.Errorf("stored record: confidence %v, %s, %d validations, %d duplicates", rec.Confidence, rec.Status, rec.Validations, rec.Duplicates)
			}
			if k, _ := h.p.Grimoire().Get(first.ID); !near(k.Confidence, tc.confidence) {
				t.Errorf("view confidence %v, want %v", k.Confidence, tc.confidence)
			}
			if _, err := h.st.Entry(h.ctx, second.ID); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("the confirmation was adopted as an entry: %v", err)
			}
			if q := h.status(second.ID); q.Status != store.QuarantinePassed {
				t.Errorf("confirmation's quarantine status %s, want passed", q.Status)
			}
			evs := nextEvents(t, sub, 3)
			if got := kinds(evs); !sameKinds(got, []event.Kind{event.GrimoireEntryQuarantined, event.GrimoireValidationPassed, event.GrimoireEntryConfirmed}) {
				t.Fatalf("events %v", got)
			}
			p, ok := evs[2].Payload.(event.EntryConfirmed)
			if !ok {
				t.Fatalf("entry_confirmed payload %#v", evs[2].Payload)
			}
			if p.EntryID != second.ID || p.Confirms != first.ID || p.Credit != tc.credit.String() || p.Validations != tc.validations {
				t.Errorf("entry_confirmed payload %+v", p)
			}
		})
	}
}

// A batch holding two copies adopts the first and confirms with the
// second.
func TestBatchDuplicateConfirms(t *testing.T) {
	h := newHarness(t, knowledge.Standard, votes(true, true, true)...)
	a := h.sign(h.claimed(clean), nil)
	b := h.sign(h.claimed("ETH/USDC 0.05% LP fees go up with realised volatility."), h.newKey(true))
	rs, err := h.p.IngestBatch(h.ctx, []*knowledge.Entry{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Verdict != Adopted || rs[1].Verdict != Confirmed || rs[1].Confirms != a.ID {
		t.Errorf("verdicts %s, %s (confirms %q); want adopted, confirmed %s", rs[0].Verdict, rs[1].Verdict, rs[1].Confirms, a.ID)
	}
}

func TestCurate(t *testing.T) {
	h := newHarness(t, knowledge.Standard, votes(true, true, true)...)
	lone := h.sign(h.entry(clean, 0.5), nil)
	want(t, h.ingest(lone), Adopted, StageAdopt, reason.KnowledgeAdopted, knowledge.NoAttack)
	adopted := h.clock()
	kept := h.claimed("Aave health factors under 1.05 get liquidated within minutes in crashes.")
	kept.Claim = &knowledge.Claim{Subject: "Aave health factor < 1.05", Relation: "liquidated_within", Object: "minutes"}
	want(t, h.ingest(h.sign(kept, nil)), Adopted, StageAdopt, reason.KnowledgeAdopted, knowledge.NoAttack)
	confirming := h.claimed("Aave positions below 1.05 health are liquidated within minutes in a crash.")
	confirming.Claim = kept.Claim
	want(t, h.ingest(h.sign(confirming, h.newKey(true))), Confirmed, StageAdopt, reason.KnowledgeAdopted, knowledge.NoAttack)
	sub := h.bus.Subscribe(16, func(k event.Kind) bool { return k.Family() == "grimoire" })

	day := adopted.Add(adopt.Day)
	c, err := h.p.Curate(h.ctx, day)
	if err != nil || len(c.Pruned) != 0 || len(c.Updates) != 2 {
		t.Fatalf("Curate(+1 day) = %+v, %v; want two updates, no prune", c, err)
	}
	for _, u := range c.Updates {
		if k, _ := h.p.Grimoire().Get(u.ID); !near(k.Retention, u.Retention) || !(k.Retention < 1) {
			t.Errorf("retention of %s in the view %v, want %v below 1", u.ID, k.Retention, u.Retention)
		}
	}
	again, _ := h.p.Curate(h.ctx, day)
	if !near(again.Updates[0].Retention, c.Updates[0].Retention) {
		t.Error("a second pass at the same time changed the retention")
	}
	nextEvents(t, sub, 0)

	c, err = h.p.Curate(h.ctx, adopted.Add(adopt.PurchasedTTL))
	if err != nil || len(c.Pruned) != 1 || c.Pruned[0].ID != lone.ID || c.Pruned[0].Reason != adopt.PruneExpired {
		t.Fatalf("Curate(TTL) = %+v, %v; want %s pruned as expired", c, err, lone.ID)
	}
	if len(c.Updates) != 1 || c.Updates[0].ID != kept.ID {
		t.Errorf("updates %+v, want the confirmed entry kept", c.Updates)
	}
	if _, ok := h.p.Grimoire().Get(lone.ID); ok {
		t.Error("pruned entry still in the view")
	}
	if _, err := h.st.Entry(h.ctx, lone.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("pruned entry still stored: %v", err)
	}
	if _, err := h.st.Entry(h.ctx, kept.ID); err != nil {
		t.Errorf("confirmed entry: %v", err)
	}
	evs := nextEvents(t, sub, 1)
	if p, ok := evs[0].Payload.(event.EntryPruned); !ok || evs[0].Kind != event.GrimoireEntryPruned || p.EntryID != lone.ID || p.Reason != "ttl_expired" || p.Source != "purchased" {
		t.Errorf("event %s %#v", evs[0].Kind, evs[0].Payload)
	}
	// Pruned content is forgotten: a copy from another source is adopted
	// afresh, not taken as a confirmation.
	back := h.sign(h.entry(clean+" Still true.", 0.5), h.newKey(true))
	want(t, h.ingest(back), Adopted, StageAdopt, reason.KnowledgeAdopted, knowledge.NoAttack)
	copyOf := h.sign(h.entry(clean, 0.5), h.newKey(true))
	want(t, h.ingest(copyOf), Adopted, StageAdopt, reason.KnowledgeAdopted, knowledge.NoAttack)
}

// Retrieval reinforces an adopted entry's stability at most once per
// RetrievalSpacing, survives a restart, and leaves the agent's own
// knowledge alone.
func TestRetrievedReinforces(t *testing.T) {
	h := newHarness(t, knowledge.Standard, votes(true, true, true)...)
	e := h.sign(h.claimed(clean), nil)
	want(t, h.ingest(e), Adopted, StageAdopt, reason.KnowledgeAdopted, knowledge.NoAttack)
	at := h.clock().Add(time.Minute)
	retrievals := func() int {
		k, _ := h.p.Grimoire().Get(e.ID)
		return k.Adoption.Retrievals
	}
	if err := h.p.Retrieved(h.ctx, []string{e.ID, "not-there"}, at); err != nil {
		t.Fatal(err)
	}
	if got := retrievals(); got != 1 {
		t.Fatalf("%d retrievals after one query, want 1", got)
	}
	for i := range 50 { // an agent querying in a loop
		if err := h.p.Retrieved(h.ctx, []string{e.ID}, at.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if got := retrievals(); got != 1 {
		t.Errorf("%d retrievals after a burst within the hour, want 1", got)
	}
	if err := h.p.Retrieved(h.ctx, []string{e.ID}, at.Add(RetrievalSpacing)); err != nil {
		t.Fatal(err)
	}
	if got := retrievals(); got != 2 {
		t.Errorf("%d retrievals an hour later, want 2", got)
	}
	stored, err := h.st.Adoption(h.ctx, e.ID)
	if err != nil || stored.Retrievals != 2 || !stored.LastRetrieved.Equal(at.Add(RetrievalSpacing)) {
		t.Errorf("stored record %+v, %v", stored, err)
	}
	if adopt.Stability(stored.Class, stored.Retrievals) <= adopt.Stability(stored.Class, 0) {
		t.Error("retrievals did not grow the stability")
	}
}
