package onchain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/validate"
)

// The checks against a chain's contracts run in ingest's tests, on a dev
// chain with internal/chain's interfaces (ingest.OnChain); these use a
// reader that fails as told and contract interfaces that only encode.

// errReverted is the reverted-call error of the test's contracts.
var errReverted = errors.New("execution reverted")

// stubABI encodes a call as its method's name and decodes nothing.
type stubABI struct{}

func (stubABI) Pack(method string, _ ...any) ([]byte, error) { return []byte(method), nil }
func (stubABI) Unpack(method string, _ []byte) ([]any, error) {
	return nil, fmt.Errorf("stub: cannot decode %s", method)
}

var stubContracts = Contracts{ERC20: stubABI{}, Aggregator: stubABI{}, UniswapV2Pair: stubABI{}, UniswapV3Pool: stubABI{},
	AaveV3Pool: stubABI{}, Reverted: errReverted}

// checker is New with the stub contracts.
func checker(r Reader, cfg Config) *Checker {
	cfg.Contracts = stubContracts
	return New(r, cfg)
}

// voted is a Checker's vote with its code.
type voted struct {
	validate.Vote
	Code reason.Code
}

func onChainVote(t *testing.T, c *Checker, content string) (voted, error) {
	t.Helper()
	v, code, err := c.Vote(t.Context(), &knowledge.Entry{ID: "e1", Content: content})
	return voted{v, code}, err
}

type voteWant uint8

// L3 never passes: a claim that holds is reported in a skipped vote
// (wantPass), a claim without a block that does not hold at the latest
// one too (wantStale), and only a claim false at its block fails.
const (
	wantPass voteWant = iota
	wantFail
	wantSkip
	wantStale
)

func (w voteWant) String() string {
	return [...]string{"skip with verified claims", "decisive fail", "skip", "skip with a stale claim"}[w]
}

func checkVote(t *testing.T, v voted, err error, w voteWant) {
	t.Helper()
	if err != nil {
		t.Fatalf("error %v, want a %s vote", err, w)
	}
	var got voteWant
	reasons := strings.Join(v.Reasons, "; ")
	switch {
	case v.Pass:
		t.Fatalf("L3 passed (%+v): it may only skip or fail", v)
	case v.Skipped && strings.Contains(reasons, "verified: "):
		got = wantPass
	case v.Skipped && strings.Contains(reasons, "names no block"):
		got = wantStale
	case v.Skipped:
		got = wantSkip
	default:
		got = wantFail
	}
	if got != w || v.Layer != knowledge.LayerOnChain {
		t.Fatalf("vote %s (%+v), want %s from %s", got, v, w, knowledge.LayerOnChain)
	}
	switch w {
	case wantPass, wantStale, wantSkip:
		if v.Score != 0 || v.Decisive {
			t.Errorf("skipped vote with score %v, decisive %v", v.Score, v.Decisive)
		}
	case wantFail:
		if v.Score != 1 || !v.Decisive {
			t.Errorf("failing vote with score %v, decisive %v, want 1 and decisive", v.Score, v.Decisive)
		}
	}
}

// fakeReader is a Reader whose calls fail as told.
type fakeReader struct {
	head    uint64
	callErr error
	block   bool // CallAt waits for ctx to end
	calls   int
}

func (f *fakeReader) ChainID() uint64 { return 1337 }
func (f *fakeReader) HeaderLatest(context.Context) (*types.Header, error) {
	return &types.Header{Number: new(big.Int).SetUint64(f.head)}, nil
}
func (f *fakeReader) CallAt(ctx context.Context, _ ethereum.CallMsg, _ *big.Int) ([]byte, error) {
	f.calls++
	if f.block {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return nil, f.callErr
}

func TestOnChainCannotDecide(t *testing.T) {
	claim := "The ETH/USD feed 0x5f4ec3df9cbd43714fe2740f5e3616155c5b8419 reported 2,000 at block 90."
	for _, tc := range []struct {
		name     string
		r        *fakeReader
		cfg      Config
		skip     bool  // a skipped vote, not an error
		deadline error // the error must match this, if set
	}{
		{name: "rpc error", r: &fakeReader{head: 100, callErr: errors.New("connection refused")}},
		{name: "pruned state", r: &fakeReader{head: 100, callErr: errors.New("missing trie node")}},
		{name: "timeout", r: &fakeReader{head: 100, block: true}, cfg: Config{Timeout: 10 * time.Millisecond}, deadline: context.DeadlineExceeded},
		{name: "revert", r: &fakeReader{head: 100, callErr: fmt.Errorf("%w: no", errReverted)}, skip: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vote, err := onChainVote(t, checker(tc.r, tc.cfg), claim)
			switch {
			case tc.skip:
				checkVote(t, vote, err, wantSkip)
			case err == nil:
				t.Fatalf("vote %+v, want an error", vote)
			case tc.deadline != nil && !errors.Is(err, tc.deadline):
				t.Fatalf("error %v, want %v", err, tc.deadline)
			}
		})
	}
}

// At most MaxClaims claims are read.
func TestOnChainBounded(t *testing.T) {
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "Feed 0x%040x answered %d at block 5. ", i+1, i+1)
	}
	r := &fakeReader{head: 100, callErr: errReverted}
	vote, err := onChainVote(t, checker(r, Config{MaxClaims: 3}), b.String())
	checkVote(t, vote, err, wantSkip)
	if r.calls != 3 {
		t.Errorf("%d calls, want 3 (one per claim read)", r.calls)
	}
	if !strings.Contains(strings.Join(vote.Reasons, "; "), "17 claims beyond the first 3") {
		t.Errorf("reasons %q do not count the claims left unread", vote.Reasons)
	}
}

func TestOnChainNilReader(t *testing.T) {
	vote, err := onChainVote(t, checker(nil, Config{}), "Feed 0x5f4ec3df9cbd43714fe2740f5e3616155c5b8419 answered 5.")
	checkVote(t, vote, err, wantSkip)
}

// With a reader but without the contract interfaces to call it through,
// the layer does not decide; the book still does.
func TestOnChainNoContracts(t *testing.T) {
	r := &fakeReader{head: 100}
	c := New(r, Config{})
	if v, err := onChainVote(t, c, "The ETH/USD feed 0x5f4ec3df9cbd43714fe2740f5e3616155c5b8419 reported 2,000 at block 90."); err == nil {
		t.Fatalf("vote %+v without contract interfaces, want an error", v)
	}
	if r.calls != 0 {
		t.Errorf("%d calls without contract interfaces, want none", r.calls)
	}
}
