package catalog_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/wardhq/ward/internal/catalog"
)

var updateDefs = flag.Bool("update", false, "rewrite testdata/defs.golden with the catalogue's definitions now")

// TestDefsGolden wants every tool of the catalogue (All: the dev chain
// with a wallet, and the privileged tools) to define itself exactly as
// recorded in testdata/defs.golden: a line a tool with its name, its
// place in the adapter table, which handlers it has, and the SHA-256 of
// its definition as JSON and of the raw bytes of its parameter, result
// and output schemas. Tool definitions are a contract with every client;
// the file was written before issue 16's de-duplication of the catalogue,
// so a refactoring that changes one byte of them fails here.
func TestDefsGolden(t *testing.T) {
	var got bytes.Buffer
	for _, tl := range catalog.All() {
		d := *tl.Def
		d.Params, d.Result, d.OutputSchema = nil, nil, nil
		js, err := json.Marshal(&d)
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		fmt.Fprintf(&got, "%s action=%q venue=%q read=%t plan=%t write=%t privileged=%t def=%.12x params=%.12x result=%.12x output=%.12x\n",
			d.Name, tl.Action, tl.Venue, tl.Read != nil, tl.Plan != nil, tl.Write != nil, tl.Privileged != nil,
			sha256.Sum256(js), sha256.Sum256(tl.Def.Params), sha256.Sum256(tl.Def.Result), sha256.Sum256(tl.Def.OutputSchema))
	}
	path := filepath.Join("testdata", "defs.golden")
	if *updateDefs {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, w := bytes.Split(got.Bytes(), []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range max(len(g), len(w)) {
		var gl, wl []byte
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if !bytes.Equal(gl, wl) {
			t.Errorf("line %d of testdata/defs.golden:\ngot:  %s\nwant: %s", i+1, gl, wl)
		}
	}
}
