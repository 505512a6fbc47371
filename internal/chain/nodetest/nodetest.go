// Package nodetest starts a development node, go-ethereum's geth in --dev
// mode, as a separate process on loopback for tests that need a real
// JSON-RPC node rather than an in-process chain: ward chain deploy, and
// ward serve talking to a node over the network.
//
// The geth binary is $WARD_GETH, else geth on PATH (.ci/run builds it
// from the go-ethereum version in go.mod). When there is none, Start skips
// the test, except under CI (CI set), where it fails it.
//
// The node mines a block as soon as a transaction arrives (--dev.period
// 0), has a 60M block gas limit, chain id 1337, and an unlocked developer
// account holding the chain's ETH; Fund sends from it. Start registers the
// node's shutdown with t.Cleanup: the process is interrupted, killed if it
// has not stopped within 10 s, and waited for.
package nodetest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/wardhq/ward/internal/testenv"
)

// EnvBinary names the environment variable holding the geth binary's path.
const EnvBinary = "WARD_GETH"

// ChainID is the chain id of geth's dev mode.
const ChainID = 1337

// startTimeout bounds waiting for the node to serve JSON-RPC.
const startTimeout = 60 * time.Second

// Node is a running geth --dev.
type Node struct {
	// URL is the node's JSON-RPC endpoint, http://127.0.0.1:PORT.
	URL string
	// Log is the file the node's output goes to.
	Log string

	rpc *rpc.Client
}

// Binary returns the geth binary's path, or "" when there is none.
func Binary() string {
	if p := os.Getenv(EnvBinary); p != "" {
		return p
	}
	p, err := exec.LookPath("geth")
	if err != nil {
		return ""
	}
	return p
}

// Start starts geth --dev on a free loopback port and waits until it
// answers eth_chainId.
func Start(t testing.TB) *Node {
	t.Helper()
	bin := Binary()
	if bin == "" {
		testenv.Missing(t, "no geth binary: set "+EnvBinary+" or put geth on PATH (`go install github.com/ethereum/go-ethereum/cmd/geth@VERSION`, VERSION as in go.mod)")
	}
	dir := t.TempDir()
	n := &Node{Log: filepath.Join(dir, "geth.log")}
	logFile, err := os.Create(n.Log)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--dev", "--dev.period", "0", "--dev.gaslimit", "60000000",
		"--datadir", filepath.Join(dir, "data"), "--ipcdisable", "--nodiscover", "--maxpeers", "0", "--port", "0",
		"--authrpc.addr", "127.0.0.1", "--authrpc.port", "0",
		"--http", "--http.addr", "127.0.0.1", "--http.port", "0", "--http.api", "eth,net,web3",
		"--verbosity", "3")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = logFile
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}

	// The reader owns stderr until the process closes it: it copies every
	// line to the log and reports the HTTP endpoint geth chose.
	endpoint := make(chan string, 1)
	var reading sync.WaitGroup
	reading.Go(func() { scanLog(stderr, logFile, endpoint) })
	var once sync.Once
	stop := func() {
		once.Do(func() {
			if n.rpc != nil {
				n.rpc.Close()
			}
			_ = cmd.Process.Signal(os.Interrupt)
			done := make(chan struct{})
			go func() { reading.Wait(); _ = cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				<-done
			}
			logFile.Close()
		})
	}
	t.Cleanup(stop)

	select {
	case addr, ok := <-endpoint:
		if !ok {
			stop()
			t.Fatalf("geth exited before serving JSON-RPC; its log:\n%s", tail(n.Log))
		}
		n.URL = "http://" + addr
	case <-time.After(startTimeout):
		stop()
		t.Fatalf("geth did not start serving JSON-RPC within %v; its log:\n%s", startTimeout, tail(n.Log))
	}
	ctx, cancel := context.WithTimeout(t.Context(), startTimeout)
	defer cancel()
	if n.rpc, err = rpc.DialContext(ctx, n.URL); err != nil {
		t.Fatalf("dial geth at %s: %v", n.URL, err)
	}
	var id hexutil.Big
	if err := n.rpc.CallContext(ctx, &id, "eth_chainId"); err != nil {
		t.Fatalf("geth at %s: eth_chainId: %v\n%s", n.URL, err, tail(n.Log))
	}
	if id.ToInt().Int64() != ChainID {
		t.Fatalf("geth --dev reports chain id %s, want %d", id.ToInt(), ChainID)
	}
	return n
}

var httpStarted = regexp.MustCompile(`HTTP server started\s+endpoint=(\S+)`)

// scanLog copies r to w line by line and sends the first HTTP endpoint
// announced on found; it closes found when r ends.
func scanLog(r io.Reader, w io.Writer, found chan<- string) {
	defer close(found)
	sent := false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(w, line)
		if m := httpStarted.FindStringSubmatch(line); m != nil && !sent {
			found <- m[1]
			sent = true
		}
	}
	_, _ = io.Copy(io.Discard, r)
}

// tail returns the last 4 KiB of the file at path.
func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	return string(b[max(0, len(b)-4096):])
}

// Fund sends wei to addr from the node's developer account and waits for
// the transaction to be mined.
func (n *Node) Fund(t testing.TB, addr common.Address, wei *big.Int) {
	t.Helper()
	n.send(t, "fund "+addr.Hex(), map[string]any{"to": addr, "value": (*hexutil.Big)(wei)})
}

// Deploy creates a contract from the node's developer account with code
// (creation code and constructor arguments) and returns its address.
func (n *Node) Deploy(t testing.TB, code []byte) common.Address {
	t.Helper()
	return n.send(t, "deploy", map[string]any{"data": hexutil.Bytes(code), "gas": hexutil.Uint64(5_000_000)})
}

// Transact sends a transaction with data to a contract from the node's
// developer account and waits for it to be mined.
func (n *Node) Transact(t testing.TB, to common.Address, data []byte) {
	t.Helper()
	n.send(t, "transact with "+to.Hex(), map[string]any{"to": to, "data": hexutil.Bytes(data), "gas": hexutil.Uint64(1_000_000)})
}

// nudgeAfter is how long send waits for a receipt before it sends
// another transaction to make the node seal a block.
const nudgeAfter = 2 * time.Second

// send sends tx from the developer account, waits for it to be mined and
// returns the contract it created, if any.
func (n *Node) send(t testing.TB, what string, tx map[string]any) common.Address {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	// eth_accounts is retried until the deadline: a loaded machine has
	// seen a reused keep-alive connection reset under it (the call is
	// idempotent; the send below is not, and is not retried).
	var accounts []common.Address
	for {
		err := n.rpc.CallContext(ctx, &accounts, "eth_accounts")
		if err == nil && len(accounts) > 0 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("geth dev account: %v (accounts %v)", err, accounts)
		case <-time.After(50 * time.Millisecond):
		}
	}
	tx["from"] = accounts[0]
	var hash common.Hash
	if err := n.rpc.CallContext(ctx, &hash, "eth_sendTransaction", tx); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	nudge := time.Now().Add(nudgeAfter)
	for {
		var r *struct {
			Status          hexutil.Uint64  `json:"status"`
			ContractAddress *common.Address `json:"contractAddress"`
		}
		// Errors are retried until the deadline: a node that has just
		// started answers "transaction indexing is in progress" for a while
		// (and for any transaction it has not mined while its chain is at
		// block 0).
		err := n.rpc.CallContext(ctx, &r, "eth_getTransactionReceipt", hash)
		if (err != nil || r == nil) && time.Now().After(nudge) {
			// geth --dev with --dev.period 0 seals a block when a
			// transaction reaches its pool; one that arrives as the node
			// starts can miss that and wait for good (CI saw a fresh
			// node's first transaction unmined for 30 s). Another
			// transaction seals a block, which takes the waiting one too.
			// The nudge is a zero-value send to itself; its failure is
			// ignored (the receipt loop decides).
			var ignored common.Hash
			_ = n.rpc.CallContext(ctx, &ignored, "eth_sendTransaction", map[string]any{"from": accounts[0], "to": accounts[0], "value": (*hexutil.Big)(new(big.Int))})
			nudge = time.Now().Add(nudgeAfter)
		}
		if err == nil && r != nil {
			if r.Status != 1 {
				t.Fatalf("%s: transaction %s failed", what, hash)
			}
			if r.ContractAddress != nil {
				return *r.ContractAddress
			}
			return common.Address{}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: no receipt for %s: %v (last error: %v)", what, hash, ctx.Err(), err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
