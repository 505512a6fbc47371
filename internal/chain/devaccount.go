package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/chain/artifacts/published"
)

// AccountDeployment is where DeployAccount put an ERC-4337 account and
// the EntryPoint it answers to.
type AccountDeployment struct {
	Account    common.Address
	EntryPoint common.Address
}

// SessionScope is what the owner lets a session key do: call each
// Targets[i] with Selectors[i], with at most ValueCap wei per call, until
// ValidUntil.
type SessionScope struct {
	ValidUntil time.Time
	ValueCap   *big.Int
	Targets    []common.Address
	Selectors  [][4]byte
}

// DeployAccount deploys, from the operator, the published EntryPoint
// v0.7 (or uses entryPoint if not zero) and a SessionKeyAccount owned by
// the operator, the owner the dev chain stands in for, and deposits
// deposit wei for it at the EntryPoint.
func (d *DevChain) DeployAccount(ctx context.Context, entryPoint common.Address, deposit *big.Int) (AccountDeployment, error) {
	var out AccountDeployment
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		return out, fmt.Errorf("deploy account: %w", err)
	}
	out.EntryPoint = entryPoint
	if entryPoint == (common.Address{}) {
		a, err := published.Load("EntryPoint")
		if err != nil {
			return out, fmt.Errorf("deploy account: %w", err)
		}
		code, err := a.Link(nil)
		if err != nil {
			return out, fmt.Errorf("deploy account: %w", err)
		}
		out.EntryPoint = crypto.CreateAddress(d.operator.Address(), b.nonce)
		b.add("deploy EntryPoint", nil, nil, code)
	}
	out.Account = b.deploy("SessionKeyAccount", out.EntryPoint, d.operator.Address())
	if deposit != nil && deposit.Sign() > 0 {
		b.call("deposit for the account", out.EntryPoint, deposit, entryPointABI(), "depositTo", out.Account)
	}
	if err := b.run(ctx); err != nil {
		return out, fmt.Errorf("deploy account: %w", err)
	}
	return out, nil
}

// GrantSessionKey has the account's owner (the operator) grant key the
// scope s, replacing any it had.
func (d *DevChain) GrantSessionKey(ctx context.Context, account, key common.Address, s SessionScope) error {
	if len(s.Targets) != len(s.Selectors) {
		return errors.New("grant session key: targets and selectors differ in length")
	}
	valueCap := s.ValueCap
	if valueCap == nil {
		valueCap = new(big.Int)
	}
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		return fmt.Errorf("grant session key: %w", err)
	}
	b.call("grant session key", account, nil, sessionAccountABI(), "grantSessionKey",
		key, big.NewInt(s.ValidUntil.Unix()), valueCap, s.Targets, s.Selectors)
	if err := b.run(ctx); err != nil {
		return fmt.Errorf("grant session key: %w", err)
	}
	return nil
}

// RevokeSessionKey has the account's owner (the operator) revoke key.
func (d *DevChain) RevokeSessionKey(ctx context.Context, account, key common.Address) error {
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		return fmt.Errorf("revoke session key: %w", err)
	}
	b.call("revoke session key", account, nil, sessionAccountABI(), "revokeSessionKey", key)
	if err := b.run(ctx); err != nil {
		return fmt.Errorf("revoke session key: %w", err)
	}
	return nil
}

// DevSessionScope is the scope the dev chain grants the dev wallet's key
// on its ERC-4337 account: the ERC-20 transfer and approve of the dev
// tokens, and the Uniswap V2 and V3 routers' exact-input swaps, for 30
// days, with at most 1 ETH per call.
func (d *DevChain) DevSessionScope() (SessionScope, error) {
	c := d.Contracts()
	if c == nil {
		return SessionScope{}, errors.New("dev session scope: deploy the dev contracts first")
	}
	s := SessionScope{ValidUntil: time.Now().Add(30 * 24 * time.Hour), ValueCap: ether(1)}
	add := func(target common.Address, a *ABI, methods ...string) error {
		for _, m := range methods {
			sel, ok := a.Selector(m)
			if !ok {
				return fmt.Errorf("dev session scope: no method %s", m)
			}
			s.Targets, s.Selectors = append(s.Targets, target), append(s.Selectors, sel)
		}
		return nil
	}
	for _, tok := range []common.Address{c.USDC, c.DAI, c.WETH} {
		if err := add(tok, ERC20ABI(), "transfer", "approve"); err != nil {
			return s, err
		}
	}
	if err := add(c.UniswapV2Router, UniswapV2Router02ABI(), "swapExactTokensForTokens"); err != nil {
		return s, err
	}
	return s, nil
}

// AccountWallet deploys an ERC-4337 account owned by the operator with a
// 10 ETH deposit, grants the dev wallet's key DevSessionScope, moves the
// dev wallet's starting tokens (100,000 USDC, 10,000 DAI, 50 WETH) and
// 100 ETH into it (the key keeps its own ETH for handleOps' gas), and
// returns a Wallet sending from the account with the dev wallet's key as
// session key. Call it after Deploy.
func (d *DevChain) AccountWallet(ctx context.Context) (*Wallet, AccountDeployment, error) {
	c := d.Contracts()
	if c == nil {
		return nil, AccountDeployment{}, errors.New("dev account wallet: deploy the dev contracts first")
	}
	dep, err := d.DeployAccount(ctx, common.Address{}, ether(10))
	if err != nil {
		return nil, dep, err
	}
	scope, err := d.DevSessionScope()
	if err != nil {
		return nil, dep, err
	}
	if err := d.GrantSessionKey(ctx, dep.Account, d.walletS.Address(), scope); err != nil {
		return nil, dep, fmt.Errorf("dev account wallet: %w", err)
	}
	for _, f := range []struct {
		token  common.Address
		amount *big.Int
	}{
		{common.Address{}, units(100, 18)}, {c.USDC, units(100_000, 6)}, {c.DAI, units(10_000, 18)}, {c.WETH, units(50, 18)},
	} {
		if err := d.Fund(ctx, dep.Account, f.token, f.amount); err != nil {
			return nil, dep, fmt.Errorf("dev account wallet: %w", err)
		}
	}
	w, err := NewWallet(d.walletS, d.provider, WalletConfig{Account: dep.Account, EntryPoint: dep.EntryPoint})
	if err != nil {
		return nil, dep, err
	}
	return w, dep, nil
}

// SignAsOwner signs tx with the operator's key. On the dev chain the
// operator stands in for the owner of the accounts it deploys
// (DeployAccount), so a test or a demo can play the owner sending a
// transaction ward prepared for it (OwnerCall.Tx); ward itself never
// signs as the owner.
func (d *DevChain) SignAsOwner(ctx context.Context, tx *types.Transaction) (*types.Transaction, error) {
	return d.operator.SignTx(ctx, new(big.Int).SetUint64(d.provider.ChainID()), tx)
}
