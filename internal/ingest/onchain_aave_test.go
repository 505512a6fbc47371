package ingest

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/chain/deploy"
	"github.com/wardhq/ward/internal/chain/nodetest"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/validate/onchain"
)

// L3 reads an Aave V3 reserve's reserve factor and liquidation bonus as it
// reads its LTV, from the configuration of Aave's own Pool that ward chain
// deploy puts on a geth --dev node (every reserve's factor set to 10 %;
// bonuses 5 % for WETH and DAI, 4.5 % for USDC), with the same
// tolerance: within 0.005 points verified, within onchain.AaveGrossGap stale,
// beyond it false.
func TestOnChainAaveReserveFactor(t *testing.T) {
	ctx := t.Context()
	node := nodetest.Start(t)
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	signer, err := chain.NewLocalSigner(hexutil.Encode(crypto.FromECDSA(k))[2:])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { signer.Close() })
	node.Fund(t, signer.Address(), new(big.Int).Add(deploy.MinBalance(), big.NewInt(1e18)))
	ec, err := ethclient.DialContext(ctx, node.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ec.Close)
	r, err := deploy.Deploy(ctx, ec, deploy.Config{Signer: signer, ReceiptPoll: 5 * time.Millisecond})
	if err != nil {
		t.Fatalf("deploy: %v", err)
	}
	p, err := chain.Dial(ctx, node.URL, chain.ProviderConfig{ChainID: nodetest.ChainID})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	book, err := addrbook.Shipped().With(r.Book())
	if err != nil {
		t.Fatal(err)
	}
	v := OnChain(p, onchain.Config{Book: book})
	for _, tc := range []struct {
		name, content string
		want          voteWant
	}{
		{"true", "The reserve factor of WETH on Aave is 10%.", wantPass},
		{"true beside LTV", "On Aave V3, USDC has an LTV of 77% and a reserve factor of 10%.", wantPass},
		{"slightly off", "WETH on Aave V3 has a reserve factor of 15%.", wantStale},
		{"grossly off", "The reserve factor of DAI on Aave is 35%.", wantFail},
		{"no such symbol", "The reserve factor of WBTC on Aave is 35%.", wantSkip},
		{"true bonus", "The liquidation bonus of WETH on Aave is 5%.", wantPass},
		{"true bonus beside threshold", "On Aave, USDC has a liquidation threshold of 80% and a liquidation bonus of 4.5%.", wantPass},
		{"bonus grossly off", "The liquidation bonus of DAI on Aave is 25%.", wantFail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vote, err := onChainVote(t, v, tc.content)
			checkVote(t, vote, err, tc.want)
			if tc.name == "bonus grossly off" {
				if !strings.Contains(strings.Join(vote.Reasons, ";"), "liquidation bonus on chain 1337: claimed 25 %, actual 5 %") {
					t.Errorf("vote %+v, want the actual liquidation bonus", vote)
				}
				return
			}
			if tc.want == wantFail && (vote.Code != reason.KnowledgeVerifiableFalse || !strings.Contains(strings.Join(vote.Reasons, ";"), "reserve factor on chain 1337: claimed 35 %, actual 10 %")) {
				t.Errorf("vote %+v, want code %s and the actual reserve factor", vote, reason.KnowledgeVerifiableFalse)
			}
		})
	}
}
