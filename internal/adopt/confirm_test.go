package adopt

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

func conf(id string, pv knowledge.Provenance, agent, anchor, content string) Confirmation {
	c := Confirmation{ID: id, Provenance: pv, Agent: agent, Anchor: anchor, At: t0.Add(Day)}
	if content != "" {
		c.ContentHash = ContentHash(content)
	}
	return c
}

// cladeRecord is a clade heuristic from agentA anchored at anchor1,
// adopted at 0.16 under the ceiling 0.8.
func cladeRecord(t *testing.T) Record {
	t.Helper()
	e := entry("e1", knowledge.Clade, 0.2)
	e.Source.Anchor = anchor1
	r, err := Adopt(e, Origin{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestConfirmCredit(t *testing.T) {
	// Each case confirms the clade record with prior (credited in order),
	// then c, and checks c's credit and the resulting confidence.
	for _, tc := range []struct {
		name   string
		prior  []Confirmation
		c      Confirmation
		credit Credit
		want   float64
		status Status
		valids int
	}{
		{"unique provenance full credit", nil, conf("c1", knowledge.Clade, agentB, "", "other words"),
			Independent, 0.16 + 0.2*(0.8-0.16), Confirmed, 1},
		{"shared anchor with the entry half credit", nil, conf("c1", knowledge.Clade, agentB, anchor1, "other words"),
			SharedAnchor, 0.16 + 0.5*0.2*(0.8-0.16), Pending, 0},
		{"shared anchor in another case", nil, conf("c1", knowledge.Clade, agentB, "0X1111111111111111111111111111111111111111111111111111111111111111", ""),
			SharedAnchor, 0.16 + 0.5*0.2*(0.8-0.16), Pending, 0},
		{"identical content hash adds nothing", nil, conf("c1", knowledge.Clade, agentB, "", "content of e1"),
			DuplicateContent, 0.16, Pending, 0},
		{"re-spaced content is identical", nil, conf("c1", knowledge.Clade, agentB, "", "  CONTENT of\te1"),
			DuplicateContent, 0.16, Pending, 0},
		{"the entry's own agent is not independent", nil, conf("c1", knowledge.Clade, "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "", "x"),
			NoCredit, 0.16, Pending, 0},
		{"second confirmation by the same agent", []Confirmation{conf("c1", knowledge.Clade, agentB, "", "x")}, conf("c2", knowledge.Purchased, agentB, "", "y"),
			NoCredit, 0.16 + 0.2*(0.8-0.16), Confirmed, 1},
		{"duplicate of a counted confirmation", []Confirmation{conf("c1", knowledge.Clade, agentB, "", "x")}, conf("c2", knowledge.Clade, agentC, "", "x"),
			DuplicateContent, 0.16 + 0.2*(0.8-0.16), Confirmed, 1},
		{"anchor shared with a counted confirmation", []Confirmation{conf("c1", knowledge.Clade, agentB, anchor2, "x")}, conf("c2", knowledge.Clade, agentC, anchor2, "y"),
			SharedAnchor, 0.288 + 0.5*0.2*(0.8-0.288), Confirmed, 1},
		{"cross-user strength 0.1", nil, conf("c1", knowledge.CrossUser, agentB, "", "x"),
			Independent, 0.16 + 0.1*(0.8-0.16), Confirmed, 1},
		{"own outcome strength 0.5", nil, conf("o1", knowledge.Self, "", "", ""),
			Independent, 0.16 + 0.5*(0.8-0.16), Confirmed, 1},
		{"same outcome twice", []Confirmation{conf("o1", knowledge.Self, "", "", "")}, conf("o1", knowledge.Self, "", "", ""),
			NoCredit, 0.16 + 0.5*(0.8-0.16), Confirmed, 1},
		{"two distinct outcomes", []Confirmation{conf("o1", knowledge.Self, "", "", "")}, conf("o2", knowledge.Self, "", "", ""),
			Independent, 0.48 + 0.5*(0.8-0.48), Confirmed, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := cladeRecord(t)
			var err error
			for _, p := range tc.prior {
				if r, _, err = Confirm(r, p); err != nil {
					t.Fatal(err)
				}
			}
			got, credit, err := Confirm(r, tc.c)
			if err != nil {
				t.Fatal(err)
			}
			if credit != tc.credit {
				t.Errorf("credit = %v, want %v", credit, tc.credit)
			}
			if !near(got.Confidence, tc.want) {
				t.Errorf("confidence = %v, want %v", got.Confidence, tc.want)
			}
			if got.Status != tc.status || got.Validations != tc.valids {
				t.Errorf("status, validations = %v, %d; want %v, %d", got.Status, got.Validations, tc.status, tc.valids)
			}
			if tc.credit.Weight() > 0 {
				if n := len(got.Confirmations); n != len(tc.prior)+1 || got.Confirmations[n-1].Credit != tc.credit {
					t.Errorf("credited confirmation not logged with its credit: %+v", got.Confirmations)
				}
			} else if len(got.Confirmations) != len(tc.prior) || got.Duplicates != r.Duplicates+1 {
				t.Errorf("zero-credit confirmation logged (%d) or not counted (%d duplicates)", len(got.Confirmations), got.Duplicates)
			}
		})
	}
}

func TestConfirmBoundedBelowCeiling(t *testing.T) {
	for _, pv := range []knowledge.Provenance{knowledge.Clade, knowledge.Purchased, knowledge.CrossUser} {
		t.Run(pv.String(), func(t *testing.T) {
			r, err := Adopt(entry("e1", pv, 1), Origin{}, t0)
			if err != nil {
				t.Fatal(err)
			}
			prev := r.Confidence
			for i := range MaxConfirmations {
				r, _, err = Confirm(r, Confirmation{ID: fmt.Sprint("outcome-", i), Provenance: knowledge.Self, At: t0})
				if err != nil {
					t.Fatal(err)
				}
				if r.Confidence < prev || !(r.Confidence < r.Ceiling) {
					t.Fatalf("confirmation %d: confidence went from %v to %v (ceiling %v)", i, prev, r.Confidence, r.Ceiling)
				}
				prev = r.Confidence
			}
			if !(r.Confidence < r.Ceiling) {
				t.Errorf("confidence %v reached the ceiling %v", r.Confidence, r.Ceiling)
			}
			if r.Ceiling-r.Confidence > 1e-6 {
				t.Errorf("after %d confirmations confidence %v is not near the ceiling %v", MaxConfirmations, r.Confidence, r.Ceiling)
			}
			if _, _, err := Confirm(r, Confirmation{ID: "one-too-many", Provenance: knowledge.Self, At: t0}); !errors.Is(err, ErrInvalid) {
				t.Errorf("confirmation past MaxConfirmations: error %v, want ErrInvalid", err)
			}
		})
	}
}

// TestConfirmOrderIndependent checks that independent confirmations
// commute: the noisy-OR update is a product of remaining doubt.
func TestDuplicatesDoNotFillTheLog(t *testing.T) {
	r := cladeRecord(t)
	for i := range 2 * MaxConfirmations {
		var err error
		if r, _, err = Confirm(r, conf(fmt.Sprint("d", i), knowledge.Clade, agentB, "", "content of e1")); err != nil {
			t.Fatalf("duplicate %d: %v", i, err)
		}
	}
	if len(r.Confirmations) != 0 || r.Duplicates != 2*MaxConfirmations || !near(r.Confidence, 0.16) {
		t.Errorf("after duplicates: %d logged, %d counted, confidence %v", len(r.Confirmations), r.Duplicates, r.Confidence)
	}
	r, credit, err := Confirm(r, conf("c1", knowledge.Clade, agentC, "", "x"))
	if err != nil || credit != Independent {
		t.Errorf("independent confirmation after duplicates = %v, %v", credit, err)
	}
}

func TestConfirmOrderIndependent(t *testing.T) {
	cs := []Confirmation{conf("c1", knowledge.Clade, agentB, "", "x"), conf("c2", knowledge.CrossUser, agentC, "", "y"), conf("o1", knowledge.Self, "", "", "")}
	var got []float64
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 2, 0}} {
		r := cladeRecord(t)
		for _, i := range order {
			var err error
			if r, _, err = Confirm(r, cs[i]); err != nil {
				t.Fatal(err)
			}
		}
		got = append(got, r.Confidence)
	}
	want := 0.8 - (0.8-0.16)*(1-0.2)*(1-0.1)*(1-0.5)
	for _, g := range got {
		if !near(g, want) {
			t.Errorf("confidences by order %v, want all %v", got, want)
		}
	}
}

func TestConfirmDoesNotModifyArgument(t *testing.T) {
	r := cladeRecord(t)
	r, _, _ = Confirm(r, conf("c1", knowledge.Clade, agentB, "", "x"))
	before := r
	before.Confirmations = append([]Confirmation(nil), r.Confirmations...)
	a, _, _ := Confirm(r, conf("c2", knowledge.Clade, agentC, "", "y"))
	b, _, _ := Confirm(r, conf("c3", knowledge.Clade, agentD, "", "z"))
	if !reflect.DeepEqual(r, before) {
		t.Errorf("Confirm modified its argument: %+v", r)
	}
	if a.Confirmations[1].ID != "c2" || b.Confirmations[1].ID != "c3" {
		t.Errorf("results share their log: %v, %v", a.Confirmations[1].ID, b.Confirmations[1].ID)
	}
}

func TestConfirmRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Confirmation
	}{
		{"no provenance", Confirmation{ID: "c", Agent: agentB}},
		{"external without agent", Confirmation{ID: "c", Provenance: knowledge.Clade}},
		{"self without id", Confirmation{Provenance: knowledge.Self}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := cladeRecord(t)
			got, credit, err := Confirm(r, tc.c)
			if !errors.Is(err, ErrInvalid) || credit != NoCredit || got.Confidence != r.Confidence {
				t.Errorf("Confirm = %v, %v, %v; want unchanged, no credit, ErrInvalid", got.Confidence, credit, err)
			}
		})
	}
}

func TestConfirmAboveCeilingUnchanged(t *testing.T) {
	r := cladeRecord(t)
	r.Confidence = 0.9 // as if restored from an older policy
	got, credit, err := Confirm(r, conf("c1", knowledge.Clade, agentB, "", "x"))
	if err != nil || credit != Independent || got.Confidence != 0.9 {
		t.Errorf("Confirm above the ceiling = %v, %v, %v; want 0.9, independent, nil", got.Confidence, credit, err)
	}
}

func TestRecordJSONRoundTrip(t *testing.T) {
	r := cladeRecord(t)
	r, _, _ = Confirm(r, conf("c1", knowledge.Clade, agentB, anchor2, "x"))
	r = Retrieve(r, t0.Add(2*Day))
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var got Record
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, r)
	}
	if math.IsNaN(got.Confidence) {
		t.Error("NaN after round trip")
	}
}

func TestConfirmationFrom(t *testing.T) {
	e := entry("c9", knowledge.Purchased, 0.4)
	e.Source.Anchor = anchor2
	c := ConfirmationFrom(e, t0)
	if c.ID != "c9" || c.Provenance != knowledge.Purchased || c.Agent != agentA || c.Anchor != anchor2 || c.ContentHash != ContentHash(e.Content) || !c.At.Equal(t0) {
		t.Errorf("ConfirmationFrom = %+v", c)
	}
}
