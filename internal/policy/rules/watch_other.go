//go:build !linux

package rules

import "errors"

func newWatcher(func(string)) (watcher, error) {
	return nil, errors.New("no directory watching on this platform")
}
