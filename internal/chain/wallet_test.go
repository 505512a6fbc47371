package chain

import (
	"errors"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/capability/mint"
	"github.com/wardhq/ward/internal/tool"
)

func TestWalletSendConsumesCapability(t *testing.T) {
	d, c := startDev(t)
	p, w, me := d.Provider(), d.Wallet(), d.WalletAddress()
	to := common.HexToAddress("0x000000000000000000000000000000000000beef")
	const name = "erc20_transfer_token"
	args := [32]byte{0xaa}
	txs := []tool.Tx{{To: tool.Address(c.USDC), Data: pack(t, ERC20ABI(), "transfer", to, units(1_000, 6)), Label: "transfer"}}

	cp := capFor(name, args)
	rs, err := w.Send(t.Context(), cp, scopeFor(name, args), txs)
	if err != nil {
		t.Fatalf("first send: %v", err)
	}
	if len(rs) != 1 || rs[0].Status != 1 {
		t.Fatalf("receipts = %+v", rs)
	}
	if rs[0].Type != 2 {
		t.Errorf("tx type = %d, want EIP-1559 (2)", rs[0].Type)
	}
	wantBig(t, "recipient USDC", tokenBalance(t, p, c.USDC, to), units(1_000, 6))
	if n := nonceOf(t, p, me); n != 1 {
		t.Fatalf("nonce after one send = %d, want 1", n)
	}

	other := [32]byte{0xbb}
	expired := mint.Capability(mint.Fields{PermitID: "old", Tool: name, ArgsHash: args, ExpiresAt: time.Now().Add(-time.Second)})
	for _, tc := range []struct {
		name  string
		cap   *capability.Capability
		scope Scope
		want  error
	}{
		{"reused", cp, scopeFor(name, args), capability.ErrConsumed},
		{"nil", nil, scopeFor(name, args), capability.ErrInvalid},
		{"zero", new(capability.Capability), scopeFor(name, args), capability.ErrInvalid},
		{"other tool", capFor("erc20_approve_token", args), scopeFor(name, args), capability.ErrScope},
		{"other args", capFor(name, other), scopeFor(name, args), capability.ErrScope},
		{"expired", expired, scopeFor(name, args), capability.ErrExpired},
		{"tick past expiry", capFor(name, args), Scope{Tool: name, ArgsHash: args, Tick: 5000, Now: time.Now()}, capability.ErrExpired},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := w.Send(t.Context(), tc.cap, tc.scope, txs)
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if rs != nil {
				t.Errorf("receipts = %v, want none", rs)
			}
			if n := nonceOf(t, p, me); n != 1 {
				t.Errorf("nonce = %d, want 1: something was sent", n)
			}
			wantBig(t, "recipient USDC", tokenBalance(t, p, c.USDC, to), units(1_000, 6))
		})
	}
}

func TestWalletSendStopsAtFirstFailure(t *testing.T) {
	d, c := startDev(t)
	p, w, me := d.Provider(), d.Wallet(), d.WalletAddress()
	in := units(1_000, 6)
	path := []common.Address{c.USDC, c.WETH}
	deadline := big.NewInt(time.Now().Add(time.Hour).Unix())
	txs := []tool.Tx{
		{To: tool.Address(c.USDC), Data: pack(t, ERC20ABI(), "approve", c.UniswapV2Router, in), Label: "approve"},
		// Asks for 1 WETH for 1,000 USDC: the router refuses.
		{To: tool.Address(c.UniswapV2Router), Data: pack(t, UniswapV2Router02ABI(), "swapExactTokensForTokens", in, units(1, 18), path, me, deadline), Label: "swap"},
		{To: tool.Address(c.USDC), Data: pack(t, ERC20ABI(), "approve", c.UniswapV2Router, big.NewInt(0)), Label: "never"},
	}
	args := [32]byte{3}
	rs, err := w.Send(t.Context(), capFor("uniswap_swap_tokens", args), scopeFor("uniswap_swap_tokens", args), txs)
	var se *SendError
	if !errors.As(err, &se) || se.Index != 1 || se.Label != "swap" || se.Hash != (common.Hash{}) {
		t.Fatalf("err = %v, want a SendError at tx 1 (swap) before broadcast", err)
	}
	var re *RevertError
	if !errors.As(err, &re) || re.Reason != "UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT" {
		t.Errorf("revert = %v, want the router's reason", err)
	}
	if len(rs) != 1 {
		t.Errorf("receipts = %d, want 1 (the approve)", len(rs))
	}
	if n := nonceOf(t, p, me); n != 1 {
		t.Errorf("nonce = %d, want 1", n)
	}
	wantBig(t, "allowance after the approve", view(t, p, c.USDC, ERC20ABI(), "allowance", me, c.UniswapV2Router)[0].(*big.Int), in)
}

func TestWalletSendHammer(t *testing.T) {
	d, c := startDev(t)
	p, w, me := d.Provider(), d.Wallet(), d.WalletAddress()
	to := common.HexToAddress("0x000000000000000000000000000000000000cafe")
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			args := [32]byte{byte(i)}
			txs := []tool.Tx{{To: tool.Address(c.USDC), Data: pack(t, ERC20ABI(), "transfer", to, units(1, 6))}}
			_, err := w.Send(t.Context(), capFor("erc20_transfer_token", args), scopeFor("erc20_transfer_token", args), txs)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := nonceOf(t, p, me); got != n {
		t.Errorf("nonce = %d, want %d", got, n)
	}
	wantBig(t, "recipient USDC", tokenBalance(t, p, c.USDC, to), units(n, 6))
}

func TestWalletSignPermit(t *testing.T) {
	d, c := startDev(t)
	p, w, me := d.Provider(), d.Wallet(), d.WalletAddress()
	spender := d.OperatorAddress()
	value, deadline := units(500, 6), big.NewInt(time.Now().Add(time.Hour).Unix())

	permit, err := w.SignPermit(t.Context(), c.USDC, spender, value, deadline)
	if err != nil {
		t.Fatalf("sign permit: %v", err)
	}
	if permit.V != 27 && permit.V != 28 || permit.Nonce.Sign() != 0 || permit.Owner != me {
		t.Errorf("permit = %+v", permit)
	}
	data, err := permit.Calldata()
	if err != nil {
		t.Fatal(err)
	}
	// Anyone may submit a permit; here the wallet does, through Send.
	args := [32]byte{9}
	if _, err := w.Send(t.Context(), capFor("erc20_permit_token", args), scopeFor("erc20_permit_token", args),
		[]tool.Tx{{To: tool.Address(c.USDC), Data: data, Label: "permit"}}); err != nil {
		t.Fatalf("submit permit: %v", err)
	}
	wantBig(t, "allowance", view(t, p, c.USDC, ERC20ABI(), "allowance", me, spender)[0].(*big.Int), value)
	wantBig(t, "nonce", view(t, p, c.USDC, ERC20ABI(), "nonces", me)[0].(*big.Int), big.NewInt(1))

	if _, err := w.SignPermit(t.Context(), c.WETH, spender, value, deadline); err == nil || !strings.Contains(err.Error(), "nonces") {
		t.Errorf("permit on WETH9 (no EIP-2612): err = %v", err)
	}
	if _, err := w.SignPermit(t.Context(), c.USDC, spender, big.NewInt(-1), deadline); err == nil {
		t.Error("negative value accepted")
	}
}

func TestBatchFailureExplained(t *testing.T) {
	d, c := startDev(t)
	b, err := newBatch(t.Context(), d, d.operator)
	if err != nil {
		t.Fatal(err)
	}
	// The operator holds far less WETH than this; the batch has no
	// estimate, so the transaction is mined and fails (status 0).
	b.call("too much", c.WETH, nil, ERC20ABI(), "transfer", d.WalletAddress(), units(1_000_000, 18))
	err = b.run(t.Context())
	var re *RevertError
	if !errors.As(err, &re) || re.Reason != "WETH: insufficient balance" {
		t.Errorf("err = %v, want the replayed revert reason", err)
	}
}

func TestNewWalletConfig(t *testing.T) {
	d, _ := startDev(t)
	if _, err := NewWallet(nil, d.Provider(), WalletConfig{}); err == nil {
		t.Error("nil signer accepted")
	}
	if _, err := NewWallet(d.walletS, d.Provider(), WalletConfig{GasMarginPercent: -1}); err == nil {
		t.Error("negative margin accepted")
	}
	args := [32]byte{}
	if _, err := d.Wallet().Send(t.Context(), capFor("x_y_z", args), scopeFor("x_y_z", args), nil); err == nil {
		t.Error("empty plan accepted")
	}
}
