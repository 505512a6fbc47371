package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/registry"
)

// TestConcurrentSwapsAllCommit previews swaps concurrently, each of which
// needs its own approval of the router, and commits them concurrently:
// every commit must succeed (before the fix, previews planned their
// approval against the same allowance and their commits failed each
// other with EXECUTION_FAILED).
func TestConcurrentSwapsAllCommit(t *testing.T) {
	const n = 8
	st, err := openBenchStack(t.Context(), t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := registry.New()
	for _, tl := range catalog.Tools(st.Env) {
		if err := reg.Add(tl); err != nil {
			t.Fatal(err)
		}
	}
	reg.Freeze()
	tools, view, err := benchTools(st, reg)
	if err != nil {
		t.Fatal(err)
	}
	dc := st.Dev.Contracts()
	swap := json.RawMessage(fmt.Sprintf(`{"token_in":%q,"token_out":%q,"amount_in":"1000000"}`, dc.USDC.Hex(), dc.WETH.Hex()))
	for round := range 3 {
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			name := "swapper-" + strconv.Itoa(round) + "-" + strconv.Itoa(i)
			s, err := tools.OpenSession(t.Context(), gate.Owner{PrincipalID: name, Name: name, Source: policy.Agent}, name, view)
			if err != nil {
				t.Fatal(err)
			}
			wg.Go(func() {
				pv, err := tools.Preview(t.Context(), s, "uniswap_execute_swap", swap)
				if err != nil {
					errs[i] = fmt.Errorf("preview: %w", err)
					return
				}
				if _, err := tools.Commit(t.Context(), s, gate.CommitRequest{PermitID: pv.PermitID}); err != nil {
					errs[i] = fmt.Errorf("commit: %w", err)
				}
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				detail := ""
				if r, ok := errors.AsType[*gate.Refusal](err); ok {
					detail = r.Stage + ": " + r.Detail
				}
				t.Errorf("round %d swap %d: %v (%s)", round, i, err, detail)
			}
		}
	}
}
