package daemon

import (
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/chain/artifacts/published"
	"github.com/wardhq/ward/internal/chain/nodetest"
)

// gethWallets is a provider on a geth --dev node and keys funded on it,
// each also written to a key file (chmod 600) as wallet_key_file reads
// it: the set-up the signer tests against a separate node share.
type gethWallets struct {
	p     *chain.Provider
	keys  []*chain.LocalSigner
	files []string
}

// newGethWallets dials node and makes one key per byte pattern (a key is
// the pattern repeated 32 times), each funded with fund wei.
func newGethWallets(t *testing.T, node *nodetest.Node, fund *big.Int, patterns ...string) *gethWallets {
	t.Helper()
	p, err := chain.DialEndpoints(t.Context(), []string{node.URL}, chain.ProviderConfig{ChainID: nodetest.ChainID})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	g := &gethWallets{p: p}
	dir := t.TempDir()
	for i, b := range patterns {
		k, err := chain.NewLocalSigner(strings.Repeat(b, 32))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { k.Close() })
		path := filepath.Join(dir, fmt.Sprintf("key%d.key", i))
		if err := os.WriteFile(path, []byte(strings.Repeat(b, 32)+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		g.keys, g.files = append(g.keys, k), append(g.files, path)
		node.Fund(t, k.Address(), fund)
	}
	return g
}

// send signs and sends a transaction from key (to nil: a creation), waits
// for its receipt and fails the test unless it succeeded.
func (g *gethWallets) send(t *testing.T, from *chain.LocalSigner, to *common.Address, value *big.Int, data []byte) *types.Receipt {
	t.Helper()
	ctx := t.Context()
	nonce, err := g.p.Nonce(ctx, from.Address())
	if err != nil {
		t.Fatal(err)
	}
	tip, err := g.p.SuggestGasTip(ctx)
	if err != nil {
		t.Fatal(err)
	}
	head, err := g.p.HeaderLatest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if value == nil {
		value = new(big.Int)
	}
	tx := types.NewTx(&types.DynamicFeeTx{ChainID: big.NewInt(nodetest.ChainID), Nonce: nonce, GasTipCap: tip,
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip), Gas: 10_000_000, To: to, Value: value, Data: data})
	signed, err := from.SignTx(ctx, big.NewInt(nodetest.ChainID), tx)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.p.SendTransaction(ctx, signed); err != nil {
		t.Fatal(err)
	}
	r, err := g.p.WaitReceipt(ctx, signed.Hash())
	if err != nil || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("transaction %s: %+v, %v", signed.Hash().Hex(), r, err)
	}
	return r
}

// creation is the linked creation code of a published artifact.
func creation(t *testing.T, name string) []byte {
	t.Helper()
	a, err := published.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	code, err := a.Link(nil)
	if err != nil {
		t.Fatal(err)
	}
	return code
}
