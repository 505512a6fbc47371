package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/tool"
)

// Chain configures one chain ward trades on ([chain], or one [[chain]]
// table of several).
type Chain struct {
	// Name is how tool calls and messages name the chain: the table's
	// name, else the address book's name for the chain id, else "dev"
	// for the embedded dev chain or "chain-<id>".
	Name string
	// RPCURL is the first of RPCURLs; empty: the embedded dev chain.
	RPCURL string
	// RPCURLs are the chain's JSON-RPC endpoints, tried in turn.
	RPCURLs       []string
	ChainID       uint64
	WalletKeyFile string
	// Wallet is what sends the chain's writes: the key of WalletKeyFile
	// itself (the zero value), or a Safe of which it is an owner.
	Wallet WalletKind
	// SafeAddress is the Safe the writes are sent from (wallet_kind =
	// "safe" with rpc_url); zero on the dev chain, where ward deploys one.
	SafeAddress tool.Address
	// AccountAddress and EntryPoint are the ERC-4337 account the writes
	// are sent from and the EntryPoint v0.7 it answers to (wallet_kind =
	// "erc4337" with rpc_url; wallet_key_file is one of its session keys);
	// zero on the dev chain, where ward deploys both.
	AccountAddress tool.Address
	EntryPoint     tool.Address
	DevSeed        string // default "ward-dev"
	// AddressBook is the file of address-book entries for this chain, as
	// written (its entries are in File.Book).
	AddressBook string
	// Price is how the chain's tokens are priced from pool TWAPs and how
	// far a feed may stray from them (twap_window,
	// max_price_deviation_bps, min_twap_liquidity_usd; zero: the strict
	// defaults).
	Price catalog.PriceConfig
}

// WalletKind is what sends a chain's writes (wallet_kind).
type WalletKind uint8

// Wallet kinds. The zero value is the plain key.
const (
	WalletKey     WalletKind = iota // "key": the key of wallet_key_file sends
	WalletSafe                      // "safe": the Safe at safe_address sends; the key is one owner
	WalletERC4337                   // "erc4337": the account at account_address sends; the key is a session key
)

// String returns the kind as wallet_kind spells it.
func (k WalletKind) String() string {
	switch k {
	case WalletKey:
		return "key"
	case WalletSafe:
		return "safe"
	case WalletERC4337:
		return "erc4337"
	}
	return fmt.Sprintf("WalletKind(%d)", uint8(k))
}

// DevChainID is the embedded dev chain's chain id.
const DevChainID = 1337

// chainTOML is one [chain] or [[chain]] table.
type chainTOML struct {
	Name                 *string             `toml:"name"`
	RPCURL               *string             `toml:"rpc_url"`
	RPCURLs              []string            `toml:"rpc_urls"`
	ChainID              *int64              `toml:"chain_id"`
	WalletKeyFile        *string             `toml:"wallet_key_file"`
	WalletKind           *string             `toml:"wallet_kind"`
	SafeAddress          *string             `toml:"safe_address"`
	AccountAddress       *string             `toml:"account_address"`
	EntryPoint           *string             `toml:"entry_point"`
	DevSeed              *string             `toml:"dev_seed"`
	AddressBook          *string             `toml:"address_book"`
	ExplorerTxURL        *string             `toml:"explorer_tx_url"`
	TWAPWindow           *string             `toml:"twap_window" shape:"duration"`
	MaxPriceDeviationBps *int64              `toml:"max_price_deviation_bps"`
	MinTWAPLiquidityUSD  *int64              `toml:"min_twap_liquidity_usd"`
	Tokens               []addrbook.Token    `toml:"tokens"`
	Contracts            []addrbook.Contract `toml:"contracts"`
}

var chainName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

// chains reads [chain] or [[chain]] into f.Chains (f.Chain is the first,
// the default of a tool call that names none) and the address book, the
// shipped one with every table's entries and address_book file over it.
func (d *sections) chains(f *File, raw *fileTOML) {
	var tables []map[string]any
	var keys []string // each table's key prefix in messages
	switch c := raw.Chain.(type) {
	case nil:
	case map[string]any:
		tables, keys = []map[string]any{c}, []string{"chain"}
	case []any:
		for i, e := range c {
			m, ok := e.(map[string]any)
			if !ok {
				d.bad(fmt.Sprintf("chain[%d]", i), "must be a table")
				return
			}
			tables, keys = append(tables, m), append(keys, fmt.Sprintf("chain[%d]", i))
		}
	default:
		d.bad("chain", "must be a table ([chain]) or tables ([[chain]])")
		return
	}
	if len(tables) == 0 {
		tables, keys = []map[string]any{{}}, []string{"chain"}
	}
	var over addrbook.Overrides
	ids, names := map[uint64]string{}, map[string]string{}
	dev := ""
	for i, m := range tables {
		key := keys[i]
		c, oc, ok := d.chain(key, m, f.Path, len(tables) > 1)
		if !ok {
			continue
		}
		if c.RPCURL == "" {
			if dev != "" {
				d.bad(key, "a second embedded dev chain (no rpc_url): %s is one already", dev)
				continue
			}
			dev = key
		}
		if prev, dup := ids[c.ChainID]; dup && c.ChainID != 0 {
			d.bad(key+".chain_id", "chain %d is configured twice (also %s)", c.ChainID, prev)
			continue
		}
		ids[c.ChainID] = key
		if oc != nil {
			over.Chains = append(over.Chains, oc)
		}
		f.Chains = append(f.Chains, c)
	}
	book, err := addrbook.Shipped().With(over)
	if err != nil {
		d.bad("chain", "%v", err)
		book = addrbook.Shipped()
	}
	f.Book = book
	for i := range f.Chains {
		c := &f.Chains[i]
		if c.Name == "" {
			switch bc, ok := book.Chain(c.ChainID); {
			case c.RPCURL == "":
				c.Name = "dev"
			case ok && bc.Name != "":
				c.Name = strings.ToLower(strings.NewReplacer(" ", "-").Replace(bc.Name))
			default:
				c.Name = fmt.Sprintf("chain-%d", c.ChainID)
			}
		}
		if prev, dup := names[c.Name]; dup {
			d.bad(keys[i]+".name", "the name %q is taken by %s", c.Name, prev)
		}
		names[c.Name] = keys[i]
	}
	if len(f.Chains) > 0 {
		f.Chain = f.Chains[0]
	} else {
		f.Chain = Chain{Name: "dev", DevSeed: "ward-dev"}
	}
}

// chain reads one table. Several tables must each name their chain id.
func (d *sections) chain(key string, m map[string]any, cfgPath string, several bool) (Chain, *addrbook.Chain, bool) {
	c := Chain{DevSeed: "ward-dev"}
	var t chainTOML
	if err := strictDecode(m, &t); err != nil {
		d.bad(key, "%v", err)
		return c, nil, false
	}
	n := len(d.diags)
	if t.Name != nil {
		if !chainName.MatchString(*t.Name) {
			d.bad(key+".name", "must be 1 to 32 lower-case letters, digits, '-' or '_', starting with a letter or digit")
		}
		c.Name = *t.Name
	}
	switch {
	case t.RPCURL != nil && len(t.RPCURLs) > 0:
		d.bad(key+".rpc_urls", "set rpc_url or rpc_urls, not both")
	case t.RPCURL != nil && *t.RPCURL != "":
		c.RPCURLs = []string{*t.RPCURL}
	default:
		c.RPCURLs = t.RPCURLs
	}
	for j, u := range c.RPCURLs {
		if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "ws://") && !strings.HasPrefix(u, "wss://") {
			k := key + ".rpc_url"
			if t.RPCURL == nil {
				k = fmt.Sprintf("%s.rpc_urls[%d]", key, j)
			}
			d.bad(k, "must be an http(s) or ws(s) URL")
		}
	}
	if len(c.RPCURLs) > 0 {
		c.RPCURL = c.RPCURLs[0]
	}
	if t.ChainID != nil {
		if *t.ChainID <= 0 {
			d.bad(key+".chain_id", "must be positive")
		}
		c.ChainID = uint64(*t.ChainID)
	}
	switch {
	case c.RPCURL == "" && c.ChainID != 0 && c.ChainID != DevChainID:
		d.bad(key+".chain_id", "without rpc_url this is the embedded dev chain, whose chain id is %d", DevChainID)
	case c.RPCURL == "":
		c.ChainID = DevChainID
	case several && c.ChainID == 0:
		d.bad(key+".chain_id", "is required when several chains are configured")
	}
	if t.WalletKeyFile != nil {
		if c.RPCURL == "" && *t.WalletKeyFile != "" {
			d.bad(key+".wallet_key_file", "needs rpc_url: the embedded dev chain has its own wallet")
		}
		c.WalletKeyFile = *t.WalletKeyFile
	}
	d.walletKind(key, t, &c)
	if t.DevSeed != nil {
		c.DevSeed = *t.DevSeed
	}
	d.price(key, t, &c.Price)
	oc := &addrbook.Chain{ID: c.ChainID, Tokens: t.Tokens, Contracts: t.Contracts}
	if t.ExplorerTxURL != nil {
		oc.ExplorerTxURL = *t.ExplorerTxURL
	}
	if t.AddressBook != nil && *t.AddressBook != "" {
		c.AddressBook = *t.AddressBook
		if err := readBookFile(resolve(cfgPath, c.AddressBook), c.ChainID, oc); err != nil {
			d.bad(key+".address_book", "%v", err)
		}
	}
	if c.ChainID == 0 { // an endpoint whose chain id is learnt at start: no entries of its own
		if len(oc.Tokens)+len(oc.Contracts) > 0 || c.AddressBook != "" {
			d.bad(key+".chain_id", "is required with address-book entries")
		}
		oc = nil
	}
	return c, oc, len(d.diags) == n
}

// price reads the pricing knobs of a chain table. A knob that is set must
// be in range: 0 is refused rather than read as "the default".
func (d *sections) price(key string, t chainTOML, into *catalog.PriceConfig) {
	if t.TWAPWindow != nil {
		v, err := time.ParseDuration(*t.TWAPWindow)
		switch {
		case err != nil:
			d.bad(key+".twap_window", "invalid duration %q (for example \"30m\")", *t.TWAPWindow)
		case v < catalog.MinTWAPWindow || v > catalog.MaxTWAPWindow || v%time.Second != 0:
			d.bad(key+".twap_window", "must be whole seconds between %s and %s (a shorter window is cheap to move with a few blocks of manipulation)", catalog.MinTWAPWindow, catalog.MaxTWAPWindow)
		default:
			into.TWAPWindow = v
		}
	}
	if t.MaxPriceDeviationBps != nil {
		if v := *t.MaxPriceDeviationBps; v < 1 || v > catalog.MaxMaxDeviationBps {
			d.bad(key+".max_price_deviation_bps", "must be between 1 and %d basis points", catalog.MaxMaxDeviationBps)
		} else {
			into.MaxDeviationBps = v
		}
	}
	if t.MinTWAPLiquidityUSD != nil {
		if v := *t.MinTWAPLiquidityUSD; v < 1 {
			d.bad(key+".min_twap_liquidity_usd", "must be a positive number of US dollars")
		} else {
			into.MinTWAPLiquidityUSD = v
		}
	}
}

// readBookFile adds the entries of an address-book file (the TOML that
// ward chain deploy writes: [[chain]] tables with [[chain.tokens]] and
// [[chain.contracts]]) for chain id to into. Entries of another chain are
// an error: a file is for the chain that names it.
func readBookFile(path string, id uint64, into *addrbook.Chain) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var o addrbook.Overrides
	if err := toml.NewDecoder(strings.NewReader(string(data))).DisallowUnknownFields().Decode(&o); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(o.Chains) == 0 {
		return fmt.Errorf("%s: no [[chain]] table", path)
	}
	for _, bc := range o.Chains {
		if bc == nil || bc.ID != id {
			got := uint64(0)
			if bc != nil {
				got = bc.ID
			}
			return fmt.Errorf("%s: entries for chain %d, but this table is chain %d", path, got, id)
		}
		into.Tokens = append(into.Tokens, bc.Tokens...)
		into.Contracts = append(into.Contracts, bc.Contracts...)
		if bc.Name != "" {
			into.Name = bc.Name
		}
		if bc.ExplorerTxURL != "" && into.ExplorerTxURL == "" {
			into.ExplorerTxURL = bc.ExplorerTxURL
		}
		if bc.NativeSymbol != "" {
			into.NativeSymbol = bc.NativeSymbol
		}
	}
	return nil
}

// resolve makes a path in the config file relative to the file's
// directory.
func resolve(cfgPath, p string) string {
	if filepath.IsAbs(p) || cfgPath == "" {
		return p
	}
	return filepath.Join(filepath.Dir(cfgPath), p)
}

// strictDecode decodes a table the first pass read loosely into v,
// refusing keys v does not have.
func strictDecode(m map[string]any, v any) error {
	b, err := toml.Marshal(m)
	if err != nil {
		return err
	}
	err = toml.NewDecoder(strings.NewReader(string(b))).DisallowUnknownFields().Decode(v)
	var sm *toml.StrictMissingError
	if errors.As(err, &sm) {
		var unknown []string
		for _, e := range sm.Errors {
			unknown = append(unknown, strings.Join(e.Key(), "."))
		}
		return fmt.Errorf("unknown key(s): %s", strings.Join(unknown, ", "))
	}
	return err
}

// walletKind reads wallet_kind and safe_address: a Safe on an endpoint
// needs its address and the owner key ward holds (wallet_key_file); on
// the dev chain ward deploys a Safe of the dev wallet's, so neither is
// given.
func (d *sections) walletKind(key string, t chainTOML, c *Chain) {
	if t.WalletKind != nil {
		switch *t.WalletKind {
		case "key":
			c.Wallet = WalletKey
		case "safe":
			c.Wallet = WalletSafe
		case "erc4337":
			c.Wallet = WalletERC4337
		default:
			d.bad(key+".wallet_kind", "must be \"key\", \"safe\" or \"erc4337\", not %q", *t.WalletKind)
			return
		}
	}
	if t.SafeAddress != nil {
		a, err := tool.ParseAddress(*t.SafeAddress)
		switch {
		case c.Wallet != WalletSafe:
			d.bad(key+".safe_address", "needs wallet_kind = \"safe\"")
			return
		case c.RPCURL == "":
			d.bad(key+".safe_address", "needs rpc_url: on the embedded dev chain ward deploys the Safe")
			return
		case err != nil || a == (tool.Address{}):
			d.bad(key+".safe_address", "must be a non-zero 0x address")
			return
		}
		c.SafeAddress = a
	}
	if c.Wallet == WalletSafe && c.RPCURL != "" {
		if c.SafeAddress == (tool.Address{}) {
			d.bad(key+".safe_address", "is required with wallet_kind = \"safe\" and rpc_url")
		}
		if c.WalletKeyFile == "" {
			d.bad(key+".wallet_key_file", "is required with wallet_kind = \"safe\": the key of the Safe's owner ward holds")
		}
	}
	d.account(key, t, c)
}

// account reads account_address and entry_point: an ERC-4337 account on
// an endpoint needs both and the session key ward holds
// (wallet_key_file); on the dev chain ward deploys the EntryPoint and an
// account, so none is given.
func (d *sections) account(key string, t chainTOML, c *Chain) {
	for _, f := range []struct {
		name string
		v    *string
		to   *tool.Address
	}{{"account_address", t.AccountAddress, &c.AccountAddress}, {"entry_point", t.EntryPoint, &c.EntryPoint}} {
		if f.v == nil {
			continue
		}
		a, err := tool.ParseAddress(*f.v)
		switch {
		case c.Wallet != WalletERC4337:
			d.bad(key+"."+f.name, "needs wallet_kind = \"erc4337\"")
			return
		case c.RPCURL == "":
			d.bad(key+"."+f.name, "needs rpc_url: on the embedded dev chain ward deploys the account and its EntryPoint")
			return
		case err != nil || a == (tool.Address{}):
			d.bad(key+"."+f.name, "must be a non-zero 0x address")
			return
		}
		*f.to = a
	}
	if c.Wallet == WalletERC4337 && c.RPCURL != "" {
		if c.AccountAddress == (tool.Address{}) {
			d.bad(key+".account_address", "is required with wallet_kind = \"erc4337\" and rpc_url")
		}
		if c.EntryPoint == (tool.Address{}) {
			d.bad(key+".entry_point", "is required with wallet_kind = \"erc4337\" and rpc_url")
		}
		if c.WalletKeyFile == "" {
			d.bad(key+".wallet_key_file", "is required with wallet_kind = \"erc4337\": the session key of the account ward holds")
		}
	}
}
