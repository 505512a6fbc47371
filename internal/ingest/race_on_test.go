//go:build race

package ingest

// raceEnabled: the race detector's shadow memory counts against a
// sandboxed job's memory limit (the Stage 3 job is this test binary,
// re-executed under the detector).
const raceEnabled = true
