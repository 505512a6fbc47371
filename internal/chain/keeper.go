package chain

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

// keepFeeds is the dev chain's feed keeper (DevConfig.KeepFeeds): after
// every block sealed, and every tenth of the refresh age of wall
// time (an idle chain's feeds age by wall time too), it republishes each
// feed older than the refresh age. It runs until ctx ends (Close).
func (d *DevChain) keepFeeds(ctx context.Context) {
	t := time.NewTicker(d.refresh / 10)
	defer t.Stop()
	var due int64 // no feed needs a refresh before this clock reading
	var retry <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-d.sealed:
		case <-retry:
		}
		retry = nil
		if d.clock() < due {
			continue // the common case under load: no RPC per block
		}
		next, err := d.refreshFeeds(ctx)
		if err != nil && ctx.Err() == nil {
			slog.Warn("dev chain: refreshing price feeds", "err", err)
			// A refresh that failed (its block raced a time jump, say)
			// is tried again soon, not at the next tick.
			retry = time.After(keeperRetry)
		}
		due = next
	}
}

// keeperRetry is how soon the keeper tries a failed refresh again.
const keeperRetry = 200 * time.Millisecond

// clock is the dev chain's clock in unix seconds: the later of its head's
// time and wall time.
func (d *DevChain) clock() int64 {
	return max(time.Now().Unix(), int64(d.sim.eth.BlockChain().CurrentBlock().Time))
}

// RefreshFeeds republishes the latest answer of every dev price feed
// whose round is at least the refresh age old by the chain's clock (the
// later of the head's time and wall time), in one block. Feeds set by
// SetFeedRound are left alone. It does nothing before Deploy.
func (d *DevChain) RefreshFeeds(ctx context.Context) error {
	_, err := d.refreshFeeds(ctx)
	return err
}

// refreshFeeds is RefreshFeeds; it also returns the clock reading at
// which the oldest feed it keeps will next need a refresh (0 on error,
// so that the keeper tries again at once).
//
// That reading comes from the feeds' rounds as read, never from the
// clock after a refresh: the chain's clock can jump (AdjustTime) between
// the block that carries a refresh and the moment it returns, and a due
// time taken from the jumped clock would leave the feeds stale until the
// chain's clock caught up with it (blocks advance it a second each, and
// wall time not at all while the chain is ahead of it). So after a
// refresh the rounds are read again.
func (d *DevChain) refreshFeeds(ctx context.Context) (int64, error) {
	for range 4 {
		due, refreshed, err := d.refreshStale(ctx)
		if err != nil || !refreshed {
			return due, err
		}
	}
	return 0, nil // the clock kept outrunning the refreshes: look again soon
}

// refreshStale republishes, in one block, each kept feed at least the
// refresh age old by the chain's clock, and reports whether it did; due
// is the clock reading at which the oldest fresh feed it read will need
// a refresh (meaningful only when it refreshed none).
func (d *DevChain) refreshStale(ctx context.Context) (due int64, refreshed bool, err error) {
	c := d.Contracts()
	if c == nil {
		return 0, false, nil
	}
	clock, every := d.clock(), int64(d.refresh/time.Second)
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	var b *batch
	due = math.MaxInt64
	for _, feed := range []common.Address{c.FeedETHUSD, c.FeedBTCUSD, c.FeedUSDCUSD, c.FeedDAIUSD, c.FeedUSDeUSD} {
		if d.pinned[feed] {
			continue
		}
		answer, updated, err := d.latestRound(ctx, feed)
		if err != nil {
			return 0, false, fmt.Errorf("refresh feeds: %w", err)
		}
		if clock-updated < every {
			due = min(due, updated+every)
			continue
		}
		if b == nil {
			if b, err = newBatch(ctx, d, d.operator); err != nil {
				return 0, false, fmt.Errorf("refresh feeds: %w", err)
			}
		}
		b.call("refresh answer", feed, nil, priceFeedAdminABI(), "updateAnswer", answer)
	}
	if b == nil {
		return due, false, nil
	}
	if err := b.run(ctx); err != nil {
		return 0, false, fmt.Errorf("refresh feeds: %w", err)
	}
	return 0, true, nil
}

// latestRound reads a feed's latest answer and update time.
func (d *DevChain) latestRound(ctx context.Context, feed common.Address) (*big.Int, int64, error) {
	a := AggregatorV3ABI()
	data, err := a.Pack("latestRoundData")
	if err != nil {
		return nil, 0, err
	}
	out, err := d.provider.Call(ctx, ethereum.CallMsg{To: &feed, Data: data})
	if err != nil {
		return nil, 0, err
	}
	v, err := a.Unpack("latestRoundData", out)
	if err != nil {
		return nil, 0, err
	}
	return v[1].(*big.Int), v[3].(*big.Int).Int64(), nil
}
