package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/tool"
)

// TestToolsDocUpToDate fails when docs/tools.md's generated region is not
// what ward tools doc renders from the tool definitions now: a tool added,
// removed or changed without regenerating the document.
func TestToolsDocUpToDate(t *testing.T) {
	const path = "../../docs/tools.md"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, []byte(docBegin)) {
		t.Fatalf("docs/tools.md has no %q marker; run: go run ./cmd/ward tools doc --out docs/tools.md", docBegin)
	}
	defs, err := catalogDefs([]string{"dev"})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := toolsReference(defs, "dev")
	if err != nil {
		t.Fatal(err)
	}
	want, err := spliceGenerated(doc, ref)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(doc, want) {
		return
	}
	got, wantLines := strings.Split(string(doc), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(got), len(wantLines)) {
		g, w := "", ""
		if i < len(got) {
			g = got[i]
		}
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if g != w {
			t.Fatalf("docs/tools.md is out of date with the tool definitions (first difference at line %d):\n got: %s\nwant: %s\nrun: go run ./cmd/ward tools doc --out docs/tools.md", i+1, g, w)
		}
	}
}

func TestToolsDocCategories(t *testing.T) {
	defs := []*tool.Def{
		{Name: "data_get_b", Description: "b", Category: tool.CatData, Tier: tool.Read, RiskTier: tool.Layer1, Params: []byte(`{"type":"object"}`)},
		{Name: "data_get_a", Description: "a | pipe", Category: tool.CatData, Tier: tool.Read, RiskTier: tool.Layer1, Chains: []uint64{8453, 1},
			Params: []byte(`{"type":"object","properties":{"x":{"type":"string","description":"the | x"}}}`)},
	}
	b, err := toolsReference(defs, "dev")
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	for _, c := range tool.Categories() {
		h := "\n### Category: " + string(c) + "\n\n"
		i := strings.Index(out, h)
		if i < 0 {
			t.Fatalf("no heading for category %s", c)
		}
		if c != tool.CatData && !strings.HasPrefix(out[i+len(h):], "No tools yet.") {
			t.Errorf("empty category %s does not say so", c)
		}
	}
	for _, want := range []string{"- chains: 1, 8453\n", "| `x` | string | no | the \\| x |", "No parameters.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("reference lacks %q:\n%s", want, out)
		}
	}
	if a, b := strings.Index(out, "`data_get_a`"), strings.Index(out, "`data_get_b`"); a < 0 || b < a {
		t.Errorf("tools not sorted by name: data_get_a at %d, data_get_b at %d", a, b)
	}
}

func TestParamRows(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []paramRow
	}{
		{"flat, sorted, required", `{"type":"object","required":["b"],"properties":{
			"b":{"type":"string","description":"bee"},
			"a":{"type":["integer","null"],"enum":[1,2]}}}`,
			[]paramRow{{"a", "integer or null", false, "One of `1`, `2`."}, {"b", "string", true, "bee"}}},
		{"nested objects and arrays of objects", `{"type":"object","properties":{
			"order":{"type":"object","required":["size"],"description":"the order","properties":{
				"size":{"type":"string"},
				"legs":{"type":"array","items":{"type":"object","properties":{"venue":{"type":"string","description":"where"}}}}}},
			"tags":{"type":"array","items":{"type":"string"}}}}`,
			[]paramRow{
				{"order", "object", false, "the order"},
				{"order.legs", "array of object", false, ""},
				{"order.legs[].venue", "string", false, "where"},
				{"order.size", "string", true, ""},
				{"tags", "array of string", false, ""},
			}},
		{"$defs and $ref, recursion shown by name", `{"$ref":"#/$defs/root","$defs":{
			"root":{"type":"object","required":["pool"],"properties":{
				"pool":{"$ref":"#/$defs/pool","description":"the pool to use"},
				"route":{"type":"array","items":{"$ref":"#/$defs/hop"}},
				"fee":{"oneOf":[{"type":"integer"},{"$ref":"#/definitions/bps"}]}}},
			"pool":{"type":"object","description":"a pool","properties":{"address":{"type":"string"}}},
			"hop":{"type":"object","properties":{"token":{"type":"string"},"next":{"$ref":"#/$defs/hop"}}}},
			"definitions":{"bps":{"type":"string","const":"auto"}}}`,
			[]paramRow{
				{"fee", "integer or string", false, ""},
				{"pool", "object", true, "the pool to use"},
				{"pool.address", "string", false, ""},
				{"route", "array of object", false, ""},
				{"route[].next", "`hop` (recursive)", false, ""},
				{"route[].token", "string", false, ""},
			}},
		{"no parameters", `{"type":"object","additionalProperties":false,"properties":{}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := paramRows([]byte(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got\n%v\nwant\n%v", got, tt.want)
			}
		})
	}
	for _, bad := range []string{
		`{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`,
		`{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`,
		`{"type":"object","properties":{"a":true}}`,
		`not json`,
	} {
		if _, err := paramRows([]byte(bad)); err == nil {
			t.Errorf("paramRows(%s) = nil error, want one", bad)
		}
	}
}

func TestSpliceGenerated(t *testing.T) {
	region := docBegin + "\n\nREF\n\n" + docEnd + "\n"
	tests := []struct {
		name, doc, want string
	}{
		{"empty file", "", region},
		{"no markers: appended", "# Title\n\nprose\n", "# Title\n\nprose\n\n" + region},
		{"no final newline", "prose", "prose\n\n" + region},
		{"region replaced, prose kept", "# T\n\nbefore\n\n" + docBegin + "\nold\n" + docEnd + "\n\n## After\n\nafter\n",
			"# T\n\nbefore\n\n" + region + "\n## After\n\nafter\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := spliceGenerated([]byte(tt.doc), []byte("REF\n"))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			again, err := spliceGenerated(got, []byte("REF\n"))
			if err != nil || !bytes.Equal(again, got) {
				t.Errorf("splicing again changed the document: %q, %v", again, err)
			}
		})
	}
	for _, bad := range []string{docBegin + "\n", docEnd + "\n", docEnd + "\n" + docBegin + "\n", docBegin + docEnd + docBegin + docEnd} {
		if _, err := spliceGenerated([]byte(bad), []byte("REF\n")); err == nil {
			t.Errorf("spliceGenerated(%q) = nil error, want one", bad)
		}
	}
}

func TestToolsDocOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tools.md")
	prose := "# Tools\n\nHand-written.\n"
	if err := os.WriteFile(path, []byte(prose), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"tools", "doc", "--profile", "trader", "--out", path}, nil, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), prose) || !strings.Contains(string(got), "#### `uniswap_execute_swap`") || strings.Contains(string(got), "`aave_borrow_asset`") {
		t.Errorf("--out did not keep the prose and write the trader profile's tools:\n%s", got)
	}
	var stdout bytes.Buffer
	Main(context.Background(), []string{"tools", "doc", "--profile", "trader"}, nil, &stdout, &errb)
	if !bytes.Contains(got, stdout.Bytes()) {
		t.Error("the file's region differs from what the command prints")
	}

	// A file with a broken region is refused and left as it was.
	broken := prose + docEnd + "\n"
	os.WriteFile(path, []byte(broken), 0o644)
	errb.Reset()
	if code := Main(context.Background(), []string{"tools", "doc", "--out", path}, nil, &out, &errb); code != exitFail {
		t.Errorf("broken markers: exit %d, want %d", code, exitFail)
	}
	if got, _ := os.ReadFile(path); string(got) != broken {
		t.Errorf("broken markers: file changed to\n%s", got)
	}
	if code := Main(context.Background(), []string{"tools", "doc", "--profile", "nope"}, nil, &out, &errb); code != exitUsage {
		t.Errorf("unknown profile: exit %d, want %d", code, exitUsage)
	}
}
