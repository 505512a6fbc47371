package quarantine

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// ErrReplayed is returned for an entry whose agent delivered the same
// content within the replay window. A replay carries a genuine signature,
// so it is not a forgery; the entry is refused all the same.
var ErrReplayed = errors.New("entry replayed: this agent delivered the same content within the replay window")

type replayKey struct {
	agent   common.Address
	content [32]byte
}

type replaySeen struct {
	key replayKey
	at  time.Time
}

// replayGuard admits each (agent, content hash) once per window. It holds
// at most max keys; beyond that the oldest is forgotten early, so memory
// stays bounded under a flood (the quarantine store's unique index is the
// durable guard).
type replayGuard struct {
	mu     sync.Mutex
	window time.Duration
	max    int
	seen   map[replayKey]time.Time
	order  []replaySeen // admission order, oldest first
}

func newReplayGuard(window time.Duration, max int) *replayGuard {
	return &replayGuard{window: window, max: max, seen: make(map[replayKey]time.Time)}
}

// admit records k at now, or fails with ErrReplayed if k was admitted
// within the window before now.
func (g *replayGuard) admit(k replayKey, now time.Time) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for len(g.order) > 0 {
		o := g.order[0]
		if now.Sub(o.at) < g.window && len(g.order) < g.max {
			break
		}
		if g.seen[o.key].Equal(o.at) {
			delete(g.seen, o.key)
		}
		g.order = g.order[1:]
	}
	if at, ok := g.seen[k]; ok && now.Sub(at) < g.window {
		return fmt.Errorf("quarantine: %w", ErrReplayed)
	}
	g.seen[k] = now
	g.order = append(g.order, replaySeen{k, now})
	return nil
}
