// Package published embeds the creation code and ABI of the protocol
// contracts `ward chain deploy` puts on a development node (Uniswap V2 and
// V3 with SwapRouter02, Uniswap V4's PoolManager with StateView, V4Quoter
// and the Universal Router, Aave V3, the canonical WETH9, and the Safe
// v1.4.1 singleton, proxy factory and MultiSendCallOnly the Safe signer
// executes through),
// exactly as their npm
// packages publish them: testdata/npm/published.mjs copies them out of the
// packages pinned in testdata/npm/package.json, or in published.mjs itself
// (by tarball integrity) for the packages it fetches with npm pack rather
// than installs, and CI checks the committed files are what those packages
// contain. Library placeholders stay in the code until Link
// fills them. Permit2 is published only as runtime code (the bytes
// permit2's tests etch at its canonical address); its artifact has no
// creation code, and Runtime returns the code.
//
// The package uses the standard library only, so importing it does not
// link an Ethereum client.
package published

import (
	"bytes"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/wardhq/ward/internal/chain/artifacts"
)

//go:embed *.json
var files embed.FS

// ErrNotFound is returned by Load for a name that has no artifact.
var ErrNotFound = errors.New("published artifact not found")

// ErrRuntimeOnly is returned by Link for an artifact published only as
// runtime code: there is no creation code to link.
var ErrRuntimeOnly = errors.New("published as runtime code only")

// Artifact is one published contract.
type Artifact struct {
	// Name is the Solidity contract name, e.g. "NonfungiblePositionManager".
	Name string
	// Source is the package, version and path it was copied from.
	Source string
	// ABI is the contract's JSON ABI.
	ABI json.RawMessage
	// Links are the libraries the creation code must be linked against.
	Links []Link

	code    string // creation code as hex, without 0x, with __$…$__ placeholders
	runtime string // runtime code as hex, without 0x, for a runtime-only artifact
}

// Link is one library an artifact links against: the library's contract
// name (itself a published artifact) and the byte offsets of its 20-byte
// placeholders in the creation code.
type Link struct {
	Library string `json:"library"`
	Offsets []int  `json:"offsets"`
}

type file struct {
	ContractName string          `json:"contractName"`
	Source       string          `json:"source"`
	ABI          json.RawMessage `json:"abi"`
	Bytecode     string          `json:"bytecode"`
	Deployed     string          `json:"deployedBytecode"`
	Links        []Link          `json:"links"`
}

// Contract is the contract the file says it holds.
func (f file) Contract() string { return f.ContractName }

// Load returns the artifact of the contract called name. It wraps
// ErrNotFound if there is none.
func Load(name string) (Artifact, error) {
	f, err := artifacts.Read[file](files, "load published artifact", name, ErrNotFound)
	if err != nil {
		return Artifact{}, err
	}
	a := Artifact{Name: name, Source: f.Source, ABI: f.ABI, Links: f.Links}
	switch {
	case f.Bytecode != "" && f.Deployed == "":
		a.code = f.Bytecode
	case f.Bytecode == "" && f.Deployed != "" && len(f.Links) == 0:
		a.runtime = f.Deployed
	default:
		return Artifact{}, fmt.Errorf("load published artifact %q: want either creation code or (unlinked) runtime code", name)
	}
	for _, h := range []*string{&a.code, &a.runtime} {
		if *h == "" {
			continue
		}
		code, ok := strings.CutPrefix(*h, "0x")
		if !ok || code == "" || len(code)%2 != 0 {
			return Artifact{}, fmt.Errorf("load published artifact %q: bytecode is not 0x-prefixed hex", name)
		}
		*h = code
	}
	if _, err := hex.DecodeString(a.runtime); err != nil {
		return Artifact{}, fmt.Errorf("load published artifact %q: runtime code is not hex", name)
	}
	return a, nil
}

// Runtime returns the code of an artifact published only as runtime code,
// and false for one published as creation code.
func (a Artifact) Runtime() ([]byte, bool) {
	if a.runtime == "" {
		return nil, false
	}
	b, err := hex.DecodeString(a.runtime)
	return b, err == nil // Load checked it is hex
}

// Link returns the creation code with each library's placeholders replaced
// by the address libs gives for it. A library missing from libs, or a
// placeholder the link references do not cover, is an error.
func (a Artifact) Link(libs map[string][20]byte) ([]byte, error) {
	if a.code == "" {
		return nil, fmt.Errorf("link %s: %w", a.Name, ErrRuntimeOnly)
	}
	code := []byte(a.code)
	for _, l := range a.Links {
		at, ok := libs[l.Library]
		if !ok {
			return nil, fmt.Errorf("link %s: no address for library %s", a.Name, l.Library)
		}
		h := hex.EncodeToString(at[:])
		for _, off := range l.Offsets {
			if off < 0 || 2*off+len(h) > len(code) || !bytes.HasPrefix(code[2*off:], []byte("__$")) {
				return nil, fmt.Errorf("link %s: no placeholder for %s at byte %d", a.Name, l.Library, off)
			}
			copy(code[2*off:], h)
		}
	}
	if i := bytes.Index(code, []byte("__$")); i >= 0 {
		return nil, fmt.Errorf("link %s: unlinked placeholder %s", a.Name, code[i:min(len(code), i+40)])
	}
	out, err := hex.DecodeString(string(code))
	if err != nil {
		return nil, fmt.Errorf("link %s: %w", a.Name, err)
	}
	return out, nil
}
