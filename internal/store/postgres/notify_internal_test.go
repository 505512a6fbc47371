package postgres

import (
	"fmt"
	"testing"

	"github.com/wardhq/ward/internal/store"
)

// TestDeliverDropsForChangeAll: a receiver that falls behind loses changes
// but is told so by a ChangeAll as soon as it reads again, and the changes
// after it arrive.
func TestDeliverDropsForChangeAll(t *testing.T) {
	in := make(chan store.Change)
	out := make(chan store.Change, 4)
	done := make(chan struct{})
	go func() { defer close(done); deliver(in, out) }()
	for i := range 10 {
		in <- store.Change{Kind: store.ChangeSession, ID: fmt.Sprint(i)}
	}
	for i := range 4 {
		if c := <-out; c.ID != fmt.Sprint(i) {
			t.Fatalf("change %d: %+v", i, c)
		}
	}
	if c := <-out; c != (store.Change{}) {
		t.Fatalf("after the drops: %+v, want ChangeAll", c)
	}
	in <- store.Change{Kind: store.ChangePrincipal, ID: "p"}
	if c := <-out; c != (store.Change{Kind: store.ChangePrincipal, ID: "p"}) {
		t.Fatalf("after the ChangeAll: %+v", c)
	}
	close(in)
	<-done
}

func TestDecodeChange(t *testing.T) {
	for _, c := range []store.Change{{}, {Kind: store.ChangeSession, ID: "s:1"}, {Kind: store.ChangePrincipal, ID: "p"}, {Kind: store.ChangeControl}} {
		if got := decodeChange(encodeChange(c)); got != c {
			t.Errorf("decode(encode(%+v)) = %+v", c, got)
		}
	}
	for _, p := range []string{"", "1", "9:x", "x:1", "12"} {
		if got := decodeChange(p); got != (store.Change{}) {
			t.Errorf("decode(%q) = %+v, want ChangeAll", p, got)
		}
	}
}
