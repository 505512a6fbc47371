package chain

import (
	"context"
	"testing"
)

func TestPin(t *testing.T) {
	ctx := context.Background()
	if _, ok := Pinned(ctx, 1); ok {
		t.Fatal("a plain context is pinned")
	}
	one := Pin(ctx, 1, 100)
	both := Pin(one, 10, 7)
	tests := []struct {
		name    string
		ctx     context.Context
		chainID uint64
		want    uint64
		pinned  bool
	}{
		{"pinned chain", one, 1, 100, true},
		{"other chain", one, 10, 0, false},
		{"second pin, first chain", both, 1, 100, true},
		{"second pin, second chain", both, 10, 7, true},
		{"the first context is unchanged", one, 10, 0, false},
		{"repinned", Pin(both, 1, 101), 1, 101, true},
		{"unpinned", Unpinned(both), 1, 0, false},
		{"unpinned, other chain", Unpinned(both), 10, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Pinned(tc.ctx, tc.chainID)
			if got != tc.want || ok != tc.pinned {
				t.Errorf("Pinned(chain %d) = %d, %v; want %d, %v", tc.chainID, got, ok, tc.want, tc.pinned)
			}
		})
	}
	if got := Unpinned(ctx); got != ctx {
		t.Error("Unpinned wrapped a context that had no pin")
	}
}
