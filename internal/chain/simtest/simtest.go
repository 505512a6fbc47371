// Package simtest mines go-ethereum's simulated chain for tests the way a
// development node does: a block as soon as a transaction is pending.
//
// The simulated backend seals only when asked (Commit). A test that sends
// through ward's wallet, which waits for receipts, needs something to
// seal while it waits. Sealing on each pending-transaction notification
// alone is not enough: a seal can fail or build before the pool has
// promoted the transaction (go-ethereum's beacon logs a warning and seals
// nothing), and no second notification comes. The miner here therefore
// also looks at the pool on a short tick and seals while it holds a
// pending transaction.
package simtest

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/rpc"
)

// RPC digs the in-process *rpc.Client out of a simulated backend's
// client: in go-ethereum v1.17 that client is a struct embedding
// *ethclient.Client in a field named Client, which shadows the promoted
// Client() method, so an interface assertion for it fails.
func RPC(c simulated.Client) (*rpc.Client, error) {
	if rc, ok := c.(interface{ Client() *rpc.Client }); ok {
		return rc.Client(), nil
	}
	v := reflect.ValueOf(c)
	if v.Kind() == reflect.Struct {
		if f := v.FieldByName("Client"); f.IsValid() && f.CanInterface() {
			if ec, ok := f.Interface().(*ethclient.Client); ok && ec != nil {
				return ec.Client(), nil
			}
		}
	}
	return nil, errors.New("the simulated backend exposes no rpc client")
}

// Sealer is what the miner seals with: go-ethereum's *simulated.Backend.
type Sealer interface {
	Commit() common.Hash
}

// Tick is how often the miner looks at the pool without a notification.
const Tick = 20 * time.Millisecond

// Mine starts mining b: a block whenever a transaction is pending, each
// sealed holding mu (the simulated beacon does not serialise its own
// sealing, so anything else that seals, AdjustTime say, must hold it
// too). rc is b's RPC client (RPC). stop ends the miner and waits for it.
func Mine(ctx context.Context, b Sealer, rc *rpc.Client, mu sync.Locker) (stop func(), err error) {
	hashes := make(chan common.Hash, 1024)
	sub, err := rc.EthSubscribe(ctx, hashes, "newPendingTransactions")
	if err != nil {
		return nil, err
	}
	run, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if sub != nil {
				sub.Unsubscribe()
			}
		}()
		errs := sub.Err()
		tick := time.NewTicker(Tick)
		defer tick.Stop()
		for {
			select {
			case <-run.Done():
				return
			case <-errs:
				// The subscription dropped (its buffer overflowed): the
				// tick keeps mining; subscribe again for promptness.
				sub, errs = nil, nil
				if s, err := rc.EthSubscribe(run, hashes, "newPendingTransactions"); err == nil {
					sub, errs = s, s.Err()
				}
				continue
			case <-hashes:
				for len(hashes) > 0 {
					<-hashes
				}
			case <-tick.C:
				if pending(run, rc) == 0 {
					continue
				}
			}
			mu.Lock()
			b.Commit()
			mu.Unlock()
		}
	}()
	return func() { cancel(); <-done }, nil
}

// pending is the number of executable transactions in the pool (0 when
// it cannot be read).
func pending(ctx context.Context, rc *rpc.Client) uint64 {
	var st struct {
		Pending hexutil.Uint64 `json:"pending"`
	}
	if err := rc.CallContext(ctx, &st, "txpool_status"); err != nil {
		return 0
	}
	return uint64(st.Pending)
}
