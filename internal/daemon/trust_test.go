package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/trust"
)

// The configured LLM checker is built with its key held as a tainted value
// the checker accepts; without [trust.llm] there is none.
func TestTrustCheckers(t *testing.T) {
	if c, err := trustCheckers(config.Trust{}); err != nil || c != nil {
		t.Fatalf("no llm: %v %v", c, err)
	}
	t.Setenv("WARD_TEST_LLM_KEY", "sk-test-123")
	c, err := trustCheckers(config.Trust{Judge: config.LLMChecker, LLM: config.LLM{
		Endpoint: "http://127.0.0.1:1/v1", Model: "m", APIKeyEnv: "WARD_TEST_LLM_KEY", Timeout: time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c[config.LLMChecker]; !ok {
		t.Fatalf("checkers %v lack %q", c, config.LLMChecker)
	}
}

// An agent that reads a token's third-party metadata is tainted, yet can
// still swap the allowlisted tokens: the allowlist is the owner's word, in
// the address book. A token the owner never named is held for review.
func TestTaintedAgentTradesAllowlistedTokens(t *testing.T) {
	f, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	f.Gate.AnnounceDelay = -1
	st, err := OpenData(t.Context(), t.TempDir(), f)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := st.Session("agent", policy.Agent, "dev")
	if err != nil {
		t.Fatal(err)
	}
	dc := st.Dev.Contracts()
	if _, err := st.Tools.Read(t.Context(), s, "data_get_token_info", json.RawMessage(`{"token":"`+dc.USDC.Hex()+`"}`)); err != nil {
		t.Fatal(err)
	}
	if s.Trust == nil || s.Trust.Level() != trust.Tainted {
		t.Fatal("reading token metadata did not taint the session")
	}
	swap := func(out string) error {
		_, err := st.Tools.Facade(t.Context(), s, "preview_action", json.RawMessage(fmt.Sprintf(
			`{"action_type":"swap","venue":"uniswap_v3","params":{"token_in":%q,"token_out":%q,"amount_in":"1000000"}}`, dc.USDC.Hex(), out)))
		return err
	}
	if err := swap(dc.WETH.Hex()); err != nil {
		t.Fatalf("swap of allowlisted tokens after taint: %v", err)
	}
	var rf *gate.Refusal
	if err := swap("0x9999999999999999999999999999999999999999"); !errors.As(err, &rf) || rf.Code != reason.UntrustedProvenance {
		t.Fatalf("swap into an unnamed token after taint: %v", err)
	}
}
