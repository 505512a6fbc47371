package deploy

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/chain"
)

// Liquid staking: no npm package publishes Lido's or Rocket Pool's
// bytecode, so ward's same-ABI contracts (contracts/src/Lido.sol,
// RocketPool.sol) stand in, as on the embedded dev chain.
const (
	artLido          = "ward:Lido"
	artWstETH        = "ward:WstETH"
	artLidoQueue     = "ward:WithdrawalQueueERC721"
	artRocketStorage = "ward:RocketStorage"
	artRocketSetting = "ward:RocketDAOProtocolSettingsDeposit"
	artRocketPool    = "ward:RocketDepositPool"
	artRocketRETH    = "ward:RocketTokenRETH"
)

// The key's stakes and the rewards reported on them, in whole ETH: 1.05
// ETH per stETH share (reported as a year's rewards: 5 % APR), about 1.1
// ETH per rETH.
const (
	lidoStake     = 20
	lidoRewards   = 1
	rocketDeposit = 10
	rocketRewards = 1
)

// stakingETH is what deployStaking spends, in wei.
func stakingETH() *big.Int { return units(lidoStake+lidoRewards+rocketDeposit+rocketRewards, 18) }

// deployStaking deploys Lido (stETH, wstETH, the withdrawal queue) and
// Rocket Pool (storage, deposit settings, deposit pool, rETH), stakes
// with both from the key and reports rewards so that neither exchange
// rate is one. The book names the withdrawal queue and RocketStorage,
// from which the tools find the rest.
func deployStaking(ctx context.Context, s *sender, r *Result) {
	lido := s.deploy(ctx, "Lido stETH", artLido)
	wst := s.deploy(ctx, "Lido wstETH", artWstETH, lido)
	queue := s.deploy(ctx, "Lido withdrawal queue", artLidoQueue, wst)
	s.send(ctx, "set Lido's withdrawal queue", nil, artLido, lido, "setWithdrawalQueue", queue)
	s.send(ctx, "staked with Lido", units(lidoStake, 18), artLido, lido, "submit", common.Address{})
	s.send(ctx, "reported Lido rewards", units(lidoRewards, 18), artLido, lido, "reportRewards", big.NewInt(365*24*60*60))

	storage := s.deploy(ctx, "RocketStorage", artRocketStorage)
	settings := s.deploy(ctx, "Rocket Pool deposit settings", artRocketSetting)
	pool := s.deploy(ctx, "Rocket Pool deposit pool", artRocketPool, storage)
	reth := s.deploy(ctx, "Rocket Pool rETH", artRocketRETH, storage)
	for _, c := range []struct {
		name string
		at   common.Address
	}{{"rocketDAOProtocolSettingsDeposit", settings}, {"rocketDepositPool", pool}, {"rocketTokenRETH", reth}} {
		s.send(ctx, "registered "+c.name+" in RocketStorage", nil, artRocketStorage, storage, "setAddress", chain.RocketContractKey(c.name), c.at)
	}
	s.send(ctx, "deposited with Rocket Pool", units(rocketDeposit, 18), artRocketPool, pool, "deposit")
	s.send(ctx, "reported Rocket Pool rewards", units(rocketRewards, 18), artRocketRETH, reth, "depositRewards")
	r.addContract(addrbook.LidoWithdrawalQueue, queue)
	r.addContract(addrbook.RocketPoolStorage, storage)
}
