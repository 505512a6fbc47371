// Package eigenlayer holds the catalogue's EigenLayer restaking tools over
// the core contracts' slashing release: depositing an ERC-20 into a
// strategy (StrategyManager.depositIntoStrategy), delegating to an
// operator (DelegationManager.delegateTo), queueing a withdrawal
// (queueWithdrawals) and completing it after the delay
// (completeQueuedWithdrawal, always as tokens to the wallet), and reading
// the wallet's shares per strategy, its operator and its queued
// withdrawals.
//
// They register only where the operator configured both managers; a call
// cannot name other managers, and deposits go only into a configured
// strategy. Delegation is a Layer3 write: once delegated, every share the
// wallet restakes backs the operator's commitments and can be slashed for
// the operator's faults, and leaving means undelegating, which queues a
// withdrawal of everything. Deposits, queueing and completing are Layer2:
// each moves an exact amount between the wallet and EigenLayer.
package eigenlayer

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// Tools are the EigenLayer tools, registered where both managers are
// configured.
func Tools() []native.Maker {
	return []native.Maker{position, withdrawals, deposit, delegate, queue, complete}
}

func configured(env *native.Env) bool {
	return env.Venues.EigenStrategyManager != (common.Address{}) && env.Venues.EigenDelegationManager != (common.Address{})
}

// maxListed bounds the withdrawals one read lists.
const maxListed = 50

var pStrategy = native.PAddress("strategy", "The EigenLayer strategy (default: the chain's configured strategy when there is exactly one; eigenlayer_get_position lists them)")

// argStrategy reads the strategy argument, which must be a configured
// strategy, or the only configured one.
func argStrategy(env *native.Env, a *native.Args) common.Address {
	list := env.Venues.EigenStrategies
	if a.Has("strategy") {
		s := a.Address("strategy")
		for _, c := range list {
			if c == s {
				return s
			}
		}
		a.Check(fmt.Errorf("strategy %s is not one of the configured EigenLayer strategies (%s)", s.Hex(), native.Hexes(list)))
		return common.Address{}
	}
	switch len(list) {
	case 0:
		a.Check(errors.New("no EigenLayer strategy is configured for this chain"))
	case 1:
		return list[0]
	default:
		a.Check(fmt.Errorf("several EigenLayer strategies are configured: pass strategy (one of %s)", native.Hexes(list)))
	}
	return common.Address{}
}

// strategy is a strategy and its underlying token.
type strategy struct {
	address common.Address
	token   native.TokenInfo
}

func readStrategy(ctx context.Context, env *native.Env, s common.Address) (strategy, error) {
	tok, err := native.CallAddress(ctx, env, chain.EigenStrategyABI(), s, "underlyingToken")
	if err != nil {
		return strategy{}, fmt.Errorf("%s is not an EigenLayer strategy: %w", s.Hex(), err)
	}
	info, err := native.TokenInfoOf(ctx, env, tok)
	if err != nil {
		return strategy{}, err
	}
	return strategy{address: s, token: info}, nil
}

// underlying is what shares of s are worth in its token now.
func underlying(ctx context.Context, env *native.Env, s common.Address, shares *big.Int) (*big.Int, error) {
	return native.CallBig(ctx, env, chain.EigenStrategyABI(), s, "sharesToUnderlyingView", shares)
}

func depositShares(ctx context.Context, env *native.Env, staker, s common.Address) (*big.Int, error) {
	return native.CallBig(ctx, env, chain.EigenStrategyManagerABI(), env.Venues.EigenStrategyManager, "stakerDepositShares", staker, s)
}

func delegatedTo(ctx context.Context, env *native.Env, staker common.Address) (common.Address, error) {
	return native.CallAddress(ctx, env, chain.EigenDelegationManagerABI(), env.Venues.EigenDelegationManager, "delegatedTo", staker)
}

var position = native.ReadTool{
	Name: "eigenlayer_get_position",
	Description: "Read an EigenLayer restaking position (default: the agent's wallet): the operator it is delegated to (none when undelegated), " +
		"and for every configured strategy its underlying token, the deposit shares held, what they are worth in the token now, and the USD value where a feed prices it. " +
		"Use before eigenlayer_deposit_strategy, eigenlayer_delegate_operator or eigenlayer_queue_withdrawal. Queued withdrawals are read by eigenlayer_get_withdrawals.",
	Category: tool.CatRestaking, Budget: tool.Medium,
	Steps:   []string{"Reading the delegation", "Reading shares per strategy"},
	Snippet: "eigenlayer_get_position reads restaked shares per strategy and the delegated operator.",
	Params:  []string{native.PAddress("staker", "Whose position (default: the agent's wallet)")},
	Result: []string{native.RProp("staker", "string", "the staker"), native.RProp("delegated_to", "string", "the operator, empty when undelegated"),
		native.RProp("is_operator", "boolean", "whether the staker is itself an operator"),
		`"strategies":{"type":"array","items":{"type":"object","properties":{"strategy":{"type":"string"},"token":` + native.RToken +
			`,"shares":{"type":"string"},"underlying":` + native.RAmount + `,"value_usd":{"type":"number"}}}}`},
	Action: "restaking_position", Venue: "eigenlayer",
	When: configured,
	Run:  readPosition,
}

type strategyOut struct {
	Strategy   string           `json:"strategy"`
	Token      native.TokenInfo `json:"token"`
	Shares     string           `json:"shares"`
	Underlying native.AmountOut `json:"underlying"`
	ValueUSD   *float64         `json:"value_usd,omitempty"`
}

func readPosition(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	staker := a.Whose(env, "staker")
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	op, err := delegatedTo(ctx, env, staker)
	if err != nil {
		return nil, fmt.Errorf("%s is not an EigenLayer DelegationManager: %w", env.Venues.EigenDelegationManager.Hex(), err)
	}
	v, err := native.Call(ctx, env.Chain, chain.EigenDelegationManagerABI(), env.Venues.EigenDelegationManager, "isOperator", staker)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	outs := []strategyOut{}
	for _, s := range env.Venues.EigenStrategies {
		st, err := readStrategy(ctx, env, s)
		if err != nil {
			return nil, err
		}
		shares, err := depositShares(ctx, env, staker, s)
		if err != nil {
			return nil, err
		}
		amt, err := underlying(ctx, env, s, shares)
		if err != nil {
			return nil, err
		}
		outs = append(outs, strategyOut{Strategy: s.Hex(), Token: st.token, Shares: shares.String(),
			Underlying: native.AmountOf(amt, st.token.Decimals), ValueUSD: native.USD(ctx, env, st.token.Address, amt)})
	}
	out := map[string]any{"staker": staker.Hex(), "delegated_to": "", "is_operator": v[0].(bool), "strategies": outs}
	if op != (common.Address{}) {
		out["delegated_to"] = op.Hex()
	}
	return out, nil
}

// withdrawal is DelegationManager.Withdrawal as the ABI decodes it.
type withdrawal struct {
	Staker       common.Address
	DelegatedTo  common.Address
	Withdrawer   common.Address
	Nonce        *big.Int
	StartBlock   uint32
	Strategies   []common.Address
	ScaledShares []*big.Int
}

// queued reads staker's queued withdrawals and the withdrawal delay.
func queued(ctx context.Context, env *native.Env, staker common.Address) ([]withdrawal, uint64, error) {
	dm, abi := env.Venues.EigenDelegationManager, chain.EigenDelegationManagerABI()
	data, err := abi.Pack("getQueuedWithdrawals", staker)
	if err != nil {
		return nil, 0, err
	}
	raw, err := env.Chain.Call(ctx, ethereum.CallMsg{To: &dm, Data: data})
	if err != nil {
		return nil, 0, fmt.Errorf("getQueuedWithdrawals at %s: %w", dm.Hex(), err)
	}
	var out struct {
		Withdrawals []withdrawal
		Shares      [][]*big.Int
	}
	if err := abi.UnpackInto(&out, "getQueuedWithdrawals", raw); err != nil {
		return nil, 0, err
	}
	v, err := native.Call(ctx, env.Chain, abi, dm, "minWithdrawalDelayBlocks")
	if err != nil {
		return nil, 0, err
	}
	delay, ok := v[0].(uint32)
	if !ok {
		return nil, 0, fmt.Errorf("minWithdrawalDelayBlocks at %s did not return a uint32", dm.Hex())
	}
	return out.Withdrawals, uint64(delay), nil
}

// root is the withdrawal's root as the DelegationManager computes it.
func root(ctx context.Context, env *native.Env, w withdrawal) (common.Hash, error) {
	v, err := native.Call(ctx, env.Chain, chain.EigenDelegationManagerABI(), env.Venues.EigenDelegationManager, "calculateWithdrawalRoot", w)
	if err != nil {
		return common.Hash{}, err
	}
	h, ok := v[0].([32]byte)
	if !ok {
		return common.Hash{}, errors.New("calculateWithdrawalRoot did not return 32 bytes")
	}
	return h, nil
}

var withdrawals = native.ReadTool{
	Name: "eigenlayer_get_withdrawals",
	Description: "Read the EigenLayer withdrawals a staker (default: the agent's wallet) has queued and not completed: each one's root, nonce, start block, " +
		"the first block it can complete in, whether it can complete now, and per strategy the shares and what they are worth in the token now. " +
		"Use to find the withdrawal_root for eigenlayer_complete_withdrawal and to see how many blocks remain. Does not read deposits (eigenlayer_get_position).",
	Category: tool.CatRestaking, Budget: tool.Medium,
	Steps:   []string{"Reading queued withdrawals"},
	Snippet: "eigenlayer_get_withdrawals lists queued EigenLayer withdrawals and when each completes.",
	Params:  []string{native.PAddress("staker", "Whose withdrawals (default: the agent's wallet)")},
	Result: []string{native.RProp("staker", "string", "the staker"), native.RProp("block", "integer", "the latest block"),
		native.RProp("delay_blocks", "integer", "the DelegationManager's withdrawal delay"),
		`"withdrawals":{"type":"array","items":{"type":"object","properties":{"withdrawal_root":{"type":"string"},"nonce":{"type":"string"},"start_block":{"type":"integer"},` +
			`"completable_from_block":{"type":"integer"},"completable":{"type":"boolean"},"delegated_to":{"type":"string"},"strategies":{"type":"array"}}}}`},
	Action: "restaking_withdrawals", Venue: "eigenlayer",
	When: configured,
	Run:  readWithdrawals,
}

type withdrawalOut struct {
	Root        string        `json:"withdrawal_root"`
	Nonce       string        `json:"nonce"`
	StartBlock  uint64        `json:"start_block"`
	From        uint64        `json:"completable_from_block"`
	Completable bool          `json:"completable"`
	DelegatedTo string        `json:"delegated_to"`
	Strategies  []strategyOut `json:"strategies"`
}

func readWithdrawals(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	staker := a.Whose(env, "staker")
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	list, delay, err := queued(ctx, env, staker)
	if err != nil {
		return nil, err
	}
	head, err := native.Head(ctx, env)
	if err != nil {
		return nil, err
	}
	outs := []withdrawalOut{}
	for _, w := range list[:min(len(list), maxListed)] {
		o, err := describe(ctx, env, w, delay, head.Number.Uint64())
		if err != nil {
			return nil, err
		}
		outs = append(outs, o)
	}
	return map[string]any{"staker": staker.Hex(), "block": head.Number.Uint64(), "delay_blocks": delay, "withdrawals": outs}, nil
}

// describe says what w is worth and when it completes: the contract allows
// it from the first block after its start block plus the delay, and ward
// calls it completable once the latest block is that block, so that a
// node estimating gas against the latest block agrees.
func describe(ctx context.Context, env *native.Env, w withdrawal, delay, head uint64) (withdrawalOut, error) {
	r, err := root(ctx, env, w)
	if err != nil {
		return withdrawalOut{}, err
	}
	from := uint64(w.StartBlock) + delay + 1
	o := withdrawalOut{Root: r.Hex(), Nonce: w.Nonce.String(), StartBlock: uint64(w.StartBlock), From: from,
		Completable: head >= from, Strategies: []strategyOut{}}
	if w.DelegatedTo != (common.Address{}) {
		o.DelegatedTo = w.DelegatedTo.Hex()
	}
	if len(w.Strategies) != len(w.ScaledShares) {
		return withdrawalOut{}, errors.New("a queued withdrawal lists strategies and shares of different lengths")
	}
	for i, s := range w.Strategies {
		st, err := readStrategy(ctx, env, s)
		if err != nil {
			return withdrawalOut{}, err
		}
		amt, err := underlying(ctx, env, s, w.ScaledShares[i])
		if err != nil {
			return withdrawalOut{}, err
		}
		o.Strategies = append(o.Strategies, strategyOut{Strategy: s.Hex(), Token: st.token, Shares: w.ScaledShares[i].String(),
			Underlying: native.AmountOf(amt, st.token.Decimals), ValueUSD: native.USD(ctx, env, st.token.Address, amt)})
	}
	return o, nil
}
