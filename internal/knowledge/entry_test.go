package knowledge

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

func validEntry() Entry {
	return Entry{
		ID:         "01JEXAMPLE",
		Content:    "Uniswap v3 pools with fee tier 0.05% rebalance within two blocks of a large swap.",
		Type:       TypeInsight,
		Confidence: 0.7,
		Source: Source{
			Provenance: Purchased,
			Agent:      "0x00000000000000000000000000000000000000aB",
			Signature:  make([]byte, SignatureSize),
			Anchor:     "0x" + strings.Repeat("ab", 32),
			ListingID:  "listing-7",
			Timestamp:  time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC),
		},
		Embedding: []float32{0.1, -0.2, 0.3},
		Claim:     &Claim{Subject: "pool X", Relation: "rebalances_within_blocks", Object: "2", Conditions: []string{"swap > 1% of TVL"}},
		Heuristic: &Heuristic{Conditions: []string{"large swap"}, Actions: []string{"wait 2 blocks"}, Parameters: map[string]string{"blocks": "2"}},
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Entry)
		ok     bool
	}{
		{"valid", func(*Entry) {}, true},
		{"self without agent or signature", func(e *Entry) { e.Source = Source{Provenance: Self, Timestamp: time.Unix(1, 0)} }, true},
		{"content at the limit", func(e *Entry) { e.Content = strings.Repeat("a", MaxContent) }, true},
		{"empty content", func(e *Entry) { e.Content = "" }, false},
		{"content above the limit", func(e *Entry) { e.Content = strings.Repeat("a", MaxContent+1) }, false},
		{"content not UTF-8", func(e *Entry) { e.Content = "\xff" }, false},
		{"zero type", func(e *Entry) { e.Type = 0 }, false},
		{"unknown type", func(e *Entry) { e.Type = 99 }, false},
		{"confidence above 1", func(e *Entry) { e.Confidence = 1.01 }, false},
		{"negative confidence", func(e *Entry) { e.Confidence = -0.1 }, false},
		{"NaN confidence", func(e *Entry) { e.Confidence = math.NaN() }, false},
		{"zero provenance", func(e *Entry) { e.Source.Provenance = 0 }, false},
		{"external without agent", func(e *Entry) { e.Source.Agent = "" }, false},
		{"agent too short", func(e *Entry) { e.Source.Agent = "0x1234" }, false},
		{"agent not hex", func(e *Entry) { e.Source.Agent = "0x" + strings.Repeat("g", 40) }, false},
		{"agent without 0x", func(e *Entry) { e.Source.Agent = strings.Repeat("a", 42) }, false},
		{"signature of 64 bytes", func(e *Entry) { e.Source.Signature = make([]byte, 64) }, false},
		{"signature of 32 bytes (a B256)", func(e *Entry) { e.Source.Signature = make([]byte, 32) }, false},
		{"bad anchor", func(e *Entry) { e.Source.Anchor = "0xabc" }, false},
		{"zero timestamp", func(e *Entry) { e.Source.Timestamp = time.Time{} }, false},
		{"NaN embedding", func(e *Entry) { e.Embedding = []float32{float32(math.NaN())} }, false},
		{"embedding too long", func(e *Entry) { e.Embedding = make([]float32, MaxEmbedding+1) }, false},
		{"claim without object", func(e *Entry) { e.Claim.Object = "" }, false},
		{"too many claim conditions", func(e *Entry) { e.Claim.Conditions = make([]string, MaxItems+1) }, false},
		{"heuristic without actions", func(e *Entry) { e.Heuristic.Actions = nil }, false},
		{"heuristic parameter without name", func(e *Entry) { e.Heuristic.Parameters = map[string]string{"": "x"} }, false},
		{"id too long", func(e *Entry) { e.ID = strings.Repeat("i", MaxID+1) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := validEntry()
			tt.mutate(&e)
			err := e.Validate()
			if (err == nil) != tt.ok {
				t.Fatalf("Validate() = %v, want ok %v", err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrInvalid) {
				t.Errorf("Validate() = %v, does not wrap ErrInvalid", err)
			}
		})
	}
}

func TestJSONRoundTrip(t *testing.T) {
	e := validEntry()
	b, err := json.Marshal(&e)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"entry_type":"insight"`, `"provenance":"purchased"`, `"on_chain_anchor"`, `"listing_id"`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON %s lacks %s", b, key)
		}
	}
	var got Entry
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, e) {
		t.Errorf("round trip = %+v, want %+v", got, e)
	}
	if err := json.Unmarshal([]byte(`{"entry_type":"rumour"}`), &got); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown entry type: err = %v, want ErrInvalid", err)
	}
	if _, err := json.Marshal(Entry{}); err == nil {
		t.Error("marshalling a zero entry (zero enums) succeeded")
	}
}

func TestEnumNames(t *testing.T) {
	type enc interface {
		MarshalText() ([]byte, error)
	}
	tests := []struct {
		v    enc
		want string
	}{
		{TypeStrategyFragment, "strategy_fragment"},
		{TypeCausalLink, "causal_link"},
		{CrossUser, "cross_user"},
		{Self, "self"},
		{PartitionLessons, "lessons"},
		{PartitionQuarantine, "quarantine"},
		{Paranoid, "paranoid"},
		{Relaxed, "relaxed"},
		{ProvenanceForgery, "provenance_forgery"},
		{CausalGraphPoisoning, "causal_graph_poisoning"},
		{NoAttack, ""},
		{LayerEmbedding, "embedding"},
		{LayerAnomaly, "L1"},
		{LayerConsistency, "L3b"},
		{NoLayer, ""},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			b, err := tt.v.MarshalText()
			if err != nil || string(b) != tt.want {
				t.Fatalf("MarshalText() = %q, %v; want %q", b, err, tt.want)
			}
			p := reflect.New(reflect.TypeOf(tt.v))
			if err := p.Interface().(interface{ UnmarshalText([]byte) error }).UnmarshalText(b); err != nil {
				t.Fatalf("UnmarshalText(%q): %v", b, err)
			}
			if got := p.Elem().Interface(); got != tt.v {
				t.Errorf("UnmarshalText(%q) = %v, want %v", b, got, tt.v)
			}
		})
	}
	if _, err := Partition(0).MarshalText(); err == nil {
		t.Error("zero partition marshalled")
	}
}

func TestStrictness(t *testing.T) {
	tests := []struct {
		s       Strictness
		need    int
		sandbox bool
	}{
		{Relaxed, 1, false},
		{Standard, 2, false},
		{Strict, 3, true},
		{Paranoid, 3, true},
		{Strictness(200), 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.s.String(), func(t *testing.T) {
			if got := tt.s.Threshold(); got != tt.need {
				t.Errorf("Threshold() = %d of %d, want %d", got, Validators, tt.need)
			}
			if got := tt.s.SandboxRequired(); got != tt.sandbox {
				t.Errorf("SandboxRequired() = %v, want %v", got, tt.sandbox)
			}
		})
	}
	var zero Strictness
	if zero != Paranoid {
		t.Errorf("zero Strictness = %v, want paranoid", zero)
	}
}
