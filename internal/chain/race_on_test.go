//go:build race

package chain

// raceEnabled: under the race detector the miner fills a block about ten
// times slower, so a test that wants partial blocks gives it longer.
const raceEnabled = true
