//go:build race

package generate

// raceEnabled: the race detector slows scoring about tenfold, and the race
// run shares the machine with every other package's tests, so the time
// budget is checked only without it (the CI's dedicated gate step and
// `go test ./...` run without it).
const raceEnabled = true
