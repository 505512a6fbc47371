package deploy

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/wardhq/ward/internal/chain"
)

// Named yield vaults: no npm package publishes sDAI's, Ethena's or Yearn
// V3's bytecode, so ward's same-ABI contracts (contracts/src/SavingsDai.sol,
// StakedUSDe.sol, YearnV3Vault.sol) stand in, as on the embedded dev chain.
const (
	artPot         = "ward:Pot"
	artSavingsDai  = "ward:SavingsDai"
	artStakedUSDe  = "ward:StakedUSDeV2"
	artYearnVault  = "ward:YearnV3Vault"
	artERC4626     = "ward:ERC4626Vault"
	vaultDeposit   = 100_000 // DAI into sDAI, USDe into sUSDe, USDC into Yearn
	usdeMinted     = 1_000_000
	sdaiInterest   = 10_000 // DAI sent to sDAI to pay the savings rate
	yearnLent      = 75_000 // USDC of the Yearn deposit lent to its strategy
	yearnGain      = 750    // USDC the strategy reports as its gain
	vaultsDAIspent = vaultDeposit + sdaiInterest
)

// deployYieldVaults deploys sDAI over a Pot at chain.DevDSR, USDe (priced
// at $1) and sUSDe with chain.DevUSDeCooldown, and a Yearn V3 USDC vault
// lending part of its assets to one ERC-4626 strategy that has reported a
// gain; the key deposits into each. The book gets sDAI, USDe and sUSDe as
// tokens (the yield tools find sDAI and sUSDe by symbol); the Yearn vault
// is named by address in yearn_get_vault and the vault tools, as any
// Yearn vault is.
func deployYieldVaults(ctx context.Context, s *sender, r *Result) {
	dai, usdc := r.tok("DAI"), r.tok("USDC")
	pot := s.deploy(ctx, "Maker Pot", artPot, chain.DevDSR)
	sdai := s.deploy(ctx, "sDAI", artSavingsDai, dai, pot)
	s.send(ctx, "approved sDAI", nil, artERC20, dai, "approve", sdai, maxUint)
	s.send(ctx, fmt.Sprintf("deposited %d DAI into sDAI", vaultDeposit), nil, artSavingsDai, sdai, "deposit", units(vaultDeposit, 18), s.from)
	s.send(ctx, "sent sDAI its savings-rate reserve", nil, artERC20, dai, "transfer", sdai, units(sdaiInterest, 18))

	usde := s.deploy(ctx, "USDe (test token)", artERC20, "USDe", "USDe", uint8(18))
	usdeFeed := s.deploy(ctx, "USDe / USD feed", artFeed, uint8(8), "USDe / USD", big.NewInt(priceUSD))
	s.send(ctx, fmt.Sprintf("minted %d USDe to %s", usdeMinted, s.from.Hex()), nil, artERC20, usde, "mint", s.from, units(usdeMinted, 18))
	susde := s.deploy(ctx, "Ethena sUSDe", artStakedUSDe, usde)
	s.send(ctx, "set sUSDe's cooldown", nil, artStakedUSDe, susde, "setCooldownDuration", big.NewInt(int64(chain.DevUSDeCooldown/time.Second)))
	s.send(ctx, "approved sUSDe", nil, artERC20, usde, "approve", susde, maxUint)
	s.send(ctx, fmt.Sprintf("staked %d USDe into sUSDe", vaultDeposit), nil, artStakedUSDe, susde, "deposit", units(vaultDeposit, 18), s.from)

	yv := s.deploy(ctx, "Yearn V3 USDC vault", artYearnVault, usdc, "USDC-1 yVault", "yvUSDC-1", chain.DevYearnDepositLimit)
	strat := s.deploy(ctx, "Yearn strategy (an ERC-4626 lender)", artERC4626, usdc, "Ward USDC Lender", "wlUSDC")
	s.send(ctx, "approved the Yearn vault", nil, artERC20, usdc, "approve", yv, maxUint)
	s.send(ctx, "approved the Yearn strategy", nil, artERC20, usdc, "approve", strat, maxUint)
	s.send(ctx, "added the Yearn strategy", nil, artYearnVault, yv, "add_strategy", strat)
	s.send(ctx, "set the strategy's max debt", nil, artYearnVault, yv, "update_max_debt_for_strategy", strat, units(1_000_000, 6))
	s.send(ctx, fmt.Sprintf("deposited %d USDC into the Yearn vault", vaultDeposit), nil, artYearnVault, yv, "deposit", units(vaultDeposit, 6), s.from)
	s.send(ctx, fmt.Sprintf("lent %d USDC to the strategy", yearnLent), nil, artYearnVault, yv, "update_debt", strat, units(yearnLent, 6))
	s.send(ctx, "the strategy gained", nil, artERC4626, strat, "harvest", units(yearnGain, 6))
	s.send(ctx, "the Yearn vault took the report", nil, artYearnVault, yv, "process_report", strat)

	r.addToken(Token{Symbol: "sDAI", Name: "Savings Dai", Decimals: 18, Address: sdai})
	r.addToken(Token{Symbol: "USDe", Name: "USDe", Decimals: 18, Address: usde, Feed: usdeFeed})
	r.addToken(Token{Symbol: "sUSDe", Name: "Staked USDe", Decimals: 18, Address: susde})
}
