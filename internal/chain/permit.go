package chain

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// Permit is a signed EIP-2612 permit: owner lets spender move value of
// token until deadline, without a transaction from owner.
type Permit struct {
	Token    common.Address `json:"token"`
	Owner    common.Address `json:"owner"`
	Spender  common.Address `json:"spender"`
	Value    *big.Int       `json:"value"`
	Nonce    *big.Int       `json:"nonce"`
	Deadline *big.Int       `json:"deadline"`
	V        uint8          `json:"v"`
	R        [32]byte       `json:"r"`
	S        [32]byte       `json:"s"`
}

// Calldata returns the token's permit(owner, spender, value, deadline, v,
// r, s) call.
func (p *Permit) Calldata() ([]byte, error) {
	return ERC20ABI().Pack("permit", p.Owner, p.Spender, p.Value, p.Deadline, p.V, p.R, p.S)
}

// SignPermit signs an EIP-2612 permit for token from the wallet's address.
// It reads the token's name, the owner's nonce and DOMAIN_SEPARATOR, finds
// the domain version (EIP-5267 eip712Domain, version(), else "1" or "2")
// whose separator matches the token's, and refuses to sign when none does.
// Signing is off-chain and needs no capability, but a permit is as
// powerful as an approve: callers gate it like one.
func (w *Wallet) SignPermit(ctx context.Context, token, spender common.Address, value, deadline *big.Int) (*Permit, error) {
	if value == nil || value.Sign() < 0 || deadline == nil || deadline.Sign() < 0 {
		return nil, errors.New("sign permit: value and deadline must be non-negative")
	}
	owner := w.s.Address()
	dom, err := w.readPermitDomain(ctx, token, owner)
	if err != nil {
		return nil, err
	}
	chainID := new(big.Int).SetUint64(w.p.ChainID())
	var td apitypes.TypedData
	matched := false
	for _, v := range dom.versions {
		td = permitTypedData(dom.name, v, chainID, token, owner, spender, value, dom.nonce, deadline)
		h, err := td.HashStruct("EIP712Domain", td.Domain.Map())
		if err == nil && bytes.Equal(h, dom.sep[:]) {
			matched = true
			break
		}
	}
	if !matched {
		return nil, fmt.Errorf("sign permit: the token's DOMAIN_SEPARATOR matches no domain with name %q and versions %q", dom.name, dom.versions)
	}
	sig, err := w.signRecovering(ctx, td, owner)
	if err != nil {
		return nil, err
	}
	p := &Permit{Token: token, Owner: owner, Spender: spender, Value: new(big.Int).Set(value),
		Nonce: dom.nonce, Deadline: new(big.Int).Set(deadline), V: sig[64]}
	copy(p.R[:], sig[:32])
	copy(p.S[:], sig[32:64])
	return p, nil
}

// permitDomain is what a token says of its EIP-2612 domain: its name, the
// owner's nonce, its DOMAIN_SEPARATOR, and the versions to try in order.
type permitDomain struct {
	name     string
	nonce    *big.Int
	sep      [32]byte
	versions []string
}

// readPermitDomain reads token's permit domain for owner. Name, nonces and
// DOMAIN_SEPARATOR are required; the version comes from eip712Domain (which
// may also rename the domain), else version(), and "1" and "2" are always
// tried after it.
func (w *Wallet) readPermitDomain(ctx context.Context, token, owner common.Address) (permitDomain, error) {
	erc20 := ERC20ABI()
	call := func(method string, args ...any) ([]byte, error) {
		data, err := erc20.Pack(method, args...)
		if err != nil {
			return nil, err
		}
		return w.p.Call(ctx, ethereum.CallMsg{To: &token, Data: data})
	}
	var d permitDomain
	out, err := call("name")
	if err == nil {
		err = erc20.UnpackInto(&d.name, "name", out)
	}
	if err != nil {
		return d, fmt.Errorf("sign permit: token name: %w", err)
	}
	if out, err = call("nonces", owner); err == nil {
		err = erc20.UnpackInto(&d.nonce, "nonces", out)
	}
	if err != nil {
		return d, fmt.Errorf("sign permit: nonces (not an EIP-2612 token?): %w", err)
	}
	if out, err = call("DOMAIN_SEPARATOR"); err == nil {
		err = erc20.UnpackInto(&d.sep, "DOMAIN_SEPARATOR", out)
	}
	if err != nil {
		return d, fmt.Errorf("sign permit: DOMAIN_SEPARATOR: %w", err)
	}

	d.versions = []string{"1", "2"}
	if out, err := call("eip712Domain"); err == nil {
		if vals, err := erc20.Unpack("eip712Domain", out); err == nil && len(vals) >= 3 {
			if n, ok := vals[1].(string); ok && n != "" {
				d.name = n
			}
			if v, ok := vals[2].(string); ok {
				d.versions = append([]string{v}, d.versions...)
			}
		}
	} else if out, err := call("version"); err == nil {
		var v string
		if erc20.UnpackInto(&v, "version", out) == nil {
			d.versions = append([]string{v}, d.versions...)
		}
	}
	return d, nil
}

// signRecovering signs td and returns the 65-byte signature only if it
// recovers to owner.
func (w *Wallet) signRecovering(ctx context.Context, td apitypes.TypedData, owner common.Address) ([]byte, error) {
	sig, err := w.s.SignTypedData(ctx, td)
	if err != nil {
		return nil, fmt.Errorf("sign permit: %w", err)
	}
	if len(sig) != 65 {
		return nil, fmt.Errorf("sign permit: signature of %d bytes", len(sig))
	}
	digest, _, err := apitypes.TypedDataAndHash(td)
	if err != nil {
		return nil, fmt.Errorf("sign permit: %w", err)
	}
	rec := bytes.Clone(sig)
	rec[64] -= 27
	pub, err := crypto.SigToPub(digest, rec)
	if err != nil || crypto.PubkeyToAddress(*pub) != owner {
		return nil, errors.New("sign permit: signature does not recover to the wallet's address")
	}
	return sig, nil
}

func permitTypedData(name, version string, chainID *big.Int, token, owner, spender common.Address, value, nonce, deadline *big.Int) apitypes.TypedData {
	return apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {
				{Name: "name", Type: "string"},
				{Name: "version", Type: "string"},
				{Name: "chainId", Type: "uint256"},
				{Name: "verifyingContract", Type: "address"},
			},
			"Permit": {
				{Name: "owner", Type: "address"},
				{Name: "spender", Type: "address"},
				{Name: "value", Type: "uint256"},
				{Name: "nonce", Type: "uint256"},
				{Name: "deadline", Type: "uint256"},
			},
		},
		PrimaryType: "Permit",
		Domain: apitypes.TypedDataDomain{
			Name: name, Version: version, ChainId: (*math.HexOrDecimal256)(chainID),
			VerifyingContract: token.Hex(),
		},
		Message: apitypes.TypedDataMessage{
			"owner": owner.Hex(), "spender": spender.Hex(),
			"value": value.String(), "nonce": nonce.String(), "deadline": deadline.String(),
		},
	}
}
