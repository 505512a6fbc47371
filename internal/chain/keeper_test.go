package chain

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/tool"
)

// TestFeedKeeperKeepsFeedsFresh drives the dev chain's clock through ten
// hours (20-minute jumps, each past the keeper's refresh age, with
// transactions mined in between) and checks after each jump that the
// keeper republishes every feed, so none is ever older than the
// catalogue's one-hour maximum; a feed set by SetFeedRound is left alone.
func TestFeedKeeperKeepsFeedsFresh(t *testing.T) {
	d, err := StartDev(t.Context(), DevConfig{Seed: "keeper test", AutoCommit: true, KeepFeeds: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	c, err := d.Deploy(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	pinnedAt := time.Now().Add(-2 * time.Hour)
	if err := d.SetFeedRound(t.Context(), c.FeedDAIUSD, big.NewInt(1e8), pinnedAt); err != nil {
		t.Fatal(err)
	}
	feeds := []common.Address{c.FeedETHUSD, c.FeedBTCUSD, c.FeedUSDCUSD}
	for i := range 30 {
		if err := d.AdjustTime(20 * time.Minute); err != nil {
			t.Fatalf("jump %d: %v", i, err)
		}
		if err := d.Fund(t.Context(), d.WalletAddress(), c.USDC, big.NewInt(1)); err != nil {
			t.Fatalf("jump %d: %v", i, err)
		}
		for _, f := range feeds {
			waitFresh(t, d, f, i)
		}
	}
	if _, updated, err := d.latestRound(t.Context(), c.FeedDAIUSD); err != nil || updated != pinnedAt.Unix() {
		t.Errorf("pinned feed updated at %d (err %v), want %d: the keeper overwrote a round set by SetFeedRound", updated, err, pinnedAt.Unix())
	}
}

// waitFresh waits (up to 10 s of wall time) until feed is younger than the
// refresh age by the head's clock.
func waitFresh(t *testing.T, d *DevChain, feed common.Address, jump int) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		head, err := d.provider.HeaderLatest(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		_, updated, err := d.latestRound(t.Context(), feed)
		if err != nil {
			t.Fatal(err)
		}
		age := time.Duration(int64(head.Time)-updated) * time.Second
		if age <= DefaultFeedRefresh {
			return
		}
		select {
		case <-deadline:
			t.Fatalf("after jump %d feed %s is %v old by the chain's clock, want at most %v", jump, feed.Hex(), age, DefaultFeedRefresh)
		case <-tick.C:
		}
	}
}

// TestDevClockFollowsWallTime mines a block per transaction faster than
// one a second and checks the chain's clock never runs more than
// MaxClockLead ahead of wall time: auto-commit holds blocks back instead.
func TestDevClockFollowsWallTime(t *testing.T) {
	const lead = 2 * time.Second
	d, err := StartDev(t.Context(), DevConfig{Seed: "clock test", AutoCommit: true, MaxClockLead: lead})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	c, err := d.Deploy(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	w := d.Wallet()
	args := [32]byte{1}
	for i := range 6 {
		data := pack(t, ERC20ABI(), "approve", c.UniswapV2Router, big.NewInt(int64(i+1)))
		if _, err := w.Send(t.Context(), capFor("approve", args), scopeFor("approve", args), []tool.Tx{{To: tool.Address(c.USDC), Data: data, Label: "approve"}}); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
		head, err := d.provider.HeaderLatest(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if ahead := time.Unix(int64(head.Time), 0).Sub(time.Now()); ahead > lead+time.Second {
			t.Fatalf("after %d blocks the chain's clock is %v ahead of wall time, want at most %v", i+1, ahead, lead+time.Second)
		}
	}
}
