package deploy

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/pelletier/go-toml/v2"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/tool"
)

// Book returns the address book of the deployment in the operator
// override form: one chain with the test tokens (with their feeds) and the
// protocol contracts by role.
func (r *Result) Book() addrbook.Overrides {
	c := &addrbook.Chain{
		ID:           r.ChainID,
		Name:         fmt.Sprintf("dev node %d", r.ChainID),
		NativeSymbol: "ETH",
	}
	for _, t := range r.Tokens {
		c.Tokens = append(c.Tokens, addrbook.Token{
			Address: addr(t.Address), Symbol: t.Symbol, Name: t.Name, Decimals: t.Decimals,
			USDFeed: addr(t.Feed), WrappedNative: t.WrappedNative,
		})
	}
	for _, k := range r.Contracts {
		c.Contracts = append(c.Contracts, addrbook.Contract{Role: k.Role, Address: addr(k.Address)})
	}
	return addrbook.Overrides{Chains: []*addrbook.Chain{c}}
}

func addr(a common.Address) tool.Address { return tool.Address(a) }

// TOML returns the book as TOML ([[chain]] with [[chain.tokens]] and
// [[chain.contracts]]), after a comment naming the pools and the key that
// holds the tokens and positions. The book is checked first: it must
// apply over the shipped book (no address with two roles).
func (r *Result) TOML() ([]byte, error) {
	o := r.Book()
	if _, err := addrbook.Shipped().With(o); err != nil {
		return nil, fmt.Errorf("address book of the deployment: %w", err)
	}
	body, err := toml.Marshal(o)
	if err != nil {
		return nil, fmt.Errorf("address book of the deployment: %w", err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Address book of a development node (chain %d), written by ward chain deploy.\n", r.ChainID)
	fmt.Fprintf(&b, "# Deployed by %s, which holds the test tokens, the pool positions and the Aave supply.\n", r.Deployer.Hex())
	b.WriteString("# Pools with liquidity:\n")
	for _, p := range r.Pools {
		fmt.Fprintf(&b, "#   %s %s fee %d: %s\n", p.Protocol, strings.Join(p.Tokens[:], "/"), p.Fee, p.Address.Hex())
	}
	if r.Account != (common.Address{}) {
		fmt.Fprintf(&b, "# ERC-4337 account %s (owner %s) at EntryPoint %s", r.Account.Hex(), r.Deployer.Hex(), r.EntryPoint.Hex())
		if r.SessionKey != (common.Address{}) {
			fmt.Fprintf(&b, ", session key %s:\n#   wallet_kind = \"erc4337\", account_address = %q, entry_point = %q", r.SessionKey.Hex(), r.Account.Hex(), r.EntryPoint.Hex())
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	b.Write(body)
	return b.Bytes(), nil
}
