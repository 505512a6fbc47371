package adopt

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/knowledge"
)

func TestStability(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Class
		n    int
		want time.Duration
	}{
		{"standard", Standard, 0, 7 * Day},
		{"standard 1 retrieval", Standard, 1, 7 * Day * 3 / 2},
		{"standard 2 retrievals", Standard, 2, 7 * Day * 9 / 4},
		{"standard negative retrievals", Standard, -3, 7 * Day},
		{"standard capped", Standard, 20, 180 * Day},
		{"standard huge", Standard, math.MaxInt32, 180 * Day},
		{"mev", MEV, 0, 90 * Day},
		{"mev 1 retrieval", MEV, 1, 135 * Day},
		{"mev capped", MEV, 2, 180 * Day},
		{"emergency", Emergency, 0, 180 * Day},
		{"emergency retrieved", Emergency, 5, 180 * Day},
		{"unknown class", Class(9), 0, 7 * Day},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Stability(tc.c, tc.n); got != tc.want {
				t.Errorf("Stability(%v, %d) = %v, want %v", tc.c, tc.n, got, tc.want)
			}
		})
	}
}

func TestRetention(t *testing.T) {
	for _, tc := range []struct {
		name string
		t, s time.Duration
		want float64
	}{
		{"zero time", 0, 7 * Day, 1},
		{"negative time", -Day, 7 * Day, 1},
		{"one stability", 7 * Day, 7 * Day, math.Exp(-1)},
		{"one day", Day, 7 * Day, math.Exp(-1.0 / 7)},
		{"two stabilities", 14 * Day, 7 * Day, math.Exp(-2)},
		{"floor", 30 * Day, 7 * Day, 0.1}, // e^(-30/7) ≈ 0.0138
		{"just above the floor", 16 * Day, 7 * Day, math.Exp(-16.0 / 7)},
		{"mev after 90 days", 90 * Day, 90 * Day, math.Exp(-1)},
		{"zero stability", Day, 0, 0.1},
		{"negative stability", Day, -Day, 0.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Retention(tc.t, tc.s); !near(got, tc.want) {
				t.Errorf("Retention(%v, %v) = %v, want %v", tc.t, tc.s, got, tc.want)
			}
		})
	}
}

func TestRetrieve(t *testing.T) {
	r, _ := Adopt(entry("e", knowledge.Clade, 0.2), Origin{}, t0)
	r1 := Retrieve(r, t0.Add(3*Day))
	r2 := Retrieve(r1, t0.Add(Day)) // a time before the last: counted, clock kept
	if r.Retrievals != 0 || r1.Retrievals != 1 || r2.Retrievals != 2 {
		t.Errorf("retrievals = %d, %d, %d; want 0, 1, 2", r.Retrievals, r1.Retrievals, r2.Retrievals)
	}
	if !r2.LastRetrieved.Equal(t0.Add(3*Day)) || !r2.Reinforced().Equal(t0.Add(3*Day)) {
		t.Errorf("last retrieved %v, reinforced %v; want %v", r2.LastRetrieved, r2.Reinforced(), t0.Add(3*Day))
	}
}

func TestReinforcedByCreditedConfirmation(t *testing.T) {
	r, _ := Adopt(entry("e", knowledge.Clade, 0.2), Origin{}, t0)
	r, _, _ = Confirm(r, Confirmation{ID: "dup", Provenance: knowledge.Clade, Agent: agentB, ContentHash: r.ContentHash, At: t0.Add(5 * Day)})
	if !r.Reinforced().Equal(t0) {
		t.Errorf("a duplicate reinforced the record: %v", r.Reinforced())
	}
	r, _, _ = Confirm(r, Confirmation{ID: "c", Provenance: knowledge.Clade, Agent: agentC, At: t0.Add(4 * Day)})
	if !r.Reinforced().Equal(t0.Add(4 * Day)) {
		t.Errorf("reinforced %v, want %v", r.Reinforced(), t0.Add(4*Day))
	}
}

func TestCycle(t *testing.T) {
	adopt := func(id string, pv knowledge.Provenance, claimed float64, o Origin) Record {
		r, err := Adopt(entry(id, pv, claimed), o, t0)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	pendingClade := adopt("pending-clade", knowledge.Clade, 0.2, Origin{})     // 0.16, expires day 14
	pendingCross := adopt("pending-cross", knowledge.CrossUser, 0.5, Origin{}) // min(0.5 × 0.5, 0.1), expires day 7
	confirmed, _, _ := Confirm(adopt("confirmed", knowledge.Purchased, 0.6, Origin{}), Confirmation{ID: "o", Provenance: knowledge.Self, At: t0})
	self := adopt("self", knowledge.Self, 0.8, Origin{})                           // never expires
	mev := adopt("mev", knowledge.Self, 0.8, Origin{Class: MEV})                   // S = 90 days
	emergency := adopt("emergency", knowledge.Self, 0.8, Origin{Class: Emergency}) // S = 180 days
	retrieved := Retrieve(adopt("retrieved", knowledge.Self, 0.8, Origin{}), t0.Add(Day))
	nan := self
	nan.ID, nan.Confidence = "nan", math.NaN()
	badClass := self
	badClass.ID, badClass.Class = "bad-class", 9
	all := []Record{pendingClade, pendingCross, confirmed, self, mev, emergency, retrieved, nan, badClass}
	before := slices.Clone(all)

	type want struct {
		retention float64
		weight    float64 // of the effective confidence
	}
	for _, tc := range []struct {
		name    string
		now     time.Time
		updates map[string]want
		prunes  map[string]PruneReason
	}{
		{"at adoption", t0, map[string]want{
			"pending-clade": {1, 0.16 * 0.8}, "pending-cross": {1, 0.1 * 0.8}, "confirmed": {1, 0.4 * 0.8},
			"self": {1, 0.8}, "mev": {1, 0.8}, "emergency": {1, 0.8}, "retrieved": {1, 0.8},
		}, map[string]PruneReason{"nan": PruneInvalid, "bad-class": PruneInvalid}},
		{"clock before adoption", t0.Add(-time.Hour), map[string]want{
			"pending-clade": {1, 0.16 * 0.8}, "pending-cross": {1, 0.1 * 0.8}, "confirmed": {1, 0.4 * 0.8},
			"self": {1, 0.8}, "mev": {1, 0.8}, "emergency": {1, 0.8}, "retrieved": {1, 0.8},
		}, map[string]PruneReason{"nan": PruneInvalid, "bad-class": PruneInvalid}},
		{"cross-user TTL exactly", t0.Add(7 * Day), map[string]want{
			"pending-clade": {math.Exp(-1), 0.16 * math.Exp(-1) * 0.8}, "confirmed": {math.Exp(-1), 0.4 * math.Exp(-1) * 0.8},
			"self": {math.Exp(-1), 0.8 * math.Exp(-1)}, "mev": {math.Exp(-7.0 / 90), 0.8 * math.Exp(-7.0/90)},
			"emergency": {math.Exp(-7.0 / 180), 0.8 * math.Exp(-7.0/180)}, "retrieved": {math.Exp(-6 / 10.5), 0.8 * math.Exp(-6/10.5)},
		}, map[string]PruneReason{"pending-cross": PruneExpired, "nan": PruneInvalid, "bad-class": PruneInvalid}},
		{"clade TTL passed", t0.Add(14*Day + time.Second), map[string]want{
			"confirmed": {0.135335, 0.4 * 0.135335 * 0.8}, "self": {0.135335, 0.8 * 0.135335},
			"mev": {math.Exp(-14.0 / 90), 0.8 * math.Exp(-14.0/90)}, "emergency": {math.Exp(-14.0 / 180), 0.8 * math.Exp(-14.0/180)},
			"retrieved": {math.Exp(-13 / 10.5), 0.8 * math.Exp(-13/10.5)},
		}, map[string]PruneReason{"pending-clade": PruneExpired, "pending-cross": PruneExpired, "nan": PruneInvalid, "bad-class": PruneInvalid}},
		{"a year on", t0.Add(365 * Day), map[string]want{
			"confirmed": {0.1, 0.4 * 0.1 * 0.8}, "self": {0.1, 0.08}, "mev": {0.1, 0.08},
			"emergency": {math.Exp(-365.0 / 180), 0.8 * math.Exp(-365.0/180)}, "retrieved": {0.1, 0.08},
		}, map[string]PruneReason{"pending-clade": PruneExpired, "pending-cross": PruneExpired, "nan": PruneInvalid, "bad-class": PruneInvalid}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			updates, prunes := Cycle(tc.now, all)
			if len(updates) != len(tc.updates) {
				t.Errorf("%d updates, want %d: %+v", len(updates), len(tc.updates), updates)
			}
			for _, u := range updates {
				w, ok := tc.updates[u.ID]
				if !ok {
					t.Errorf("unexpected update %+v", u)
					continue
				}
				if math.Abs(u.Retention-w.retention) > 1e-6 || math.Abs(u.Weight-w.weight) > 1e-6 {
					t.Errorf("%s: retention, weight = %v, %v; want %v, %v", u.ID, u.Retention, u.Weight, w.retention, w.weight)
				}
				if u.Retention < RetentionFloor {
					t.Errorf("%s: retention %v below the floor", u.ID, u.Retention)
				}
			}
			got := map[string]PruneReason{}
			for _, p := range prunes {
				got[p.ID] = p.Reason
			}
			if len(got) != len(tc.prunes) || len(prunes) != len(tc.prunes) {
				t.Errorf("prunes %v, want %v", got, tc.prunes)
			}
			for id, r := range tc.prunes {
				if got[id] != r {
					t.Errorf("prune %s: %v, want %v", id, got[id], r)
				}
			}
		})
	}
	for i := range all {
		if all[i].ID != before[i].ID || all[i].Confidence != before[i].Confidence && !math.IsNaN(before[i].Confidence) {
			t.Errorf("Cycle modified entry %d", i)
		}
	}
	a1, p1 := Cycle(t0.Add(10*Day), all)
	a2, p2 := Cycle(t0.Add(10*Day), all)
	if !slices.Equal(a1, a2) || !slices.Equal(p1, p2) {
		t.Error("Cycle is not idempotent")
	}
}

func TestCycleReach(t *testing.T) {
	w := entry("w", knowledge.Self, 0.5)
	w.Type = knowledge.TypeWarning
	r, _ := Adopt(w, Origin{}, t0)
	updates, _ := Cycle(t0.Add(30*Day), []Record{r})
	if len(updates) != 1 || updates[0].Reach != ScopeClade {
		t.Errorf("Cycle of a 0.5 warning = %+v, want reach clade (gates read the evidence confidence, not the decayed one)", updates)
	}
	if u, p := Cycle(t0, nil); len(u) != 0 || len(p) != 0 {
		t.Errorf("Cycle of nothing = %v, %v", u, p)
	}
}
