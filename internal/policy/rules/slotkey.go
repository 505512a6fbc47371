package rules

import "strings"

// slotKey is what the rules' caches (slot.Cache) are keyed by: two
// strings compared exactly, a directory and the command or path a call
// spelled (dir is empty for a cache keyed by a path alone).
type slotKey struct{ dir, s string }

// clone returns a copy of k that shares no bytes with a call's arguments.
func (k slotKey) clone() slotKey { return slotKey{strings.Clone(k.dir), strings.Clone(k.s)} }
