//go:build race

package sandbox

// raceEnabled: the race detector's shadow memory counts against the
// child's memory limit, so tests that fill memory up to the cap skip.
const raceEnabled = true
