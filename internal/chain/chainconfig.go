package chain

import (
	"math/big"

	"github.com/ethereum/go-ethereum/params"
)

// DevChainID is the chain ID of the in-process dev chain.
const DevChainID = 1337

// ChainConfigFor returns the protocol rules the simulator applies on chain
// id: go-ethereum's own configuration for mainnet, Sepolia, Holesky, Hoodi
// and the dev chain (1337); for any other chain, every fork up to Prague
// active from genesis, which is what current L2s run. Set
// ProviderConfig.ChainConfig when a chain needs exact rules.
func ChainConfigFor(id uint64) *params.ChainConfig {
	switch id {
	case 1:
		return params.MainnetChainConfig
	case 11155111:
		return params.SepoliaChainConfig
	case 17000:
		return params.HoleskyChainConfig
	case 560048:
		return params.HoodiChainConfig
	case DevChainID:
		return params.AllDevChainProtocolChanges
	}
	c := *params.AllDevChainProtocolChanges
	c.ChainID = new(big.Int).SetUint64(id)
	c.OsakaTime = nil
	c.BlobScheduleConfig = &params.BlobScheduleConfig{
		Cancun: params.DefaultCancunBlobConfig,
		Prague: params.DefaultPragueBlobConfig,
	}
	return &c
}
