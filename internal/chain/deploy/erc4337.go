package deploy

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/addrbook"
)

// The ERC-4337 signer's contracts: the EntryPoint v0.7 as
// @account-abstraction/contracts 0.7.0 publishes it, and ward's own
// SessionKeyAccount (contracts/src), which no package publishes.
const (
	artEntryPoint     = "published:EntryPoint"
	artSessionAccount = "ward:SessionKeyAccount"
	accountDepositETH = 1 // ETH deposited at the EntryPoint for the account's gas
	accountETH        = 1 // ETH the account holds
	accountUSDC       = 10_000
	sessionKeyETH     = 1 // ETH sent to the session key: it pays handleOps
	sessionKeyDays    = 30
	sessionValueCap   = 1 // ETH per call
)

// accountETHNeeded is what deployERC4337 spends of the key's ETH.
func accountETHNeeded() *big.Int {
	return units(accountDepositETH+accountETH+sessionKeyETH, 18)
}

// deployERC4337 deploys the EntryPoint and an account owned by the key.
// With a session key it grants it, for sessionKeyDays days and at most
// sessionValueCap ETH a call, the ERC-20 transfer and approve of the test
// tokens and the Uniswap V2 router's exact-input swap, funds the account
// with ETH and USDC and the session key with ETH for gas: the book's
// comment then has what [[chain]] wallet_kind = "erc4337" needs.
func deployERC4337(ctx context.Context, s *sender, r *Result) {
	ep := s.deploy(ctx, "ERC-4337 EntryPoint v0.7", artEntryPoint)
	acct := s.deploy(ctx, "ERC-4337 account (SessionKeyAccount)", artSessionAccount, ep, s.from)
	s.send(ctx, fmt.Sprintf("deposited %d ETH at the EntryPoint for the account", accountDepositETH), units(accountDepositETH, 18), artSessionAccount, acct, "addDeposit")
	if s.err != nil {
		return
	}
	r.addContract(addrbook.ERC4337EntryPoint, ep)
	r.Account, r.EntryPoint = acct, ep
	if s.sessionKey == (common.Address{}) {
		return
	}
	var targets []common.Address
	var selectors [][4]byte
	erc20, err := s.abi(artERC20)
	if err != nil {
		s.fail(err)
		return
	}
	v2, err := s.abi(artV2Router)
	if err != nil {
		s.fail(err)
		return
	}
	sel := func(id []byte) [4]byte { return [4]byte(id) }
	for _, t := range r.Tokens {
		targets = append(targets, t.Address, t.Address)
		selectors = append(selectors, sel(erc20.Methods["transfer"].ID), sel(erc20.Methods["approve"].ID))
	}
	if router, ok := r.Contract(addrbook.UniswapV2Router02); ok {
		targets = append(targets, router)
		selectors = append(selectors, sel(v2.Methods["swapExactTokensForTokens"].ID))
	}
	until := big.NewInt(time.Now().Add(sessionKeyDays * 24 * time.Hour).Unix())
	s.send(ctx, fmt.Sprintf("granted the session key %s", s.sessionKey.Hex()), nil, artSessionAccount, acct, "grantSessionKey",
		s.sessionKey, until, units(sessionValueCap, 18), targets, selectors)
	s.sendValue(ctx, fmt.Sprintf("sent the account %d ETH", accountETH), acct, units(accountETH, 18))
	s.send(ctx, fmt.Sprintf("sent the account %d USDC", accountUSDC), nil, artERC20, r.tok("USDC"), "transfer", acct, units(accountUSDC, 6))
	s.sendValue(ctx, fmt.Sprintf("sent the session key %d ETH for gas", sessionKeyETH), s.sessionKey, units(sessionKeyETH, 18))
	r.SessionKey = s.sessionKey
}

// sendValue sends value wei to to.
func (s *sender) sendValue(ctx context.Context, what string, to common.Address, value *big.Int) {
	if s.err != nil {
		return
	}
	s.step = what
	if s.sendTx(ctx, &to, value, nil) != nil {
		s.report("%s", what)
	}
}
