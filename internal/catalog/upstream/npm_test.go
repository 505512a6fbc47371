package upstream_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain/artifacts"
)

// nodeModules is where `npm ci` in testdata/npm installs the published protocol packages.
var nodeModules = filepath.Join("..", "..", "..", "testdata", "npm", "node_modules")

// errNotInstalled reports that the npm packages are missing: the tests skip (fail under CI).
var errNotInstalled = errors.New("real protocol bytecode not installed: run `cd testdata/npm && npm ci`")

// artifact is one compiled contract as an npm package publishes it. Two layouts occur:
// hardhat's (Uniswap V3, Aave V3: "bytecode" with 0x and "linkReferences" at the top level) and
// waffle's (Uniswap V2: "evm.bytecode.object" without 0x). Library placeholders stay in code
// (hex text) until link fills them.
type artifact struct {
	path  string // relative to nodeModules
	name  string
	abi   abi.ABI
	code  string // creation code as hex, without 0x, maybe with __$...$__ placeholders
	links []libRef
}

// libRef is one library an artifact must be linked against: its source file (relative to the
// package's artifacts root), its name, and the byte offsets of its placeholders.
type libRef struct {
	source, name string
	offsets      []int
}

type linkRefs map[string]map[string][]struct {
	Start  int `json:"start"`
	Length int `json:"length"`
}

type artifactFile struct {
	ContractName   string          `json:"contractName"`
	ABI            json.RawMessage `json:"abi"`
	Bytecode       json.RawMessage `json:"bytecode"` // a string (hardhat, waffle) or an object (solc)
	LinkReferences linkRefs        `json:"linkReferences"`
	EVM            struct {
		Bytecode struct {
			Object         string   `json:"object"`
			LinkReferences linkRefs `json:"linkReferences"`
		} `json:"bytecode"`
	} `json:"evm"`
}

// loadArtifact reads the artifact at rel (relative to nodeModules). A missing file wraps
// errNotInstalled.
func loadArtifact(rel string) (*artifact, error) {
	data, err := os.ReadFile(filepath.Join(nodeModules, filepath.FromSlash(rel)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", rel, errNotInstalled)
	}
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", rel, err)
	}
	var f artifactFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("load %s: %w", rel, err)
	}
	a := &artifact{path: rel, name: f.ContractName}
	if a.name == "" {
		a.name = strings.TrimSuffix(filepath.Base(rel), ".json")
	}
	if a.abi, err = abi.JSON(bytes.NewReader(f.ABI)); err != nil {
		return nil, fmt.Errorf("load %s: abi: %w", rel, err)
	}
	refs := f.LinkReferences
	if err := json.Unmarshal(f.Bytecode, &a.code); err != nil || a.code == "" {
		a.code, refs = f.EVM.Bytecode.Object, f.EVM.Bytecode.LinkReferences
	}
	a.code = strings.TrimPrefix(a.code, "0x")
	if a.code == "" {
		return nil, fmt.Errorf("load %s: no creation code (an interface or abstract contract)", rel)
	}
	for source, libs := range refs {
		for name, places := range libs {
			ref := libRef{source: source, name: name}
			for _, p := range places {
				if p.Length != common.AddressLength {
					return nil, fmt.Errorf("load %s: link reference to %s of %d bytes", rel, name, p.Length)
				}
				ref.offsets = append(ref.offsets, p.Start)
			}
			a.links = append(a.links, ref)
		}
	}
	return a, nil
}

// link returns the creation code with each library placeholder replaced by the address addr
// gives for it. Any placeholder left over is an error (the link references did not cover it).
func (a *artifact) link(addr func(libRef) (common.Address, error)) ([]byte, error) {
	code := []byte(a.code)
	for _, ref := range a.links {
		at, err := addr(ref)
		if err != nil {
			return nil, fmt.Errorf("link %s: %w", a.name, err)
		}
		h := hex.EncodeToString(at[:])
		for _, off := range ref.offsets {
			if 2*off+len(h) > len(code) || !bytes.HasPrefix(code[2*off:], []byte("__")) {
				return nil, fmt.Errorf("link %s: no placeholder for %s at byte %d", a.name, ref.name, off)
			}
			copy(code[2*off:], h)
		}
	}
	if i := bytes.Index(code, []byte("__$")); i >= 0 {
		return nil, fmt.Errorf("link %s: unlinked placeholder %s", a.name, code[i:min(len(code), i+40)])
	}
	out, err := hex.DecodeString(string(code))
	if err != nil {
		return nil, fmt.Errorf("link %s: %w", a.name, err)
	}
	return out, nil
}

// wardArtifact adapts one of ward's own contracts (internal/chain/artifacts): the test tokens
// and price feeds, which stand in for tokens and Chainlink feeds rather than for a protocol.
func wardArtifact(name string) (*artifact, error) {
	w, err := artifacts.Load(name)
	if err != nil {
		return nil, err
	}
	parsed, err := abi.JSON(bytes.NewReader(w.ABI))
	if err != nil {
		return nil, fmt.Errorf("load %s: abi: %w", name, err)
	}
	return &artifact{path: "ward:" + name, name: name, abi: parsed, code: hex.EncodeToString(w.Bytecode)}, nil
}
