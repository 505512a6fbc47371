package simtest_test

import (
	"context"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/params"

	"github.com/wardhq/ward/internal/chain/simtest"
)

// TestMineWithoutNotification proves the miner's tick: a transaction that
// entered the pool before the miner subscribed (so no notification of it
// ever reaches the miner) is mined all the same.
func TestMineWithoutNotification(t *testing.T) {
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	b := simulated.NewBackend(types.GenesisAlloc{from: {Balance: big.NewInt(params.Ether)}})
	t.Cleanup(func() { b.Close() })
	c := b.Client()
	ctx := t.Context()
	head, err := c.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	chainID, err := c.ChainID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	to := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: 0, To: &to, Value: big.NewInt(1), Gas: 21_000,
		GasTipCap: big.NewInt(params.GWei), GasFeeCap: new(big.Int).Add(head.BaseFee, big.NewInt(2*params.GWei)),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	rc, err := simtest.RPC(c)
	if err != nil {
		t.Fatal(err)
	}
	stop, err := simtest.Mine(ctx, b, rc, new(sync.Mutex))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	wait, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for {
		if r, err := c.TransactionReceipt(wait, tx.Hash()); err == nil && r != nil {
			if r.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("transfer reverted")
			}
			return
		}
		select {
		case <-wait.Done():
			t.Fatal("a transaction pending before the miner started was never mined")
		case <-time.After(5 * time.Millisecond):
		}
	}
}
