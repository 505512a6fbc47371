package catalog_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/tool"
)

type agentsOut struct {
	Owner  string `json:"owner"`
	Count  uint64 `json:"count"`
	Agents []struct {
		ID          uint64 `json:"agent_id"`
		Owner       string `json:"owner"`
		AgentURI    string `json:"agent_uri"`
		AgentWallet string `json:"agent_wallet"`
	} `json:"agents"`
}

type reputationOut struct {
	Count    uint64 `json:"count"`
	Average  string `json:"average"`
	Clients  int    `json:"clients"`
	Total    int    `json:"total"`
	Feedback []struct {
		Client  string `json:"client"`
		Index   uint64 `json:"index"`
		Score   string `json:"score"`
		Tag1    string `json:"tag1"`
		Tag2    string `json:"tag2"`
		Revoked bool   `json:"revoked"`
	} `json:"feedback"`
}

// receiptOf returns the mined receipt of the write's only transaction and
// checks it succeeded and emitted event from the contract at.
func (f *baseFixture) receiptOf(t *testing.T, out writeOut, at common.Address, a *chain.ABI, event string) *types.Receipt {
	t.Helper()
	if len(out.TxHashes) != 1 {
		t.Fatalf("write sent %d transactions, want 1", len(out.TxHashes))
	}
	r, err := f.env.Chain.Receipt(t.Context(), common.HexToHash(out.TxHashes[0]))
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("receipt status %d", r.Status)
	}
	id, ok := a.Event(event)
	if !ok {
		t.Fatalf("no event %s in the ABI", event)
	}
	for _, l := range r.Logs {
		if l.Address == at && len(l.Topics) > 0 && l.Topics[0] == common.Hash(id) {
			return r
		}
	}
	t.Fatalf("receipt has no %s event from %s", event, at.Hex())
	return nil
}

// TestERC8004 registers the wallet as an agent, has a second principal
// register one, gives it feedback through the gate's write path and reads
// the reputation back, checking the registries' state after each write
// and that refused calls change nothing.
func TestERC8004(t *testing.T) {
	f := base(t)
	c := f.c
	me := f.wallet()
	idABI, repABI := chain.ERC8004IdentityABI(), chain.ERC8004ReputationABI()
	held := func(t *testing.T, who common.Address) int64 {
		t.Helper()
		return f.call(t, idABI, c.IdentityRegistry, "balanceOf", who)[0].(*big.Int).Int64()
	}

	var got agentsOut
	f.read(t, "identity_get_agent", `{}`, &got)
	if got.Count != 0 || len(got.Agents) != 0 || got.Owner != me.Hex() {
		t.Fatalf("agents of a fresh wallet = %+v", got)
	}

	for _, bad := range []struct{ args, want string }{
		{`{"agent_uri":"http://ward.example/agent.json"}`, "must start with"},
		{`{"agent_uri":"https://ward.example/a b.json"}`, "printable ASCII"},
		{`{"agent_uri":"javascript:alert(1)"}`, "must start with"},
	} {
		if _, _, err := f.plan(t, "identity_register_agent", bad.args); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("register %s: %v, want an error with %q", bad.args, err, bad.want)
		}
	}
	if n := held(t, me); n != 0 {
		t.Fatalf("refused registrations left the wallet %d agents", n)
	}

	const uri = "https://ward.example/.well-known/agent-registration.json"
	var out writeOut
	p := f.commit(t, "identity_register_agent", argsOf("agent_uri", uri), &out)
	if len(p.Txs) != 1 || common.Address(p.Txs[0].To) != c.IdentityRegistry || p.ValueCents != 0 || !out.Verified {
		t.Fatalf("register plan %+v (verified %v)", p, out.Verified)
	}
	f.receiptOf(t, out, c.IdentityRegistry, idABI, "Registered")
	if n := held(t, me); n != 1 {
		t.Fatalf("wallet holds %d agents after registering, want 1", n)
	}
	mine := f.call(t, idABI, c.IdentityRegistry, "tokenOfOwnerByIndex", me, big.NewInt(0))[0].(*big.Int)
	if o := f.call(t, idABI, c.IdentityRegistry, "ownerOf", mine)[0].(common.Address); o != me {
		t.Errorf("agent %s owned by %s, want the wallet", mine, o.Hex())
	}
	if u := f.call(t, idABI, c.IdentityRegistry, "tokenURI", mine)[0].(string); u != uri {
		t.Errorf("agent URI %q, want %q", u, uri)
	}
	if w := f.call(t, idABI, c.IdentityRegistry, "getAgentWallet", mine)[0].(common.Address); w != me {
		t.Errorf("agent wallet %s, want the wallet", w.Hex())
	}
	f.read(t, "identity_get_agent", `{}`, &got)
	if got.Count != 1 || len(got.Agents) != 1 || got.Agents[0].ID != mine.Uint64() || got.Agents[0].AgentURI != uri || got.Agents[0].AgentWallet != me.Hex() {
		t.Errorf("the wallet's agents = %+v", got)
	}
	if _, _, err := f.plan(t, "identity_register_agent", argsOf("agent_uri", uri)); err == nil || !strings.Contains(err.Error(), "already owns") {
		t.Errorf("second registration: %v, want a refusal", err)
	}

	// The wallet moves its registration file.
	const moved = "ipfs://bafywardagentv2"
	if _, _, err := f.plan(t, "identity_set_agent_uri", argsOf("agent_id", mine.Int64(), "agent_uri", uri)); err == nil || !strings.Contains(err.Error(), "already points") {
		t.Errorf("setting the same URI: %v", err)
	}
	f.commit(t, "identity_set_agent_uri", argsOf("agent_id", mine.Int64(), "agent_uri", moved), &out)
	if !out.Verified {
		t.Errorf("URI change not verified: %+v", out)
	}
	f.receiptOf(t, out, c.IdentityRegistry, idABI, "URIUpdated")
	if u := f.call(t, idABI, c.IdentityRegistry, "tokenURI", mine)[0].(string); u != moved {
		t.Errorf("agent URI %q after the change, want %q", u, moved)
	}

	// Another principal registers its own agent.
	key, err := chain.NewLocalSigner(common.Bytes2Hex(crypto.Keccak256([]byte("ward identity test other agent"))))
	if err != nil {
		t.Fatal(err)
	}
	defer key.Close()
	other := key.Address()
	ow, err := chain.NewWallet(key, f.env.Chain, chain.WalletConfig{})
	if err != nil {
		t.Fatal(err)
	}
	send(t, f.env.Wallet, []tool.Tx{{To: tool.Address(other), Value: units(1, 18), Label: "gas money"}})
	send(t, ow, []tool.Tx{txOf(t, idABI, c.IdentityRegistry, "register0", "ipfs://bafyotheragent")})
	theirs := f.call(t, idABI, c.IdentityRegistry, "tokenOfOwnerByIndex", other, big.NewInt(0))[0].(*big.Int)
	f.read(t, "identity_get_agent", argsOf("agent_id", theirs.Int64()), &got)
	if len(got.Agents) != 1 || got.Agents[0].Owner != other.Hex() || got.Agents[0].AgentURI != "ipfs://bafyotheragent" {
		t.Errorf("agent %s = %+v", theirs, got)
	}

	last := func(t *testing.T) uint64 {
		t.Helper()
		return f.call(t, repABI, c.ReputationRegistry, "getLastIndex", theirs, me)[0].(uint64)
	}
	if _, _, err := f.plan(t, "identity_set_agent_uri", argsOf("agent_id", theirs.Int64(), "agent_uri", moved)); err == nil || !strings.Contains(err.Error(), "not the wallet") {
		t.Errorf("changing another owner's agent: %v", err)
	}
	for _, bad := range []struct{ args, want string }{
		{argsOf("agent_id", mine.Int64(), "score", "100"), "own"},
		{argsOf("agent_id", 1_000_000, "score", "50"), "not registered"},
		{argsOf("agent_id", theirs.Int64(), "score", "50", "feedback_hash", "0x"+strings.Repeat("ab", 32)), "feedback_uri"},
		{argsOf("agent_id", theirs.Int64(), "score", "50", "feedback_uri", "ftp://x.example/f"), "must start with"},
		{argsOf("agent_id", theirs.Int64(), "score", "2"+strings.Repeat("0", 38)), "too large"},
	} {
		if _, _, err := f.plan(t, "identity_give_feedback", bad.args); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("feedback %s: %v, want an error with %q", bad.args, err, bad.want)
		}
	}
	if n := last(t); n != 0 {
		t.Fatalf("refused feedback left %d entries", n)
	}

	p = f.commit(t, "identity_give_feedback", argsOf("agent_id", theirs.Int64(), "score", "87", "tag1", "starred",
		"endpoint", "https://other.example/a2a", "feedback_uri", "ipfs://bafyfeedback", "feedback_hash", "0x"+strings.Repeat("11", 32)), &out)
	if len(p.Txs) != 1 || common.Address(p.Txs[0].To) != c.ReputationRegistry || !out.Verified {
		t.Fatalf("feedback plan %+v", p)
	}
	f.receiptOf(t, out, c.ReputationRegistry, repABI, "NewFeedback")
	if n := last(t); n != 1 {
		t.Fatalf("last feedback index %d after giving feedback, want 1", n)
	}
	fb := f.call(t, repABI, c.ReputationRegistry, "readFeedback", theirs, me, uint64(1))
	if fb[0].(*big.Int).Int64() != 87 || fb[1].(uint8) != 0 || fb[2].(string) != "starred" || fb[3].(string) != "" || fb[4].(bool) {
		t.Errorf("feedback on chain = %v, want 87 with 0 decimals tagged starred", fb)
	}
	f.commit(t, "identity_give_feedback", argsOf("agent_id", theirs.Int64(), "score", "92.5", "tag1", "uptime", "tag2", "30d"), &out)
	fb = f.call(t, repABI, c.ReputationRegistry, "readFeedback", theirs, me, uint64(2))
	if fb[0].(*big.Int).Int64() != 925 || fb[1].(uint8) != 1 || fb[2].(string) != "uptime" || fb[3].(string) != "30d" {
		t.Errorf("second feedback on chain = %v, want 925 with 1 decimal", fb)
	}

	var rep reputationOut
	f.read(t, "identity_get_reputation", argsOf("agent_id", theirs.Int64()), &rep)
	// (87.0 + 92.5) / 2 at the larger valueDecimals (1), rounded down.
	if rep.Count != 2 || rep.Average != "89.7" || rep.Clients != 1 || rep.Total != 2 || len(rep.Feedback) != 2 ||
		rep.Feedback[0].Client != me.Hex() || rep.Feedback[0].Score != "87" || rep.Feedback[1].Score != "92.5" || rep.Feedback[1].Index != 2 {
		t.Errorf("reputation = %+v", rep)
	}
	f.read(t, "identity_get_reputation", argsOf("agent_id", theirs.Int64(), "tag1", "starred"), &rep)
	if rep.Count != 1 || rep.Average != "87" || len(rep.Feedback) != 1 || rep.Feedback[0].Tag1 != "starred" {
		t.Errorf("reputation tagged starred = %+v", rep)
	}
	f.read(t, "identity_get_reputation", argsOf("agent_id", theirs.Int64(), "limit", 1), &rep)
	if len(rep.Feedback) != 1 || rep.Feedback[0].Index != 2 || rep.Total != 2 {
		t.Errorf("reputation limited to 1 = %+v, want the newest", rep)
	}

	// The wallet revokes its first rating: it stays listed, flagged, and
	// leaves the summary.
	for _, bad := range []struct{ args, want string }{
		{argsOf("agent_id", theirs.Int64(), "feedback_index", 3), "no index 3"},
		{argsOf("agent_id", mine.Int64(), "feedback_index", 1), "no index 1"},
	} {
		if _, _, err := f.plan(t, "identity_revoke_feedback", bad.args); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("revoke %s: %v, want an error with %q", bad.args, err, bad.want)
		}
	}
	f.commit(t, "identity_revoke_feedback", argsOf("agent_id", theirs.Int64(), "feedback_index", 1), &out)
	if !out.Verified {
		t.Errorf("revocation not verified: %+v", out)
	}
	f.receiptOf(t, out, c.ReputationRegistry, repABI, "FeedbackRevoked")
	if fb := f.call(t, repABI, c.ReputationRegistry, "readFeedback", theirs, me, uint64(1)); !fb[4].(bool) {
		t.Errorf("feedback 1 not revoked on chain: %v", fb)
	}
	if _, _, err := f.plan(t, "identity_revoke_feedback", argsOf("agent_id", theirs.Int64(), "feedback_index", 1)); err == nil || !strings.Contains(err.Error(), "already revoked") {
		t.Errorf("revoking twice: %v", err)
	}
	f.read(t, "identity_get_reputation", argsOf("agent_id", theirs.Int64(), "include_revoked", true), &rep)
	if rep.Count != 1 || rep.Average != "92.5" || len(rep.Feedback) != 2 || !rep.Feedback[0].Revoked {
		t.Errorf("reputation after revoking = %+v", rep)
	}

	// The other principal rates ward's agent; ward reads its own standing.
	send(t, ow, []tool.Tx{txOf(t, repABI, c.ReputationRegistry, "giveFeedback", mine, big.NewInt(-3), uint8(0), "reachable", "", "", "", [32]byte{})})
	f.read(t, "identity_get_reputation", argsOf("agent_id", mine.Int64()), &rep)
	if rep.Count != 1 || rep.Average != "-3" || len(rep.Feedback) != 1 || rep.Feedback[0].Client != other.Hex() {
		t.Errorf("the wallet's own reputation = %+v", rep)
	}
}
