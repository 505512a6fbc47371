package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/chain/artifacts/published"
)

// SafeDeployment is where DeploySafe put a Safe: the proxy (the Safe's
// address), the singleton and factory it was made with, and the
// MultiSendCallOnly its plans are batched through.
type SafeDeployment struct {
	Safe      common.Address
	Singleton common.Address
	Factory   common.Address
	MultiSend common.Address
}

// DeploySafe deploys, from the operator, the published Safe v1.4.1
// singleton, proxy factory and MultiSendCallOnly, and a Safe proxy set up with owners and
// threshold (no modules, no fallback handler, no payment), as the Safe
// web app would with the canonical deployments. It refuses a threshold of
// 0 or above the number of owners before sending anything.
func (d *DevChain) DeploySafe(ctx context.Context, owners []common.Address, threshold uint64) (SafeDeployment, error) {
	var out SafeDeployment
	if threshold == 0 || threshold > uint64(len(owners)) {
		return out, fmt.Errorf("deploy safe: threshold %d of %d owners", threshold, len(owners))
	}
	code := func(name string) ([]byte, error) {
		a, err := published.Load(name)
		if err != nil {
			return nil, err
		}
		return a.Link(nil)
	}
	single, err := code("Safe")
	if err != nil {
		return out, fmt.Errorf("deploy safe: %w", err)
	}
	factory, err := code("SafeProxyFactory")
	if err != nil {
		return out, fmt.Errorf("deploy safe: %w", err)
	}
	multi, err := code("MultiSendCallOnly")
	if err != nil {
		return out, fmt.Errorf("deploy safe: %w", err)
	}
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		return out, fmt.Errorf("deploy safe: %w", err)
	}
	out.Singleton = crypto.CreateAddress(d.operator.Address(), b.nonce)
	b.add("deploy Safe", nil, nil, single)
	out.Factory = crypto.CreateAddress(d.operator.Address(), b.nonce)
	b.add("deploy SafeProxyFactory", nil, nil, factory)
	out.MultiSend = crypto.CreateAddress(d.operator.Address(), b.nonce)
	b.add("deploy MultiSendCallOnly", nil, nil, multi)
	if err := b.run(ctx); err != nil {
		return out, fmt.Errorf("deploy safe: %w", err)
	}
	setup, err := safeABI().Pack("setup", owners, new(big.Int).SetUint64(threshold), common.Address{}, []byte{},
		common.Address{}, common.Address{}, new(big.Int), common.Address{})
	if err != nil {
		return out, fmt.Errorf("deploy safe: %w", err)
	}
	create, err := safeFactoryABI().Pack("createProxyWithNonce", out.Singleton, setup, new(big.Int))
	if err != nil {
		return out, fmt.Errorf("deploy safe: %w", err)
	}
	ret, err := d.provider.Call(ctx, ethereum.CallMsg{From: d.operator.Address(), To: &out.Factory, Data: create})
	if err != nil {
		return out, fmt.Errorf("deploy safe: create proxy: %w", err)
	}
	vals, err := safeFactoryABI().Unpack("createProxyWithNonce", ret)
	if err != nil || len(vals) != 1 {
		return out, errors.Join(errors.New("deploy safe: create proxy returned no address"), err)
	}
	out.Safe = vals[0].(common.Address)
	if b, err = newBatch(ctx, d, d.operator); err != nil {
		return out, fmt.Errorf("deploy safe: %w", err)
	}
	b.add("create Safe proxy", &out.Factory, nil, create)
	if err := b.run(ctx); err != nil {
		return out, fmt.Errorf("deploy safe: %w", err)
	}
	return out, nil
}

// SafeWallet deploys a 1-of-1 Safe owned by the dev wallet's key, moves
// the dev wallet's starting tokens (100,000 USDC, 10,000 DAI, 50 WETH)
// and 100 ETH into it from the operator (the key keeps its own ETH for
// gas), and returns a Wallet that sends from the Safe with the dev
// wallet's key as owner, its SafeQueue in memory like the dev chain, and
// each plan batched into one SafeTx through MultiSendCallOnly. Call
// it after Deploy.
func (d *DevChain) SafeWallet(ctx context.Context) (*Wallet, SafeDeployment, error) {
	c := d.Contracts()
	if c == nil {
		return nil, SafeDeployment{}, errors.New("dev safe wallet: deploy the dev contracts first")
	}
	dep, err := d.DeploySafe(ctx, []common.Address{d.walletS.Address()}, 1)
	if err != nil {
		return nil, dep, err
	}
	for _, f := range []struct {
		token  common.Address
		amount *big.Int
	}{
		{common.Address{}, units(100, 18)}, {c.USDC, units(100_000, 6)}, {c.DAI, units(10_000, 18)}, {c.WETH, units(50, 18)},
	} {
		if err := d.Fund(ctx, dep.Safe, f.token, f.amount); err != nil {
			return nil, dep, fmt.Errorf("dev safe wallet: %w", err)
		}
	}
	w, err := NewWallet(d.walletS, d.provider, WalletConfig{Safe: dep.Safe, SafeQueue: &MemSafeQueue{}, SafeMultiSend: dep.MultiSend})
	if err != nil {
		return nil, dep, err
	}
	return w, dep, nil
}
