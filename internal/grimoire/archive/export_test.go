package archive

import (
	"bytes"
	"context"
)

// Destination is where ExtractTo writes.
type Destination = destination

// ExtractTo is Extract of the archive b into dst: the fuzz test's way to
// run the whole extractor in memory.
func ExtractTo(ctx context.Context, b []byte, dst Destination, lim Limits) (*Manifest, error) {
	return extract(ctx, bytes.NewReader(b), int64(len(b)), func() (destination, func() error, error) {
		return dst, func() error { return nil }, nil
	}, lim)
}
