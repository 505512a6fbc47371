package lido

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// maxRequestIDs bounds the request ids one call reads or claims.
const maxRequestIDs = 50

var info = native.ReadTool{
	Name: "lido_get_staking_info",
	Description: "Describe the Lido deployment ward knows on this chain: the stETH, wstETH and withdrawal queue contracts, the ether pooled and the stETH shares " +
		"issued, the ETH one share is worth and the stETH one wstETH is worth (the exchange rates), whether staking is paused and how much may be staked now, " +
		"the withdrawal request bounds and the queue's progress (last request, last finalized request, stETH waiting). " +
		"It gives the APR of Lido's latest oracle report (the rise in ETH per share it logged, annualised over the time it covers, after Lido's fee) when one is " +
		"found in the last 20,000 blocks: a past rate, not a promise. Use it before lido_stake_eth, lido_wrap_steth or lido_request_withdrawal. " +
		"Does not average over several reports and does not show anyone's position (lido_get_position).",
	Category: tool.CatStaking, Budget: tool.Medium,
	Steps:   []string{"Reading the withdrawal queue", "Reading stETH", "Reading wstETH"},
	Snippet: "lido_get_staking_info reads Lido's pooled ether, share rate, stETH per wstETH and withdrawal queue.",
	Result: []string{
		native.RProp("steth", "string", "stETH (Lido)"), native.RProp("wsteth", "string", "wstETH"), native.RProp("withdrawal_queue", "string", "the withdrawal queue"),
		native.RAmountProp("total_pooled_ether", "ether staked with Lido (stETH's total supply)"), native.RAmountProp("total_shares", "stETH shares issued"),
		native.RProp("eth_per_share", "string", "ETH (and stETH) one share is worth"), native.RProp("steth_per_wsteth", "string", "stETH one wstETH unwraps to"),
		native.RProp("staking_paused", "boolean", "whether submit is refused"), native.RProp("stake_limit", "string", "ETH that may be staked now, or unlimited"),
		native.RAmountProp("withdrawal_min_steth", "least stETH per withdrawal request"), native.RAmountProp("withdrawal_max_steth", "most stETH per withdrawal request"),
		native.RProp("withdrawals_paused", "boolean", "whether the queue refuses requests"),
		native.RProp("last_request_id", "integer", "the newest withdrawal request"), native.RProp("last_finalized_request_id", "integer", "requests up to this id are claimable"),
		native.RAmountProp("unfinalized_steth", "stETH waiting in the queue"), native.RProp("tvl_usd", "number", "pooled ether in USD"),
		`"last_report":{"type":"object","description":"the latest oracle report in the last 20,000 blocks (absent when none)","properties":{"block":{"type":"integer"},"time_elapsed_seconds":{"type":"integer"},"apr_percent":{"type":"number","description":"stakers' APR of that report, annualised"}}}`,
	},
	Action: "staking_info", Venue: "lido", When: hasLido,
	Run: readInfo,
}

func readInfo(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	in.Step(0)
	d, err := resolve(ctx, env)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"steth": d.stETH.Hex(), "wsteth": d.wstETH.Hex(), "withdrawal_queue": d.queue.Hex()}
	for _, q := range []struct{ key, method string }{
		{"withdrawal_min_steth", "MIN_STETH_WITHDRAWAL_AMOUNT"}, {"withdrawal_max_steth", "MAX_STETH_WITHDRAWAL_AMOUNT"}, {"unfinalized_steth", "unfinalizedStETH"},
	} {
		v, err := call(ctx, env, d.queue, q.method)
		if err != nil {
			return nil, err
		}
		out[q.key] = native.Ether(v)
	}
	for _, q := range []struct{ key, method string }{{"last_request_id", "getLastRequestId"}, {"last_finalized_request_id", "getLastFinalizedRequestId"}} {
		v, err := call(ctx, env, d.queue, q.method)
		if err != nil {
			return nil, err
		}
		out[q.key] = v
	}
	if out["withdrawals_paused"], err = callBool(ctx, env, d.queue, "isPaused"); err != nil {
		return nil, err
	}
	in.Step(1)
	pooled, err := call(ctx, env, d.stETH, "getTotalPooledEther")
	if err != nil {
		return nil, err
	}
	shares, err := call(ctx, env, d.stETH, "getTotalShares")
	if err != nil {
		return nil, err
	}
	perShare, err := call(ctx, env, d.stETH, "getPooledEthByShares", native.Wad)
	if err != nil {
		return nil, err
	}
	st, err := readStakeLimit(ctx, env, d)
	if err != nil {
		return nil, err
	}
	out["total_pooled_ether"], out["total_shares"], out["eth_per_share"] = native.Ether(pooled), native.Ether(shares), native.WadString(perShare)
	out["staking_paused"], out["stake_limit"] = st.paused, st.text()
	in.Step(2)
	perToken, err := call(ctx, env, d.wstETH, "stEthPerToken")
	if err != nil {
		return nil, err
	}
	out["steth_per_wsteth"] = native.WadString(perToken)
	if r, ok := lastReport(ctx, env, d.stETH); ok {
		out["last_report"] = r
	}
	if v := native.ETHUSD(ctx, env, pooled); v != nil {
		out["tvl_usd"] = *v
	}
	return out, nil
}

// stakeLimit is whether Lido takes stakes now, and how much.
type stakeLimit struct {
	paused bool
	limit  *big.Int
}

func (s stakeLimit) text() string { return native.FormatCap(s.limit, 18) }

func readStakeLimit(ctx context.Context, env *native.Env, d deployment) (stakeLimit, error) {
	paused, err := callBool(ctx, env, d.stETH, "isStakingPaused")
	if err != nil {
		return stakeLimit{}, err
	}
	limit, err := call(ctx, env, d.stETH, "getCurrentStakeLimit")
	if err != nil {
		return stakeLimit{}, err
	}
	return stakeLimit{paused: paused, limit: limit}, nil
}

// callBool reads a single boolean from a Lido contract.
func callBool(ctx context.Context, env *native.Env, to common.Address, method string) (bool, error) {
	v, err := callAny(ctx, env, to, method)
	if err != nil {
		return false, err
	}
	b, ok := v[0].(bool)
	if !ok {
		return false, fmt.Errorf("%s at %s did not return a boolean", method, to.Hex())
	}
	return b, nil
}

var position = native.ReadTool{
	Name: "lido_get_position",
	Description: "Read an account's Lido position (default: the agent's wallet): its stETH balance and the shares behind it (stETH rebases: the balance grows " +
		"with rewards while the shares stay), its wstETH and the stETH it unwraps to, the total in stETH with its USD value, and how many withdrawal requests " +
		"it has not claimed. Use it before wrapping, unwrapping or requesting a withdrawal. Does not list the requests themselves " +
		"(lido_get_withdrawal_requests) or the protocol's totals (lido_get_staking_info).",
	Category: tool.CatStaking, Budget: tool.Medium,
	Steps:   []string{"Reading the withdrawal queue", "Reading the balances"},
	Snippet: "lido_get_position reads stETH (balance and shares) and wstETH held, and unclaimed withdrawal requests.",
	Params:  []string{native.PAddress("owner", "Whose position (default: the agent's wallet)")},
	Result: []string{native.RProp("owner", "string", "position owner"),
		native.RAmountProp("steth", "stETH balance"), native.RAmountProp("steth_shares", "stETH shares held"),
		native.RAmountProp("wsteth", "wstETH balance"), native.RAmountProp("wsteth_in_steth", "stETH the wstETH unwraps to"),
		native.RAmountProp("total_steth", "stETH plus the wstETH's stETH"), native.RProp("value_usd", "number", "total in USD at the ETH price"),
		native.RProp("open_withdrawal_requests", "integer", "withdrawal requests not yet claimed")},
	Action: "staking_position", Venue: "lido", When: hasLido,
	Run: readPosition,
}

func readPosition(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	owner := a.Whose(env, "owner")
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	d, err := resolve(ctx, env)
	if err != nil {
		return nil, err
	}
	ids, err := requestIDs(ctx, env, d, owner)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	bal, err := call(ctx, env, d.stETH, "balanceOf", owner)
	if err != nil {
		return nil, err
	}
	shares, err := call(ctx, env, d.stETH, "sharesOf", owner)
	if err != nil {
		return nil, err
	}
	wst, err := call(ctx, env, d.wstETH, "balanceOf", owner)
	if err != nil {
		return nil, err
	}
	wstIn, err := call(ctx, env, d.wstETH, "getStETHByWstETH", wst)
	if err != nil {
		return nil, err
	}
	total := new(big.Int).Add(bal, wstIn)
	out := map[string]any{"owner": owner.Hex(), "steth": native.Ether(bal), "steth_shares": native.Ether(shares), "wsteth": native.Ether(wst),
		"wsteth_in_steth": native.Ether(wstIn), "total_steth": native.Ether(total), "open_withdrawal_requests": len(ids)}
	if v := native.ETHUSD(ctx, env, total); v != nil {
		out["value_usd"] = *v
	}
	return out, nil
}

// requestIDs are owner's unclaimed withdrawal requests, ascending.
func requestIDs(ctx context.Context, env *native.Env, d deployment, owner common.Address) ([]*big.Int, error) {
	v, err := callAny(ctx, env, d.queue, "getWithdrawalRequests", owner)
	if err != nil {
		return nil, err
	}
	ids, ok := v[0].([]*big.Int)
	if !ok {
		return nil, errors.New("getWithdrawalRequests did not return request ids")
	}
	slices.SortFunc(ids, func(x, y *big.Int) int { return x.Cmp(y) })
	return ids, nil
}

var requests = native.ReadTool{
	Name: "lido_get_withdrawal_requests",
	Description: "Read Lido withdrawal requests: for each, the stETH and shares locked, its owner, when it was made, whether it is finalized and claimed, " +
		"and the ETH a claim pays now (finalized requests pay min(stETH requested, shares x the finalization's rate): rewards after the request are not paid). " +
		"Give request_ids, or an owner (default: the agent's wallet) for its unclaimed requests (the oldest 50). Use it to see whether lido_claim_withdrawal can claim. " +
		"Does not predict when a request will be finalized, and does not list requests already claimed when reading by owner.",
	Category: tool.CatStaking, Budget: tool.Medium,
	Steps:   []string{"Reading the withdrawal queue", "Reading the requests"},
	Snippet: "lido_get_withdrawal_requests reads Lido withdrawal requests: amounts, finalized, claimed, claimable ETH.",
	Params: []string{native.PAddress("owner", "Whose unclaimed requests (default: the agent's wallet); ignored with request_ids"),
		pRequestIDs("Request ids to read instead of an owner's")},
	Result: []string{native.RProp("owner", "string", "whose requests (absent with request_ids)"),
		`"requests":{"type":"array","items":{"type":"object","properties":{"request_id":{"type":"integer"},"owner":{"type":"string"},"amount_steth":` + native.RAmount +
			`,"shares":` + native.RAmount + `,"requested_at":{"type":"integer","description":"unix seconds"},"finalized":{"type":"boolean"},"claimed":{"type":"boolean"},"claimable_eth":` + native.RAmount + `}}}`,
		native.RAmountProp("total_claimable_eth", "ETH a claim of all of them pays now"),
		native.RProp("last_finalized_request_id", "integer", "requests up to this id are finalized")},
	Action: "withdrawal_status", Venue: "lido", When: hasLido,
	Run: readRequests,
}

// pRequestIDs is a list of withdrawal request ids.
func pRequestIDs(desc string) string {
	return fmt.Sprintf(`"request_ids":{"type":"array","minItems":1,"maxItems":%d,"uniqueItems":true,"items":{"type":"integer","minimum":1},"description":%q}`, maxRequestIDs, desc)
}

// argRequestIDs reads request_ids, ascending; nil when absent.
func argRequestIDs(in *registry.Input) ([]*big.Int, error) {
	v, ok := in.Args.Get("request_ids")
	if !ok {
		return nil, nil
	}
	var ids []*big.Int
	for i, e := range v.Elems() {
		n, err := e.Int()
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("request_ids[%d] must be a positive integer", i)
		}
		ids = append(ids, big.NewInt(n))
	}
	if len(ids) == 0 || len(ids) > maxRequestIDs {
		return nil, fmt.Errorf("request_ids takes 1 to %d ids", maxRequestIDs)
	}
	slices.SortFunc(ids, func(x, y *big.Int) int { return x.Cmp(y) })
	for i := 1; i < len(ids); i++ {
		if ids[i].Cmp(ids[i-1]) == 0 {
			return nil, fmt.Errorf("request_ids names request %s twice", ids[i])
		}
	}
	return ids, nil
}

// request is one withdrawal request as the queue reports it, with the ETH
// a claim pays now and the checkpoint hint the claim needs.
type request struct {
	id        *big.Int
	status    requestStatus
	claimable *big.Int
	hint      *big.Int
}

// requestStatus is WithdrawalQueueERC721's WithdrawalRequestStatus.
type requestStatus struct {
	AmountOfStETH  *big.Int
	AmountOfShares *big.Int
	Owner          common.Address
	Timestamp      *big.Int
	IsFinalized    bool
	IsClaimed      bool
}

// readQueue reads the status, hint and claimable ETH of ids (ascending,
// each an existing request: the queue reverts otherwise).
func readQueue(ctx context.Context, env *native.Env, d deployment, ids []*big.Int) ([]request, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	a, err := lidoABI()
	if err != nil {
		return nil, err
	}
	data, err := a.Pack("getWithdrawalStatus", ids)
	if err != nil {
		return nil, err
	}
	raw, err := env.Chain.Call(ctx, ethereum.CallMsg{To: &d.queue, Data: data})
	if err != nil {
		return nil, fmt.Errorf("getWithdrawalStatus: %w (is every request id an existing request?)", err)
	}
	var statuses []requestStatus
	if err := a.UnpackInto(&statuses, "getWithdrawalStatus", raw); err != nil {
		return nil, err
	}
	if len(statuses) != len(ids) {
		return nil, fmt.Errorf("getWithdrawalStatus returned %d statuses for %d requests", len(statuses), len(ids))
	}
	last, err := call(ctx, env, d.queue, "getLastCheckpointIndex")
	if err != nil {
		return nil, err
	}
	hints := make([]*big.Int, len(ids))
	for i := range hints {
		hints[i] = new(big.Int)
	}
	if last.Sign() > 0 {
		v, err := callAny(ctx, env, d.queue, "findCheckpointHints", ids, big.NewInt(1), last)
		if err != nil {
			return nil, err
		}
		h, ok := v[0].([]*big.Int)
		if !ok || len(h) != len(ids) {
			return nil, errors.New("findCheckpointHints did not return one hint per request")
		}
		hints = h
	}
	claimable := make([]*big.Int, len(ids))
	for i := range claimable {
		claimable[i] = new(big.Int)
	}
	var claimIDs, claimHints []*big.Int
	var at []int
	for i, s := range statuses {
		if s.IsFinalized && !s.IsClaimed && hints[i].Sign() > 0 {
			claimIDs, claimHints, at = append(claimIDs, ids[i]), append(claimHints, hints[i]), append(at, i)
		}
	}
	if len(claimIDs) > 0 {
		v, err := callAny(ctx, env, d.queue, "getClaimableEther", claimIDs, claimHints)
		if err != nil {
			return nil, err
		}
		c, ok := v[0].([]*big.Int)
		if !ok || len(c) != len(claimIDs) {
			return nil, errors.New("getClaimableEther did not return one amount per request")
		}
		for j, i := range at {
			claimable[i] = c[j]
		}
	}
	out := make([]request, len(ids))
	for i := range ids {
		out[i] = request{id: ids[i], status: statuses[i], claimable: claimable[i], hint: hints[i]}
	}
	return out, nil
}

type requestOut struct {
	RequestID    uint64           `json:"request_id"`
	Owner        string           `json:"owner"`
	AmountStETH  native.AmountOut `json:"amount_steth"`
	Shares       native.AmountOut `json:"shares"`
	RequestedAt  uint64           `json:"requested_at"`
	Finalized    bool             `json:"finalized"`
	Claimed      bool             `json:"claimed"`
	ClaimableETH native.AmountOut `json:"claimable_eth"`
}

func readRequests(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	ids, err := argRequestIDs(in)
	a.Check(err)
	var owner common.Address
	if ids == nil {
		owner = a.Whose(env, "owner")
	}
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	d, err := resolve(ctx, env)
	if err != nil {
		return nil, err
	}
	if ids == nil {
		if ids, err = requestIDs(ctx, env, d, owner); err != nil {
			return nil, err
		}
		if len(ids) > maxRequestIDs {
			ids = ids[:maxRequestIDs]
		}
	} else {
		last, err := call(ctx, env, d.queue, "getLastRequestId")
		if err != nil {
			return nil, err
		}
		if top := ids[len(ids)-1]; top.Cmp(last) > 0 {
			return nil, fmt.Errorf("there is no withdrawal request %s: the last one is %s", top, last)
		}
	}
	in.Step(1)
	rs, err := readQueue(ctx, env, d, ids)
	if err != nil {
		return nil, err
	}
	lastFinal, err := call(ctx, env, d.queue, "getLastFinalizedRequestId")
	if err != nil {
		return nil, err
	}
	total := new(big.Int)
	outs := []requestOut{}
	for _, r := range rs {
		total.Add(total, r.claimable)
		outs = append(outs, requestOut{RequestID: r.id.Uint64(), Owner: r.status.Owner.Hex(), AmountStETH: native.Ether(r.status.AmountOfStETH),
			Shares: native.Ether(r.status.AmountOfShares), RequestedAt: r.status.Timestamp.Uint64(), Finalized: r.status.IsFinalized,
			Claimed: r.status.IsClaimed, ClaimableETH: native.Ether(r.claimable)})
	}
	out := map[string]any{"requests": outs, "total_claimable_eth": native.Ether(total), "last_finalized_request_id": lastFinal}
	if owner != (common.Address{}) {
		out["owner"] = owner.Hex()
	}
	return out, nil
}
