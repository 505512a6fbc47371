//go:build !linux

package rules

func resolveSymlinks(abs string) (string, error) { return resolvePortable(abs, 0) }
