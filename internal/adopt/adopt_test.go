package adopt

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/knowledge"
)

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

const (
	agentA  = "0xAAaaAAaaAAaaAAaaAAaaAAaaAAaaAAaaAAaaAAaa"
	agentB  = "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	agentC  = "0xcccccccccccccccccccccccccccccccccccccccc"
	agentD  = "0xdddddddddddddddddddddddddddddddddddddddd"
	anchor1 = "0x1111111111111111111111111111111111111111111111111111111111111111"
	anchor2 = "0x2222222222222222222222222222222222222222222222222222222222222222"
)

func entry(id string, pv knowledge.Provenance, conf float64) *knowledge.Entry {
	e := &knowledge.Entry{ID: id, Content: "content of " + id, Type: knowledge.TypeHeuristic, Confidence: conf,
		Source: knowledge.Source{Provenance: pv, Timestamp: t0}}
	if pv.External() {
		e.Source.Agent = agentA
	}
	return e
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestTerms(t *testing.T) {
	for _, tc := range []struct {
		pv      knowledge.Provenance
		initial float64
		ttl     time.Duration
		ok      bool
	}{
		{knowledge.Self, 0.9, 0, true},
		{knowledge.Clade, 0.2, 14 * Day, true},
		{knowledge.Purchased, 0.2, 14 * Day, true},
		{knowledge.CrossUser, 0.1, 7 * Day, true},
		{0, 0, 0, false},
		{99, 0, 0, false},
	} {
		t.Run(tc.pv.String(), func(t *testing.T) {
			initial, ttl, ok := Terms(tc.pv)
			if initial != tc.initial || ttl != tc.ttl || ok != tc.ok {
				t.Errorf("Terms(%v) = %v, %v, %v; want %v, %v, %v", tc.pv, initial, ttl, ok, tc.initial, tc.ttl, tc.ok)
			}
		})
	}
}

func TestDiscount(t *testing.T) {
	for _, tc := range []struct {
		name string
		rel  Relationship
		gen  int
		want float64
		err  bool
	}{
		{"direct", Direct, 0, 1, false},
		{"inheritance 1", Inheritance, 1, 0.85, false},
		{"inheritance 2", Inheritance, 2, 0.7225, false},
		{"inheritance 3", Inheritance, 3, 0.614125, false}, // the seed's "≈ 0.61×"
		{"inheritance max", Inheritance, MaxGeneration, math.Pow(0.85, MaxGeneration), false},
		{"inheritance 0", Inheritance, 0, 0, true},
		{"inheritance negative", Inheritance, -1, 0, true},
		{"inheritance too deep", Inheritance, MaxGeneration + 1, 0, true},
		{"clade", CladeSibling, 0, 0.80, false},
		{"commons", Commons, 0, 0.50, false},
		{"marketplace", Marketplace, 0, 0.60, false},
		{"generation on clade", CladeSibling, 2, 0, true},
		{"unknown", Relationship(9), 0, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Discount(tc.rel, tc.gen)
			if (err != nil) != tc.err {
				t.Fatalf("Discount(%v, %d) error = %v, want error %v", tc.rel, tc.gen, err, tc.err)
			}
			if err != nil && !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not wrap ErrInvalid", err)
			}
			if !near(got, tc.want) {
				t.Errorf("Discount(%v, %d) = %v, want %v", tc.rel, tc.gen, got, tc.want)
			}
		})
	}
}

func TestAdopt(t *testing.T) {
	for _, tc := range []struct {
		name      string
		pv        knowledge.Provenance
		claimed   float64
		origin    Origin
		want      float64 // initial confidence
		ceiling   float64
		ttl       time.Duration
		partition knowledge.Partition
		rel       Relationship
	}{
		// min(claimed × discount, table initial), never above the claim.
		{"clade high claim", knowledge.Clade, 0.8, Origin{}, 0.2, 0.8, 14 * Day, knowledge.PartitionExternal, CladeSibling},
		{"clade low claim", knowledge.Clade, 0.2, Origin{}, 0.16, 0.8, 14 * Day, knowledge.PartitionExternal, CladeSibling},
		{"purchased high claim", knowledge.Purchased, 0.6, Origin{}, 0.2, 0.6, 14 * Day, knowledge.PartitionExternal, Marketplace},
		{"purchased low claim", knowledge.Purchased, 0.3, Origin{}, 0.18, 0.6, 14 * Day, knowledge.PartitionExternal, Marketplace},
		{"cross-user high claim", knowledge.CrossUser, 0.5, Origin{}, 0.1, 0.5, 7 * Day, knowledge.PartitionExternal, Commons},
		{"cross-user low claim", knowledge.CrossUser, 0.1, Origin{}, 0.05, 0.5, 7 * Day, knowledge.PartitionExternal, Commons},
		{"zero claim", knowledge.Purchased, 0, Origin{}, 0, 0.6, 14 * Day, knowledge.PartitionExternal, Marketplace},
		{"self keeps its claim", knowledge.Self, 0.7, Origin{}, 0.7, 1, 0, knowledge.PartitionSelf, Direct},
		{"self capped at 0.9", knowledge.Self, 1, Origin{}, 0.9, 1, 0, knowledge.PartitionSelf, Direct},
		{"self low claim not raised", knowledge.Self, 0.3, Origin{}, 0.3, 1, 0, knowledge.PartitionSelf, Direct},
		{"inherited third generation", knowledge.Self, 0.9, Origin{Relationship: Inheritance, Generation: 3}, 0.9 * 0.614125, 0.614125, 0, knowledge.PartitionSelf, Inheritance},
		{"clade entry inherited", knowledge.Clade, 0.2, Origin{Relationship: Inheritance, Generation: 1}, 0.17, 0.85, 14 * Day, knowledge.PartitionExternal, Inheritance},
		{"purchased from the commons", knowledge.Purchased, 0.3, Origin{Relationship: Commons}, 0.15, 0.5, 14 * Day, knowledge.PartitionExternal, Commons},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Adopt(entry("e1", tc.pv, tc.claimed), tc.origin, t0)
			if err != nil {
				t.Fatal(err)
			}
			if !near(r.Confidence, tc.want) || !near(r.Ceiling, tc.ceiling) {
				t.Errorf("confidence, ceiling = %v, %v; want %v, %v", r.Confidence, r.Ceiling, tc.want, tc.ceiling)
			}
			if r.Confidence > tc.claimed {
				t.Errorf("confidence %v above the claim %v", r.Confidence, tc.claimed)
			}
			wantExp := time.Time{}
			if tc.ttl > 0 {
				wantExp = t0.Add(tc.ttl)
			}
			if !r.Expires.Equal(wantExp) {
				t.Errorf("expires %v, want %v", r.Expires, wantExp)
			}
			if r.Status != Pending || r.Partition() != tc.partition || r.Relationship != tc.rel {
				t.Errorf("status, partition, relationship = %v, %v, %v; want pending, %v, %v", r.Status, r.Partition(), r.Relationship, tc.partition, tc.rel)
			}
			if pv := tc.pv; pv.External() && r.Agent != strings.ToLower(agentA) {
				t.Errorf("agent %q not lower-cased", r.Agent)
			}
		})
	}
}

func TestAdoptRefuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(*knowledge.Entry)
		origin Origin
	}{
		{"NaN confidence", func(e *knowledge.Entry) { e.Confidence = math.NaN() }, Origin{}},
		{"negative confidence", func(e *knowledge.Entry) { e.Confidence = -0.1 }, Origin{}},
		{"confidence above 1", func(e *knowledge.Entry) { e.Confidence = 1.01 }, Origin{}},
		{"infinite confidence", func(e *knowledge.Entry) { e.Confidence = math.Inf(1) }, Origin{}},
		{"no provenance", func(e *knowledge.Entry) { e.Source.Provenance = 0 }, Origin{}},
		{"no type", func(e *knowledge.Entry) { e.Type = 0 }, Origin{}},
		{"external without agent", func(e *knowledge.Entry) { e.Source.Agent = "" }, Origin{}},
		{"negative generation", nil, Origin{Relationship: Inheritance, Generation: -2}},
		{"generation zero", nil, Origin{Relationship: Inheritance}},
		{"unknown relationship", nil, Origin{Relationship: 42}},
		{"unknown class", nil, Origin{Class: 7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := entry("e1", knowledge.Purchased, 0.5)
			if tc.mutate != nil {
				tc.mutate(e)
			}
			if _, err := Adopt(e, tc.origin, t0); !errors.Is(err, ErrInvalid) {
				t.Errorf("Adopt error = %v, want ErrInvalid", err)
			}
		})
	}
	if _, err := Adopt(nil, Origin{}, t0); !errors.Is(err, ErrInvalid) {
		t.Errorf("Adopt(nil) error = %v, want ErrInvalid", err)
	}
}

func TestWeight(t *testing.T) {
	ext, _ := Adopt(entry("x", knowledge.Clade, 0.2), Origin{}, t0)
	self, _ := Adopt(entry("s", knowledge.Self, 0.5), Origin{}, t0)
	for _, tc := range []struct {
		name string
		r    *Record
		c    float64
		want float64
	}{
		{"external 0.8x", &ext, 0.5, 0.4},
		{"external zero", &ext, 0, 0},
		{"self full", &self, 0.5, 0.5},
		{"NaN weighs nothing", &ext, math.NaN(), 0},
		{"above 1 weighs nothing", &self, 1.5, 0},
		{"negative weighs nothing", &self, -1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.Weight(tc.c); !near(got, tc.want) {
				t.Errorf("Weight(%v) = %v, want %v", tc.c, got, tc.want)
			}
		})
	}
}

func TestContentHashNormalises(t *testing.T) {
	a, b, c := ContentHash("  Swap ETH\n\tfor USDC "), ContentHash("swap eth for usdc"), ContentHash("swap eth for usdt")
	if a != b {
		t.Errorf("re-spaced, re-cased content hashes differ: %s, %s", a, b)
	}
	if a == c {
		t.Error("different content hashes equal")
	}
}

func TestEnumText(t *testing.T) {
	for _, v := range []interface {
		MarshalText() ([]byte, error)
	}{Relationship(9), Class(9), Status(9), Credit(9), Scope(9), PruneReason(9)} {
		if _, err := v.MarshalText(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%T(9).MarshalText error = %v, want ErrInvalid", v, err)
		}
	}
	var r Relationship
	if err := r.UnmarshalText([]byte("marketplace")); err != nil || r != Marketplace {
		t.Errorf("UnmarshalText(marketplace) = %v, %v", r, err)
	}
	var c Class
	if err := c.UnmarshalText([]byte("emergency")); err != nil || c != Emergency {
		t.Errorf("UnmarshalText(emergency) = %v, %v", c, err)
	}
	var s Status
	if err := s.UnmarshalText([]byte("confirmed")); err != nil || s != Confirmed {
		t.Errorf("UnmarshalText(confirmed) = %v, %v", s, err)
	}
	var cr Credit
	if err := cr.UnmarshalText([]byte("shared_anchor")); err != nil || cr != SharedAnchor {
		t.Errorf("UnmarshalText(shared_anchor) = %v, %v", cr, err)
	}
	for _, u := range []interface{ UnmarshalText([]byte) error }{&r, &c, &s, &cr} {
		if err := u.UnmarshalText([]byte("bogus")); !errors.Is(err, ErrInvalid) {
			t.Errorf("%T.UnmarshalText(bogus) error = %v, want ErrInvalid", u, err)
		}
	}
}
