package wasm

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetratelabs/wazero"

	"github.com/wardhq/ward/internal/wasm/wasmtest"
)

// image instantiates module (no start function, no imports needed) and
// returns its memory as it starts, or nil if it does not instantiate.
func image(t testing.TB, module []byte) []byte {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	compiled, err := rt.CompileModule(ctx, module)
	if err != nil {
		return nil
	}
	if len(compiled.ImportedFunctions()) > 0 {
		return nil // a fuzzed module importing functions: not compared
	}
	m, err := rt.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil
	}
	b, _ := m.Memory().Read(0, m.Memory().Size())
	return bytes.Clone(b)
}

// guestImage is image for a module that imports ward_v1 and WASI.
func guestImage(t testing.TB, module []byte) []byte {
	t.Helper()
	ctx := context.Background()
	rt, compiled, err := compile(ctx, module, DefaultMemory, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(ctx)
	m, err := rt.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := m.Memory().Read(0, m.Memory().Size())
	return bytes.Clone(b)
}

// memoryModule is a module with one page of memory and the given active
// data segments.
func memoryModule(segs []segment) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, 5, 3, 1, 0, 1) // memory section: one memory, min 1 page
	var body []byte
	body = appendULEB(body, uint64(len(segs)))
	for _, s := range segs {
		body = append(body, 0, 0x41)
		body = appendSLEB(body, int64(int32(s.offset)))
		body = append(body, 0x0b)
		body = appendULEB(body, uint64(len(s.data)))
		body = append(body, s.data...)
	}
	m = append(m, 11)
	m = appendULEB(m, uint64(len(body)))
	return append(m, body...)
}

func fill(c byte, n int) []byte { return bytes.Repeat([]byte{c}, n) }

// TestMergeDataKeepsTheImage: merging changes the number of segments, not
// the memory an instance starts with; a gap covered by an earlier
// segment (out of order) is not filled with zeros over it.
func TestMergeDataKeepsTheImage(t *testing.T) {
	cases := []struct {
		name string
		segs []segment
		want int // segments after merging
	}{
		{"adjacent and close", []segment{{0, fill('a', 10)}, {10, fill('b', 5)}, {100, fill('c', 3)}, {1000, fill('d', 2)}}, 2},
		{"a gap over an earlier segment", []segment{{100, fill('a', 10)}, {0, fill('b', 10)}, {200, fill('c', 10)}, {215, fill('d', 5)}}, 3},
		{"overlapping, in order", []segment{{0, fill('a', 10)}, {5, fill('b', 10)}, {15, fill('c', 1)}}, 2},
		{"empty segments", []segment{{0, nil}, {3, fill('a', 1)}, {3, nil}}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			orig := memoryModule(c.segs)
			merged := mergeData(orig)
			segs, err := parseSegments(dataSection(t, merged))
			if err != nil {
				t.Fatal(err)
			}
			if len(segs) != c.want {
				t.Errorf("%d segments after merging, want %d", len(segs), c.want)
			}
			a, b := image(t, orig), image(t, merged)
			if a == nil || !bytes.Equal(a, b) {
				t.Errorf("the merged module's memory differs from the original's")
			}
		})
	}
}

func dataSection(t *testing.T, module []byte) []byte {
	t.Helper()
	for i := 8; i < len(module); {
		n, next, ok := uleb(module, i+1)
		if !ok {
			t.Fatal("bad section")
		}
		if module[i] == 11 {
			return module[next : next+int(n)]
		}
		i = next + int(n)
	}
	t.Fatal("no data section")
	return nil
}

// TestMergeDataRandom: random segments, in and out of order, overlapping
// and out of bounds: the merged module starts with the same memory as the
// original, or fails to instantiate as it does.
func TestMergeDataRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 1))
	for i := range 300 {
		var segs []segment
		off := uint32(r.IntN(1000))
		for range r.IntN(40) {
			switch r.IntN(6) {
			case 0:
				off = uint32(r.IntN(65536 + 100)) // anywhere, past the page too
			case 1:
				off -= uint32(r.IntN(20)) // back over the last one
			default:
				off += uint32(r.IntN(400))
			}
			n := r.IntN(50)
			segs = append(segs, segment{off, fill(byte('a'+r.IntN(26)), n)})
			off += uint32(n)
		}
		orig := memoryModule(segs)
		a, b := image(t, orig), image(t, mergeData(orig))
		if !bytes.Equal(a, b) {
			t.Fatalf("case %d (%d segments): the merged module's memory differs (original instantiates: %v)", i, len(segs), a != nil)
		}
	}
}

// TestMergeDataGoGuest: the example tool's data segments merge to far
// fewer, with the same memory image.
func TestMergeDataGoGuest(t *testing.T) {
	out := filepath.Join(t.TempDir(), "example.wasm")
	if err := wasmtest.Build("../../examples/wasm-tool", out); err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	merged := mergeData(orig)
	before, _ := parseSegments(dataSection(t, orig))
	after, err := parseSegments(dataSection(t, merged))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d data segments merged to %d", len(before), len(after))
	if len(after)*10 > len(before) {
		t.Errorf("%d segments merged to %d, want a tenth at most", len(before), len(after))
	}
	if !bytes.Equal(guestImage(t, orig), guestImage(t, merged)) {
		t.Error("the merged module's memory differs from the original's")
	}
}

// FuzzMergeData: any bytes: mergeData does not panic, and what it
// rewrites starts with the same memory.
func FuzzMergeData(f *testing.F) {
	f.Add(memoryModule([]segment{{0, fill('a', 3)}, {5, fill('b', 2)}}))
	f.Add(memoryModule([]segment{{100, fill('a', 10)}, {0, fill('b', 10)}, {200, fill('c', 10)}}))
	f.Fuzz(func(t *testing.T, module []byte) {
		merged := mergeData(module)
		if bytes.Equal(merged, module) {
			return
		}
		if a, b := image(t, module), image(t, merged); !bytes.Equal(a, b) {
			t.Fatalf("the merged module's memory differs (original instantiates: %v)", a != nil)
		}
	})
}
