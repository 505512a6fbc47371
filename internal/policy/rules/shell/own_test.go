package shell

import "testing"

func TestRelate(t *testing.T) {
	const own = "/work/agent/ward-data"
	for _, tc := range []struct {
		name string
		got  uint8
		want uint8
	}{
		{"same", relatePath(own, own), relSame},
		{"inside", relatePath(own+"/ward.db", own), relInside},
		{"ancestor", relatePath("/work", own), relAncestor},
		{"root is an ancestor", relatePath("/", own), relAncestor},
		{"sibling with a common prefix", relatePath(own+"-old", own), 0},
		{"prefix that is not an element", relatePath("/work/agent/ward-dat", own), 0},
		{"relative same", relateRel("/work/agent", "ward-data", own), relSame},
		{"relative inside", relateRel("/work/agent", "ward-data/ward.db", own), relInside},
		{"relative ancestor", relateRel("/work", "agent", own), relAncestor},
		{"relative from inside", relateRel(own+"/x", "y", own), relInside},
		{"relative from /", relateRel("/", "work/agent/ward-data", own), relSame},
		{"relative elsewhere", relateRel("/tmp", "ward-data", own), 0},
		{"relative prefix", relateRel("/work/agent", "ward-dat", own), 0},
		{"glob same", relateGlob("/work/agent/ward-d*", own), relSame},
		{"glob inside", relateGlob("/work/agent/w*/vault.key", own), relInside},
		{"glob ancestor", relateGlob("/w?rk", own), relAncestor},
		{"glob elsewhere", relateGlob("/work/agent/x*", own), 0},
		{"tail same", relateTail("ward-data", own), relSame},
		{"tail inside", relateTail("ward-data/ward.db", own), relInside},
		{"tail longer", relateTail("agent/ward-data", own), relSame},
		{"tail other", relateTail("data", own), 0},
		{"tail dot-dot", relateTail("../ward-data", own), 0},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: relation %b, want %b", tc.name, tc.got, tc.want)
		}
	}
}
