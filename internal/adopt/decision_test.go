package adopt

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

func TestTag(t *testing.T) {
	a, _ := Adopt(entry("a", knowledge.Purchased, 0.5), Origin{}, t0)
	b := a
	b.ID, b.Agent, b.Confidence = "b", "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", 0.3
	self, _ := Adopt(entry("s", knowledge.Self, 0.8), Origin{}, t0)

	d, err := Tag("d1", t0, []Record{a, self, b, a})
	if err != nil {
		t.Fatal(err)
	}
	want := []Influence{
		{EntryID: "a", Provenance: knowledge.Purchased, Agent: "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", Confidence: 0.2},
		{EntryID: "b", Provenance: knowledge.Purchased, Agent: "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", Confidence: 0.3},
	}
	if d.ID != "d1" || !d.At.Equal(t0) || !slices.Equal(d.Influences, want) {
		t.Errorf("Tag = %+v, want influences %+v (self knowledge and repeats left out)", d, want)
	}

	if d, err := Tag("d2", t0, []Record{self}); err != nil || len(d.Influences) != 0 {
		t.Errorf("Tag with self knowledge only = %+v, %v; want no influences", d, err)
	}
	if _, err := Tag("", t0, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("Tag with empty id: error %v, want ErrInvalid", err)
	}
	many := make([]Record, MaxInfluences+1)
	for i := range many {
		many[i] = a
		many[i].ID = fmt.Sprint("e", i)
	}
	if _, err := Tag("d3", t0, many[:MaxInfluences]); err != nil {
		t.Errorf("Tag with %d influences: %v", MaxInfluences, err)
	}
	if _, err := Tag("d3", t0, many); !errors.Is(err, ErrInvalid) {
		t.Errorf("Tag with %d influences: error %v, want ErrInvalid", len(many), err)
	}
}

func TestInfluenced(t *testing.T) {
	ds := []Decision{
		{ID: "d1", Influences: []Influence{{EntryID: "a", Agent: "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}}},
		{ID: "d2"},
		{ID: "d3", Influences: []Influence{{EntryID: "b", Agent: "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"}, {EntryID: "a2", Agent: "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}}},
		{ID: "d4", Influences: []Influence{{EntryID: "b", Agent: "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"}}},
	}
	for _, tc := range []struct {
		name, agent string
		want        []string
	}{
		{"checksummed address", agentA, []string{"d1", "d3"}},
		{"lower case", "0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", []string{"d3", "d4"}},
		{"never used", agentC, nil},
		{"empty agent", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, d := range Influenced(ds, tc.agent) {
				got = append(got, d.ID)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Influenced(%s) = %v, want %v", tc.agent, got, tc.want)
			}
		})
	}
}
