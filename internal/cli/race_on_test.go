//go:build race

package cli

// raceEnabled: the race detector slows everything several times over, and
// the race run shares the machine with every other package's tests, so
// wall-clock bounds get more room under it.
const raceEnabled = true
