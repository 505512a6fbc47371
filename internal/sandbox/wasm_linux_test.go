package sandbox

import (
	"bytes"
	"testing"
	"time"
)

// Hand-assembled WebAssembly modules (the binary format, section by
// section), so the tests need no toolchain.

func section(id byte, body ...byte) []byte {
	return append([]byte{id, byte(len(body))}, body...)
}

func module(sections ...[]byte) []byte {
	out := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range sections {
		out = append(out, s...)
	}
	return out
}

// loopModule exports "spin", a function that loops forever.
var loopModule = module(
	section(1, 1, 0x60, 0, 0),                             // type 0: () -> ()
	section(3, 1, 0),                                      // func 0: type 0
	section(7, 1, 4, 's', 'p', 'i', 'n', 0x00, 0),         // export "spin" func 0
	section(10, 1, 7, 0, 0x03, 0x40, 0x0c, 0, 0x0b, 0x0b), // loop br 0 end end
)

// growModule exports "grow" (i32) -> i32, memory.grow on a one-page memory.
var growModule = module(
	section(1, 1, 0x60, 1, 0x7f, 1, 0x7f),         // type 0: (i32) -> i32
	section(3, 1, 0),                              // func 0: type 0
	section(5, 1, 0, 1),                           // memory 0: min 1, no max
	section(7, 1, 4, 'g', 'r', 'o', 'w', 0x00, 0), // export "grow" func 0
	section(10, 1, 6, 0, 0x20, 0, 0x40, 0, 0x0b),  // local.get 0 memory.grow end
)

// bigMemoryModule declares a memory of 5000 pages (312.5 MiB) minimum.
var bigMemoryModule = module(
	section(5, 1, 0, 0x88, 0x27),
)

// importModule imports a host function, which the sandbox never provides.
var importModule = module(
	section(1, 1, 0x60, 0, 0),
	section(2, 1, 3, 'e', 'n', 'v', 4, 'd', 'i', 'a', 'l', 0x00, 0),
)

func TestWASM(t *testing.T) {
	lim := Limits{WallClock: 2 * time.Second, Memory: 32 << 20}
	capPages := uint64(wasmPages(lim.Memory))
	for _, tc := range []struct {
		name    string
		mod     []byte
		fn      string
		args    []uint64
		breach  Breach
		alt     Breach // also accepted: a CPU limit equal to the wall clock may trip first
		ok      bool
		results []uint64
		within  time.Duration
		lim     *Limits
	}{
		{name: "infinite loop", mod: loopModule, fn: "spin", breach: BreachWallClock, alt: BreachCPU, within: 3 * time.Second},
		{name: "grow within the cap", mod: growModule, fn: "grow", args: []uint64{capPages - 1}, ok: true, results: []uint64{1}},
		{name: "grow beyond the cap", mod: growModule, fn: "grow", args: []uint64{capPages}, ok: true, results: []uint64{0xffffffff}},
		{name: "grow by 4 GiB", mod: growModule, fn: "grow", args: []uint64{65535}, ok: true, results: []uint64{0xffffffff}},
		{name: "declared memory beyond the cap", mod: bigMemoryModule, fn: "none", breach: BreachMemory, within: time.Second},
		{name: "host import", mod: importModule, fn: "none"},
		{name: "grow to the cap at the default 256 MB", mod: growModule, fn: "grow", args: []uint64{uint64(wasmPages(DefaultMemory)) - 1}, ok: true, results: []uint64{1}, lim: &Limits{WallClock: 5 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if raceEnabled && tc.ok && len(tc.results) > 0 && tc.results[0] == 1 {
				t.Skip("the race detector's shadow memory counts against the memory limit; this runs without -race")
			}
			l := lim
			if tc.lim != nil {
				l = *tc.lim
			}
			spec, err := WASM(tc.mod, tc.fn, tc.args, l)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(t.Context(), spec)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("wasm %s: breach %s, ok %v, after %v, output %q", tc.name, res.Breach, res.OK(), res.Elapsed, bytes.TrimSpace(res.Output))
			if (res.Breach != tc.breach && (tc.alt == BreachNone || res.Breach != tc.alt)) || res.OK() != tc.ok {
				t.Fatalf("breach %s ok %v, want %s ok %v", res.Breach, res.OK(), tc.breach, tc.ok)
			}
			if tc.within > 0 && res.Elapsed > tc.within {
				t.Errorf("stopped after %v, want within %v", res.Elapsed, tc.within)
			}
			if tc.ok {
				got, err := WASMResults(res)
				if err != nil || len(got) != len(tc.results) || got[0] != tc.results[0] {
					t.Errorf("results %v, %v; want %v", got, err, tc.results)
				}
			}
		})
	}
}

func TestMinMemoryPages(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  []byte
		want uint64
		err  bool
	}{
		{"none", loopModule, 0, false},
		{"one page", growModule, 1, false},
		{"5000 pages", bigMemoryModule, 5000, false},
		{"not wasm", []byte("hello world"), 0, true},
		{"truncated", bigMemoryModule[:len(bigMemoryModule)-2], 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := minMemoryPages(tc.mod)
			if got != tc.want || (err != nil) != tc.err {
				t.Errorf("got %d, %v; want %d, error %v", got, err, tc.want, tc.err)
			}
		})
	}
}
