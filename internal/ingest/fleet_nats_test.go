package ingest

import (
	"crypto/ecdsa"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/nats-io/nats.go"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/quarantine"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/relay"
)

// natsFleet is the five members of newFleet, each joined to the others by
// a real relay on a three-node NATS cluster (embedded servers clustered on
// loopback, the stream replicated three times) instead of the loopback.
type natsFleet struct {
	cluster *relay.Cluster
	fleet   []*fleetMember
	relays  []*relay.Relay
	dirs    []string
}

func newNATSFleet(t *testing.T, strict string) (*natsFleet, *ecdsa.PrivateKey) {
	t.Helper()
	_, fleet, seller := newFleet(t, strict)
	cl, err := relay.StartCluster(t.TempDir(), 3)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	nf := &natsFleet{cluster: cl, fleet: fleet}
	for i := range fleet {
		nf.dirs = append(nf.dirs, t.TempDir())
		nf.relays = append(nf.relays, nil)
		nf.join(t, i)
	}
	return nf, seller
}

// member reports whether a is a member of clade alpha on f's registry.
func member(f *fleetMember) func(common.Address) bool {
	return func(a common.Address) bool {
		m, ok := f.h.reg.Member(a.Hex())
		return ok && m.Clade == "alpha"
	}
}

// join opens member i's relay (every node's URL, its own node first, so
// that it fails over) and subscribes its pipeline.
func (nf *natsFleet) join(t *testing.T, i int) {
	t.Helper()
	f := nf.fleet[i]
	urls := nf.cluster.URLs()
	urls = append(urls[i%3:], urls[:i%3]...)
	r, err := relay.Open(t.Context(), relay.Config{URLs: urls, Clade: "alpha", Key: f.key, Members: member(f), DataDir: nf.dirs[i], Replicas: 3, MaxBytes: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	nf.relays[i] = r
	f.h.p.cfg.Fleet = RelayPublisher(r)
	if err := r.Subscribe(t.Context(), f.h.p.RelayHandler(nil)); err != nil {
		t.Fatal(err)
	}
}

// distinct returns a sentence of its own for round i: the same words in
// another order and selection, far apart for the oracle's similarity
// filter, so that one round's content is not held as a near-duplicate of
// another's.
func distinct(i int) string {
	rng := rand.New(rand.NewPCG(uint64(i)+1, 7))
	words := make([]string, 14)
	for w := range words {
		b := make([]byte, 5+rng.IntN(4))
		for j := range b {
			b[j] = "bcdfghjklmnprstvz"[rng.IntN(17)]
			if j%2 == 1 {
				b[j] = "aeiou"[rng.IntN(5)]
			}
		}
		words[w] = string(b)
	}
	return strings.Join(words, " ")
}

// eventually waits up to 30 s for cond.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestFleetOverNATS: five members of one clade on a three-node NATS
// cluster. A rejection by one flags the content in the four other oracles
// (the latency of that is measured); an entry one member shares and three
// reject falls to near-zero confidence on all five and its sharer's trust
// falls; a verdict from a key outside the clade and a replayed filter
// change nothing; a member that is down while a rejection is published,
// with one NATS node stopped, catches up when it returns.
func TestFleetOverNATS(t *testing.T) {
	// B, C and D fail content carrying the marker; B is the member that
	// rejects, E the one that shares.
	nf, seller := newNATSFleet(t, "BCD")
	fleet := nf.fleet
	a := fleet[1]
	others := []*fleetMember{fleet[0], fleet[2], fleet[3], fleet[4]}

	t.Run("rejection flags every oracle", func(t *testing.T) {
		const rounds = 12
		var lat []time.Duration
		for i := range rounds {
			poison := distinct(i) + " " + marker
			// Measured from the call that decides the rejection (its
			// publishing included) to the flag on each other member.
			e := purchased(a.h, fmt.Sprintf("poison-%d", i), poison, seller)
			start := time.Now()
			want(t, a.h.ingest(e), Rejected, StageStage2, reason.KnowledgeVerifiableFalse, knowledge.CausalGraphPoisoning)
			var wg sync.WaitGroup
			var mu sync.Mutex
			for _, f := range others {
				wg.Go(func() {
					eventually(t, f.name+"'s oracle to flag A's rejection", func() bool { return f.h.oral.Check(poison, nil).Exact })
					mu.Lock()
					lat = append(lat, time.Since(start))
					mu.Unlock()
				})
			}
			wg.Wait()
		}
		slices.Sort(lat)
		t.Logf("relay latency, a rejection on B to a flagged oracle on another member: p50 %v, p99 %v, max %v (%d samples, 3-node cluster, R3)",
			lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)], lat[len(lat)-1], len(lat))
	})

	t.Run("a share rejected by three of five", func(t *testing.T) {
		e := fleet[4]
		share := shareOf(t, e, "share-e-nats", "Stableswap pools keep slippage low while the peg holds "+marker)
		if err := e.h.p.ShareWithClade(t.Context(), share); err != nil {
			t.Fatal(err)
		}
		for _, f := range fleet {
			eventually(t, f.name+" to lower its trust in E", func() bool {
				return math.Abs(f.trustIn(e)-(fleetConf-SharePenalty)) < 1e-9
			})
			// Every verdict (A's, B's, C's and D's) has reached f: nothing
			// of this share is still on its way when the next test looks.
			eventually(t, f.name+" to count four verdicts", func() bool {
				f.h.p.mu.Lock()
				defer f.h.p.mu.Unlock()
				return len(f.h.p.clade.tallies[share.ID].votes) == 4
			})
			if k, ok := f.h.p.Grimoire().Get(share.ID); ok && k.Confidence != CladeRejectedConfidence {
				t.Errorf("%s holds the share at %v, want %v", f.name, k.Confidence, CladeRejectedConfidence)
			}
		}
	})

	t.Run("forged verdict and replayed filter", func(t *testing.T) {
		spy, err := nats.Connect(nf.cluster.URLs()[1])
		if err != nil {
			t.Fatal(err)
		}
		defer spy.Close()
		raw := make(chan *nats.Msg, 64)
		sub, err := spy.ChanSubscribe("ward.relay.clade.alpha.filter", raw)
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Unsubscribe()
		if err := spy.Flush(); err != nil {
			t.Fatal(err)
		}
		before := make([]state, len(fleet))
		for i, f := range fleet {
			before[i] = snapshot(t, f, "share-e-nats", fleet[4], "")
		}
		dropped := func(c relay.Cause) (n uint64) {
			for _, r := range nf.relays {
				n += r.Stats().Dropped[c]
			}
			return n
		}
		replays, members := dropped(relay.CauseReplay), dropped(relay.CauseMember)
		// A verdict signed by a key outside the clade.
		k, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		outsider, err := relay.Open(t.Context(), relay.Config{URLs: nf.cluster.URLs(), Clade: "alpha", Key: k,
			Members: func(common.Address) bool { return true }, DataDir: t.TempDir(), Replicas: 3, MaxBytes: 64 << 20})
		if err != nil {
			t.Fatal(err)
		}
		defer outsider.Close()
		if err := outsider.Publish(t.Context(), relay.KindVerdict, body(t, map[string]any{"v": 1, "entry": "share-e-nats", "rejected": false})); err != nil {
			t.Fatal(err)
		}
		// A filter captured on the wire and published again.
		poison := "Bridge the vault's idle balance to the curator each epoch " + marker
		want(t, a.h.ingest(purchased(a.h, "poison-replay", poison, seller)), Rejected, StageStage2, reason.KnowledgeVerifiableFalse, knowledge.CausalGraphPoisoning)
		var captured []byte
		select {
		case m := <-raw:
			captured = m.Data
		case <-time.After(10 * time.Second):
			t.Fatal("no filter captured")
		}
		if err := spy.Publish("ward.relay.clade.alpha.filter", captured); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the four other members to drop the outsider's verdict and the replay", func() bool {
			return dropped(relay.CauseMember) >= members+5 && dropped(relay.CauseReplay) >= replays+4
		})
		for i, f := range fleet {
			after := snapshot(t, f, "share-e-nats", fleet[4], "")
			after.oracle, before[i].oracle = [32]byte{}, [32]byte{} // the legitimate filter changed it
			after.immune, before[i].immune = 0, 0
			if after != before[i] {
				t.Errorf("%s changed under a forged verdict and a replayed filter:\n before %+v\n after  %+v", f.name, before[i], after)
			}
		}
	})

	t.Run("a member down catches up, one node stopped", func(t *testing.T) {
		d := 3
		nf.relays[d].Close()
		nf.cluster.Stop(2)
		poison := "Leave the health factor at 1.01 through the crash " + marker
		want(t, a.h.ingest(purchased(a.h, "poison-offline", poison, seller)), Rejected, StageStage2, reason.KnowledgeVerifiableFalse, knowledge.CausalGraphPoisoning)
		for _, f := range []*fleetMember{fleet[1], fleet[2], fleet[4]} {
			eventually(t, f.name+" to flag the rejection made while D was down", func() bool { return f.h.oral.Check(poison, nil).Exact })
		}
		if fleet[d].h.oral.Check(poison, nil).Exact {
			t.Fatal("D flagged the content while it was down")
		}
		// A publish that outlived its timeout while the stream elected a
		// leader is queued in the relay's outbox and delivered, never
		// counted lost (before the outbox it was dropped, and C and E
		// never heard of the rejection: about one run in twenty).
		if s := a.h.p.FleetStats(); s.PublishErrors != 0 {
			t.Errorf("the rejecting member counted %d lost publishes", s.PublishErrors)
		}
		// D restarts: a new pipeline on its State, then its relay again.
		reg, err := quarantine.NewLocalRegistry()
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range fleet {
			if err := reg.AddMember(g.addr(), "alpha", fleetConf); err != nil {
				t.Fatal(err)
			}
		}
		fleet[d].h.restart(func(c *Config) { c.Members = reg; c.Fleet = nil })
		nf.join(t, d)
		eventually(t, "D to catch up on what it missed", func() bool { return fleet[d].h.oral.Check(poison, nil).Exact })
	})
}
