// Package identitytest is a dev chain with a minimal ERC-8004 identity
// registry on it, for the tests of identity and of what wires it (the
// ingestion pipeline's Stage 1 in daemon).
package identitytest

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"errors"
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/wardhq/ward/internal/chain"
)

// RegistryRuntime is a minimal identity registry: register() records the
// caller as holding an identity token, balanceOf(address) returns the
// number recorded for the address (0 or 1), and any other call reverts.
// Storage slot n holds the balance of address n.
//
//	00  60 00        PUSH1 0
//	02  35           CALLDATALOAD
//	03  60 e0        PUSH1 0xe0
//	05  1c           SHR               the selector
//	06  80           DUP1
//	07  63 70a08231  PUSH4 balanceOf(address)
//	0c  14           EQ
//	0d  60 1d        PUSH1 balance
//	0f  57           JUMPI
//	10  63 1aa3a008  PUSH4 register()
//	15  14           EQ
//	16  60 2a        PUSH1 register
//	18  57           JUMPI
//	19  60 00        PUSH1 0
//	1b  80           DUP1
//	1c  fd           REVERT
//	1d  5b           balance: JUMPDEST
//	1e  60 04        PUSH1 4
//	20  35           CALLDATALOAD      the address argument
//	21  54           SLOAD
//	22  60 00        PUSH1 0
//	24  52           MSTORE
//	25  60 20        PUSH1 32
//	27  60 00        PUSH1 0
//	29  f3           RETURN            one 32-byte word
//	2a  5b           register: JUMPDEST
//	2b  60 01        PUSH1 1
//	2d  33           CALLER
//	2e  55           SSTORE            storage[caller] = 1
//	2f  00           STOP
var RegistryRuntime = mustHex("6000" + "35" + "60e0" + "1c" + "80" + "6370a08231" + "14" + "601d" + "57" +
	"631aa3a008" + "14" + "602a" + "57" + "6000" + "80" + "fd" +
	"5b" + "6004" + "35" + "54" + "6000" + "52" + "6020" + "6000" + "f3" +
	"5b" + "6001" + "33" + "55" + "00")

// RevertRuntime reverts every call: PUSH1 0, DUP1, REVERT.
var RevertRuntime = mustHex("600080fd")

// ShortRuntime answers every call with one byte: PUSH1 1, PUSH1 0, RETURN.
var ShortRuntime = mustHex("60016000f3")

// registerData is the calldata of register().
var registerData = mustHex("1aa3a008")

// initCode wraps runtime in creation code that returns it:
//
//	00  60 nn  PUSH1 len(runtime)
//	02  80     DUP1
//	03  60 0b  PUSH1 11             the runtime's offset in this code
//	05  60 00  PUSH1 0
//	07  39     CODECOPY             memory[0:len] = code[11:11+len]
//	08  60 00  PUSH1 0
//	0a  f3     RETURN               memory[0:len]
func initCode(runtime []byte) []byte {
	if len(runtime) > 0xff {
		panic("runtime too long for PUSH1")
	}
	return append([]byte{0x60, byte(len(runtime)), 0x80, 0x60, 0x0b, 0x60, 0x00, 0x39, 0x60, 0x00, 0xf3}, runtime...)
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// Chain is a dev chain, closed when the test ends, with a funded
// deployer key.
type Chain struct {
	t        testing.TB
	d        *chain.DevChain
	deployer *ecdsa.PrivateKey
}

func StartChain(t testing.TB) *Chain {
	t.Helper()
	d, err := chain.StartDev(t.Context(), chain.DevConfig{Seed: "ward identity tests", AutoCommit: true})
	if err != nil {
		t.Fatalf("start dev chain: %v", err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Errorf("close dev chain: %v", err)
		}
	})
	c := &Chain{t: t, d: d}
	c.deployer = c.FundedKey()
	return c
}

// FundedKey returns a new key holding 1 ETH.
func (c *Chain) FundedKey() *ecdsa.PrivateKey {
	c.t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		c.t.Fatal(err)
	}
	if err := c.d.Fund(c.t.Context(), crypto.PubkeyToAddress(k.PublicKey), common.Address{}, big.NewInt(params.Ether)); err != nil {
		c.t.Fatalf("fund: %v", err)
	}
	return k
}

// send sends a transaction from k and waits for its successful receipt.
func (c *Chain) send(k *ecdsa.PrivateKey, to *common.Address, data []byte) *types.Receipt {
	c.t.Helper()
	ctx := c.t.Context()
	s, err := chain.NewLocalSigner(hex.EncodeToString(crypto.FromECDSA(k)))
	if err != nil {
		c.t.Fatal(err)
	}
	defer s.Close()
	p := c.d.Provider()
	nonce, err := p.Nonce(ctx, s.Address())
	if err != nil {
		c.t.Fatal(err)
	}
	head, err := p.HeaderLatest(ctx)
	if err != nil {
		c.t.Fatal(err)
	}
	id := big.NewInt(chain.DevChainID)
	tip := big.NewInt(params.GWei)
	tx, err := s.SignTx(ctx, id, types.NewTx(&types.DynamicFeeTx{ChainID: id, Nonce: nonce, GasTipCap: tip,
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip), Gas: 200_000, To: to, Data: data}))
	if err != nil {
		c.t.Fatal(err)
	}
	c.retry("send", func(ctx context.Context) error { return p.SendTransaction(ctx, tx) })
	var r *types.Receipt
	c.retry("receipt", func(ctx context.Context) (err error) {
		r, err = p.WaitReceipt(ctx, tx.Hash())
		return err
	})
	if r.Status != types.ReceiptStatusSuccessful {
		c.t.Fatalf("transaction %s failed", tx.Hash())
	}
	return r
}

// retry retries f for a few seconds. The dev node lags behind its own
// head for a moment after a block: its transaction pool may not yet see a
// funding transfer ("insufficient funds"), and it refuses receipt queries
// while its transaction indexer starts ("indexing is in progress").
func (c *Chain) retry(op string, f func(ctx context.Context) error) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), 5*time.Second)
	defer cancel()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		err := f(ctx)
		if err == nil {
			return
		}
		select {
		case <-ctx.Done():
			c.t.Fatalf("%s: %v", op, err)
		case <-tick.C:
		}
	}
}

// Deploy creates a contract with runtime code runtime.
func (c *Chain) Deploy(runtime []byte) common.Address {
	c.t.Helper()
	r := c.send(c.deployer, nil, initCode(runtime))
	code, err := c.d.Provider().Code(c.t.Context(), r.ContractAddress)
	if err != nil || !bytes.Equal(code, runtime) {
		c.t.Fatalf("code at %s = %x (%v), want %x", r.ContractAddress, code, err, runtime)
	}
	return r.ContractAddress
}

// Register registers a new funded agent key in the registry at reg.
func (c *Chain) Register(reg common.Address, k *ecdsa.PrivateKey) {
	c.t.Helper()
	c.send(k, &reg, registerData)
}

// Addr is k's address in its checksummed hex form.
func Addr(k *ecdsa.PrivateKey) string { return crypto.PubkeyToAddress(k.PublicKey).Hex() }

// CountingReader counts the calls made through it and fails them all
// while fail is set.
type CountingReader struct {
	Reader
	Calls atomic.Int32
	Codes atomic.Int32
	Fail  atomic.Bool
}

var ErrRPC = errors.New("rpc down")

func (c *CountingReader) Call(ctx context.Context, msg ethereum.CallMsg) ([]byte, error) {
	c.Calls.Add(1)
	if c.Fail.Load() {
		return nil, ErrRPC
	}
	return c.Reader.Call(ctx, msg)
}

func (c *CountingReader) Code(ctx context.Context, a common.Address) ([]byte, error) {
	c.Codes.Add(1)
	if c.Fail.Load() {
		return nil, ErrRPC
	}
	return c.Reader.Code(ctx, a)
}

// Provider is the dev chain's provider.
func (c *Chain) Provider() *chain.Provider { return c.d.Provider() }

// Reader is what a CountingReader reads through (identity.CallReader).
type Reader interface {
	Call(ctx context.Context, msg ethereum.CallMsg) ([]byte, error)
	Code(ctx context.Context, addr common.Address) ([]byte, error)
}
