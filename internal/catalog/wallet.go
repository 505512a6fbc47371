package catalog

import (
	"context"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

var walletStatus = native.ReadTool{
	Name: "wallet_get_status",
	Description: "Get the state of the agent's own wallet: its address, the chain it sends on, its native ETH balance, its next nonce " +
		"(counting pending transactions) and whether it holds enough ETH to pay for a simple transaction at the current gas price. " +
		"Use it first when you need the wallet's address or to check the wallet can pay for gas. Does not list token balances " +
		"(use data_get_token_balances) or value them (use data_get_portfolio_snapshot). Only available when a wallet is configured.",
	Category: tool.CatWallet, Budget: tool.Fast,
	Steps:   []string{"Reading the wallet's account", "Reading the gas price"},
	Snippet: "wallet_get_status: the agent wallet's address, ETH balance, nonce and chain.",
	Result: []string{native.RProp("address", "string", "The wallet's address"), native.RProp("chain_id", "integer", "Chain it sends on"),
		native.RProp("balance_wei", "string", "ETH balance in wei"), native.RProp("balance_eth", "string", "ETH balance"),
		native.RProp("nonce", "integer", "Next nonce"), native.RProp("can_pay_gas", "boolean", "Enough ETH for a 100k-gas transaction at the current max fee")},
	Action: "wallet",
	Wallet: true,
	Run:    readWalletStatus,
}

type walletStatusOut struct {
	Address    string `json:"address"`
	ChainID    uint64 `json:"chain_id"`
	Chain      string `json:"chain"`
	Block      uint64 `json:"block_number"`
	BalanceWei string `json:"balance_wei"`
	BalanceETH string `json:"balance_eth"`
	Nonce      uint64 `json:"nonce"`
	CanPayGas  bool   `json:"can_pay_gas"`
	KnownToken int    `json:"known_tokens"`
}

// typicalGas is the gas of a typical DeFi transaction, for "can the
// wallet pay for gas".
const typicalGas = 100_000

func readWalletStatus(ctx context.Context, env *Env, in *registry.Input) (any, error) {
	addr := env.Wallet.Address()
	in.Step(0)
	bal, err := env.Chain.BalanceOf(ctx, addr)
	if err != nil {
		return nil, err
	}
	nonce, err := env.Chain.Nonce(ctx, addr)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	q, err := quoteGas(ctx, env)
	if err != nil {
		return nil, err
	}
	need := mulUint(q.max, typicalGas)
	gasBal := bal
	if payer := env.Wallet.KeyAddress(); payer != addr { // a Safe's owner key pays execTransaction's gas
		if gasBal, err = env.Chain.BalanceOf(ctx, payer); err != nil {
			return nil, err
		}
	}
	return walletStatusOut{
		Address: addr.Hex(), ChainID: env.Chain.ChainID(), Chain: chainName(env.Chain.ChainID()), Block: q.block,
		BalanceWei: bal.String(), BalanceETH: native.FormatUnits(bal, 18), Nonce: nonce,
		CanPayGas: gasBal.Cmp(need) >= 0, KnownToken: len(env.KnownTokens()),
	}, nil
}
