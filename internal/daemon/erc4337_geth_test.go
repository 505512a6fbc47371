package daemon

import (
	"errors"
	"fmt"
	"math/big"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/capability/mint"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/chain/artifacts"
	"github.com/wardhq/ward/internal/chain/nodetest"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/tool"
)

// TestERC4337WalletOnGeth runs ward's stack against geth --dev (a separate
// process) with wallet_kind = "erc4337": the published EntryPoint v0.7
// and ward's SessionKeyAccount are deployed on the node by an owner key
// ward does not hold, which grants ward's key a session allowing plain
// ether sends to one address. A send through the stack's wallet moves
// the account's ether (not the session key's, which pays handleOps' gas
// and is refunded from the account's deposit); a send to another address
// is refused before anything is signed. Configurations with an account
// without code, another entry point, or a key that is not a session key
// are refused at start.
func TestERC4337WalletOnGeth(t *testing.T) {
	node := nodetest.Start(t)
	ctx := t.Context()
	g := newGethWallets(t, node, big.NewInt(3e18), "7a", "7b", "7c") // owner, ward's session key, a stranger
	p, keys, files, dir := g.p, g.keys, g.files, t.TempDir()
	owner, session := keys[0], keys[1]
	send := func(to *common.Address, value *big.Int, data []byte) *types.Receipt {
		t.Helper()
		return g.send(t, owner, to, value, data)
	}
	entryPoint := send(nil, nil, creation(t, "EntryPoint")).ContractAddress
	acctArt, err := artifacts.Load("SessionKeyAccount")
	if err != nil {
		t.Fatal(err)
	}
	acctABI := chain.SessionKeyAccountABI()
	ctor, err := acctABI.Pack("", entryPoint, owner.Address())
	if err != nil {
		t.Fatal(err)
	}
	account := send(nil, nil, append(append([]byte(nil), acctArt.Bytecode...), ctor...)).ContractAddress
	to := common.HexToAddress("0x00000000000000000000000000000000000b0b37")
	head, err := p.HeaderLatest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	grant, err := acctABI.Pack("grantSessionKey", session.Address(), big.NewInt(int64(head.Time)+86400), big.NewInt(1e18),
		[]common.Address{to}, [][4]byte{{}})
	if err != nil {
		t.Fatal(err)
	}
	send(&account, nil, grant)
	deposit, _ := acctABI.Pack("addDeposit")
	send(&account, big.NewInt(5e17), deposit)
	send(&account, big.NewInt(1e18), nil)

	configFor := func(keyFile string, acct, entry common.Address) *config.File {
		t.Helper()
		f, err := config.Parse("ward.toml", fmt.Appendf(nil, "[chain]\nrpc_url = %q\nchain_id = %d\nwallet_key_file = %q\nwallet_kind = \"erc4337\"\naccount_address = %q\nentry_point = %q\n",
			node.URL, nodetest.ChainID, keyFile, acct.Hex(), entry.Hex()))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, c := range []struct {
		name        string
		key         string
		acct, entry common.Address
		want        string
	}{
		{"stranger's key", files[2], account, entryPoint, "is not a session key of account"},
		{"account without code", files[1], to, entryPoint, "has no code"},
		{"another entry point", files[1], account, account, "uses the entry point"},
	} {
		if st, err := OpenData(ctx, filepath.Join(dir, "bad"), configFor(c.key, c.acct, c.entry)); err == nil {
			st.Close()
			t.Errorf("%s: the stack started", c.name)
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}

	st, err := OpenData(ctx, filepath.Join(dir, "ward"), configFor(files[1], account, entryPoint))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.Wallet.Address() != account || st.Wallet.KeyAddress() != session.Address() {
		t.Fatalf("the stack's wallet sends from %s with key %s, want the account %s", st.Wallet.Address().Hex(), st.Wallet.KeyAddress().Hex(), account.Hex())
	}
	bal := func(a common.Address) *big.Int {
		t.Helper()
		b, err := p.BalanceOf(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	acctBefore, keyBefore := bal(account), bal(session.Address())
	sendETH := func(id string, dest common.Address) ([]*types.Receipt, error) {
		args := [32]byte{byte(len(id))}
		c := mint.Capability(mint.Fields{PermitID: id, Tool: "wallet_send_eth", ArgsHash: args, ExpiresAt: time.Now().Add(time.Minute), ExpiryTick: 10})
		return st.Wallet.Send(ctx, c, chain.Scope{Tool: "wallet_send_eth", ArgsHash: args, Tick: 1, Now: time.Now()},
			[]tool.Tx{{To: tool.Address(dest), Value: big.NewInt(1e17), Label: "send"}})
	}
	receipts, err := sendETH("permit-geth-4337", to)
	if err != nil {
		t.Fatalf("send from the account: %v", err)
	}
	if len(receipts) != 1 || receipts[0].Status != 1 {
		t.Fatalf("receipts %+v, want one handleOps", receipts)
	}
	userOpEvent, _ := chain.EntryPointABI().Event("UserOperationEvent")
	if !slices.ContainsFunc(receipts[0].Logs, func(l *types.Log) bool {
		return l.Address == entryPoint && l.Topics[0] == userOpEvent
	}) {
		t.Error("the receipt is not a handleOps with the account's UserOperationEvent")
	}
	if got := bal(to); got.Cmp(big.NewInt(1e17)) != 0 {
		t.Errorf("recipient holds %s wei, want 0.1 ETH", got)
	}
	if got := bal(account); got.Cmp(new(big.Int).Sub(acctBefore, big.NewInt(1e17))) != 0 {
		t.Errorf("account holds %s wei, want %s less 0.1 ETH", got, acctBefore)
	}
	if spent := new(big.Int).Sub(keyBefore, bal(session.Address())); spent.Cmp(big.NewInt(1e16)) > 0 {
		t.Errorf("the session key spent %s wei; it only pays gas, refunded from the deposit", spent)
	}

	other := common.HexToAddress("0x00000000000000000000000000000000000b0b38")
	nonceBefore, err := p.Nonce(ctx, session.Address())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sendETH("permit-geth-4337-out", other); !errors.Is(err, chain.ErrSessionScope) {
		t.Errorf("send outside the scope: %v, want ErrSessionScope", err)
	}
	if n, _ := p.Nonce(ctx, session.Address()); n != nonceBefore || bal(other).Sign() != 0 {
		t.Error("the refused send reached the chain")
	}
}
