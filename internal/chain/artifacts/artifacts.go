// Package artifacts embeds the compiled contracts of ward's dev chain: ERC20Permit, WETH9,
// PriceFeed, the Uniswap V2 and V3 style exchanges, ERC4626Vault, the Aave V3 style Pool, and
// Lido and Rocket Pool's liquid staking.
// Their external interfaces match the mainnet protocols' so tools written against mainnet ABIs
// work on the dev chain; contracts/README.md lists what each one simplifies.
//
// The JSON files are generated from contracts/src by contracts/build.mjs (see contracts/README.md)
// and must not be edited by hand. Load decodes one on each call; callers that deploy repeatedly
// should keep the Artifact. The package uses the standard library only, so importing it does not
// link an Ethereum client.
package artifacts

import (
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

//go:embed *.json
var files embed.FS

// ErrNotFound is returned by Load for a name that has no artifact.
var ErrNotFound = errors.New("artifact not found")

// Artifact is one compiled contract.
type Artifact struct {
	// Name is the Solidity contract name, e.g. "UniswapV2Router02".
	Name string
	// ABI is the contract's JSON ABI, ready for an ABI parser.
	ABI json.RawMessage
	// Bytecode is the creation code; constructor arguments are appended to it when deploying.
	Bytecode []byte
	// DeployedBytecode is the runtime code as it is stored on chain after deployment.
	DeployedBytecode []byte
}

// file is the on-disk form written by contracts/build.mjs.
type file struct {
	ContractName     string          `json:"contractName"`
	ABI              json.RawMessage `json:"abi"`
	Bytecode         string          `json:"bytecode"`
	DeployedBytecode string          `json:"deployedBytecode"`
}

// Contract is the contract the file says it holds.
func (f file) Contract() string { return f.ContractName }

// Load returns the artifact of the contract called name. It wraps ErrNotFound if there is none.
func Load(name string) (Artifact, error) {
	f, err := Read[file](files, "load artifact", name, ErrNotFound)
	if err != nil {
		return Artifact{}, err
	}
	code, err := decodeHex(f.Bytecode)
	if err != nil {
		return Artifact{}, fmt.Errorf("load artifact %q: bytecode: %w", name, err)
	}
	runtime, err := decodeHex(f.DeployedBytecode)
	if err != nil {
		return Artifact{}, fmt.Errorf("load artifact %q: deployedBytecode: %w", name, err)
	}
	return Artifact{Name: name, ABI: f.ABI, Bytecode: code, DeployedBytecode: runtime}, nil
}

// Read decodes the embedded file name.json of files into an F: the part
// of loading an artifact that Load and package published's Load share.
// name must be a plain file name and the file must name the contract
// name; a name without a file wraps notFound. Its errors begin with op
// and the quoted name.
func Read[F interface{ Contract() string }](files fs.FS, op, name string, notFound error) (F, error) {
	var f F
	if !fs.ValidPath(name) || strings.ContainsAny(name, `/\`) {
		return f, fmt.Errorf("%s %q: %w", op, name, notFound)
	}
	data, err := fs.ReadFile(files, name+".json")
	if errors.Is(err, fs.ErrNotExist) {
		return f, fmt.Errorf("%s %q: %w", op, name, notFound)
	}
	if err != nil {
		return f, fmt.Errorf("%s %q: %w", op, name, err)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("%s %q: %w", op, name, err)
	}
	if got := f.Contract(); got != name {
		return f, fmt.Errorf("%s %q: file names contract %q", op, name, got)
	}
	return f, nil
}

func decodeHex(s string) ([]byte, error) {
	s, ok := strings.CutPrefix(s, "0x")
	if !ok {
		return nil, errors.New("missing 0x prefix")
	}
	return hex.DecodeString(s)
}
