//go:build vetcopy

package taint

// copyString is deliberately wrong: `go vet -tags vetcopy ./internal/taint/`
// must report "assignment copies lock value" here, showing that the noCopy
// field makes copies of a String visible to vet.
func copyString(s *String) String {
	c := *s
	return c
}
