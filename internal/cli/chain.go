package cli

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/chain/deploy"
	"github.com/wardhq/ward/internal/tool"
)

// dialTimeout bounds connecting to the node and reading its chain id.
const dialTimeout = 30 * time.Second

// chainDeploy deploys the protocols to a development node: it checks its
// flags, loads the key, checks --out can be written, dials the node,
// deploys, and writes the address book (or, after a partial deployment,
// lists what was deployed).
func chainDeploy(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "chain deploy", "", chainDeployDoc())
	rpcURL := fs.String("rpc", "", "JSON-RPC URL of the development node (required)")
	keyFile := fs.String("key-file", "", "file holding the deploying key, hex (required; chmod 600)")
	out := fs.String("out", "", "where to write the address book, TOML (required)")
	sessionKey := fs.String("session-key", "", "address granted a session on the deployed ERC-4337 account (optional)")
	if st, ok := parse(fs, args); !ok {
		return st
	}
	switch {
	case fs.NArg() > 0:
		return usageErr(io, "chain deploy: unexpected argument %q", fs.Arg(0))
	case *rpcURL == "":
		return usageErr(io, "chain deploy: --rpc is required")
	case *keyFile == "":
		return usageErr(io, "chain deploy: --key-file is required")
	case *out == "":
		return usageErr(io, "chain deploy: --out is required")
	}
	var session common.Address
	if *sessionKey != "" {
		a, err := tool.ParseAddress(*sessionKey)
		if err != nil || a == (tool.Address{}) {
			return usageErr(io, "chain deploy: --session-key must be a non-zero 0x address")
		}
		session = common.Address(a)
	}
	signer, err := chain.LoadLocalSigner(*keyFile)
	if err != nil {
		return fail(io, "chain deploy: %v", err)
	}
	defer signer.Close()
	// Check --out can be written before sending anything.
	tmp, err := os.CreateTemp(filepath.Dir(*out), "."+filepath.Base(*out)+".*")
	if err != nil {
		return fail(io, "chain deploy: --out: %v", err)
	}
	defer os.Remove(tmp.Name())
	tmp.Close()

	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	p, err := chain.Dial(dctx, *rpcURL, chain.ProviderConfig{})
	cancel()
	if err != nil {
		return fail(io, "chain deploy: %v", err)
	}
	defer p.Close()
	start := time.Now()
	fmt.Fprintf(io.Err, "deploying to chain %d from %s\n", p.ChainID(), signer.Address().Hex())
	r, err := deploy.Deploy(ctx, ethclient.NewClient(p.RPC()), deploy.Config{
		Signer:     signer,
		Progress:   func(line string) { fmt.Fprintln(io.Err, "  "+line) },
		SessionKey: session,
	})
	var partial *deploy.PartialError
	if errors.As(err, &partial) {
		reportPartial(io, err, p.ChainID(), partial.Done, *out)
		return exitFail
	}
	if err != nil {
		return fail(io, "chain deploy: %v (nothing was sent)", err)
	}
	if st := writeAddressBook(io, r, tmp.Name(), *out); st != exitOK {
		return st
	}
	fmt.Fprintf(io.Out, "deployed to chain %d in %d transactions (%v); address book written to %s\n",
		r.ChainID, r.Transactions, time.Since(start).Round(100*time.Millisecond), *out)
	return exitOK
}

// chainDeployDoc is chain deploy's help text.
func chainDeployDoc() string {
	return `Deploy the published protocol bytecode to a development node and write
its address book, so ward can be tried against a node of your own.

It deploys Uniswap V2 (factory, Router02), Uniswap V3 (factory,
SwapRouter, SwapRouter02, QuoterV2, NonfungiblePositionManager) and Aave V3 (addresses
provider, ACL manager, Pool, configurator, oracle, data provider) exactly
as their npm packages publish them, with WETH9 and test tokens USDC (6
decimals) and DAI with USD price feeds; V2 pairs WETH/USDC and DAI/USDC,
V3 pools WETH/USDC at 0.05 % and 0.3 % and USDC/DAI at 0.05 %, and Aave
reserves for all three, each with liquidity. The key (same format as
[chain] wallet_key_file: hex, owner-only permissions) pays for everything
and receives the tokens: it needs ` + ethNeeded() + ` ETH on the node, most of it
wrapped into WETH for the pools. Permit2 is deployed from the runtime code
@uniswap/v4-periphery ships (permit2's own test helper); the command checks
the deployed code is exactly those bytes, and leaves it out of the book on
chain id 31337 (Anvil's and Hardhat's default), where that code's cached
EIP-712 domain names another address.

It also deploys the ERC-4337 EntryPoint v0.7 (as @account-abstraction/contracts
0.7.0 publishes it) and one of ward's SessionKeyAccount contracts owned by
the key, with 1 ETH deposited for its gas. With --session-key, that address
is granted a 30-day session (transfer and approve of the test tokens, the
V2 router's swapExactTokensForTokens, at most 1 ETH a call), the account
gets 1 ETH and 10,000 USDC and the session key 1 ETH for gas; the book's
header then gives the [chain] lines of wallet_kind = "erc4337".

A chain id of a real network in ward's address book is refused. Nothing is
written to --out unless the whole deployment succeeds; if a step fails,
the command says which and lists what it had deployed. Running it again
deploys a fresh set.`
}

// reportPartial reports a deployment that failed with err after deploying
// done, and that nothing was written to out.
func reportPartial(io IO, err error, chainID uint64, done []deploy.Deployed, out string) {
	fmt.Fprintf(io.Err, "ward: chain deploy: %v\n", err)
	if len(done) > 0 {
		fmt.Fprintf(io.Err, "deployed before the failure (left on chain %d, in no address book):\n", chainID)
		for _, d := range done {
			fmt.Fprintf(io.Err, "  %-40s %s\n", d.Name, d.Address.Hex())
		}
	}
	fmt.Fprintf(io.Err, "nothing was written to %s; running the command again deploys a fresh set\n", out)
}

// writeAddressBook writes r's address book to tmp, then renames it to out.
func writeAddressBook(io IO, r *deploy.Result, tmp, out string) int {
	text, err := r.TOML()
	if err != nil {
		return fail(io, "chain deploy: %v", err)
	}
	if err := os.WriteFile(tmp, text, 0o644); err != nil {
		return fail(io, "chain deploy: write %s: %v", out, err)
	}
	if err := os.Rename(tmp, out); err != nil {
		return fail(io, "chain deploy: write %s: %v", out, err)
	}
	return exitOK
}

// ethNeeded is deploy.MinBalance in whole ETH.
func ethNeeded() string {
	return new(big.Int).Div(deploy.MinBalance(), big.NewInt(1e18)).String()
}
