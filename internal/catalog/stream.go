package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/stream"
	"github.com/wardhq/ward/internal/tool"
)

// The stream_ tools subscribe a session to a value another read tool of
// the catalogue reads (a token's feed price, a pool's state, a lending
// position's health): the subscribe call reads it once through that tool's
// handler and returns it; the hub (env.Streams) then reads it the same way
// on every interval, once for all the sessions watching it, and publishes
// each change as a subscription:update event of the session, which the API's
// event stream and MCP (notifications/message) deliver. Only the session
// that made a subscription lists or cancels it.

// streamDelivery tells the model where updates arrive.
const streamDelivery = "each change arrives as a subscription:update event of this session: over MCP as a notifications/message " +
	"(logger \"ward.stream\", after logging/setLevel), over HTTP on GET /v1/events?kinds=subscription"

// volatile are result fields that change on every read without the
// watched thing changing (a price's age): a change in them alone is no
// update. block_number is the block a read was pinned to (chain.Pin).
var volatile = []string{"age_seconds", "block_number"}

// streamed is one kind of subscription: the read tool it watches, how a
// call's arguments become that tool's and name the watched thing.
type streamed struct {
	kind   string
	source func(in *registry.Input) (string, error) // the read tool's name
	// watch returns the read tool's arguments and the watched thing's
	// target (equal for equal things).
	watch func(env *Env, in *registry.Input) (args map[string]any, target string, err error)
}

var streamInterval = native.PInt("interval_seconds", "How often ward reads the value, in seconds (default and minimum: [streaming] min_interval, 2 s unless configured)", 1, 3600)

// streamTools are the stream_ tools over the read tools in reads (the
// rest of the catalogue made for the same environment).
func streamTools(reads []registry.Tool) []native.Maker {
	handler := handlersOf(reads)
	return append(subscribeTools(handler), subscriptionTools(handler)...)
}

// subscribeTools are the stream_subscribe_ tools, each offered when the
// environment streams and has the read tool it repeats.
func subscribeTools(handler readHandlers) []native.Maker {
	return []native.Maker{
		native.ReadTool{
			Name:   "stream_subscribe_balance",
			Action: "subscribe_balance",
			Description: "Subscribe this session to an account's balance of one token (the one data_get_token_balance reads; native ETH when token is omitted, the agent's wallet when owner is): " +
				"returns the current balance and a subscription id, then ward reads it every interval and reports each change (a transfer in or out, a fill, a claim); " +
				streamDelivery + ". Use to wait for funds to arrive. Subscriptions are per session and bounded; cancel with stream_cancel_subscription.",
			Category: tool.CatStreaming, Budget: tool.Medium,
			Steps:   []string{"Reading the balance", "Subscribing"},
			Snippet: "stream_subscribe_balance watches an account's token balance and notifies this session of each change.",
			Params: []string{native.PAddress("token", "The ERC-20 token; omit for native ETH"),
				native.PAddress("owner", "Whose balance; omit for the agent's wallet"), streamInterval},
			Result: streamResult("the balance as data_get_token_balance reads it"),
			When:   handler.offer("data_get_token_balance"),
			Run:    subscribe(balanceStream, handler),
		},
		native.ReadTool{
			Name:   "stream_subscribe_price",
			Action: "subscribe_price",
			Description: "Subscribe this session to a token's USD price from its on-chain price feed (the one data_get_token_price reads; native ETH when token is omitted): " +
				"returns the current price and a subscription id, then ward reads the feed every interval and reports each new round or staleness change; " +
				streamDelivery + ". Use to react to price moves without polling. Subscriptions are per session and bounded ([streaming] max_per_session); " +
				"cancel with stream_cancel_subscription. Works only for tokens ward knows a feed for. Does not watch DEX prices (stream_subscribe_pool).",
			Category: tool.CatStreaming, Budget: tool.Medium,
			Steps:   []string{"Reading the price", "Subscribing"},
			Snippet: "stream_subscribe_price watches a token's feed price and notifies this session of each change.",
			Params:  []string{native.PAddress("token", "The token; omit for native ETH"), streamInterval},
			Result:  streamResult("the price as data_get_token_price reads it, without its age"),
			When:    handler.offer("data_get_token_price"),
			Run:     subscribe(priceStream, handler),
		},
		native.ReadTool{
			Name:   "stream_subscribe_pool",
			Action: "subscribe_pool",
			Description: "Subscribe this session to a Uniswap pool's state (the one uniswap_get_pool_info reads: for V3 slot0's price and tick and the in-range liquidity, for V2 the reserves): " +
				"returns the current state and a subscription id, then ward reads the pool every interval and reports each change; " + streamDelivery +
				". Use to watch a pool you trade or provide liquidity in. Subscriptions are per session and bounded; cancel with stream_cancel_subscription. " +
				"Does not watch feed prices (stream_subscribe_price) or positions.",
			Category: tool.CatStreaming, Budget: tool.Medium,
			Steps:    []string{"Reading the pool", "Subscribing"},
			Snippet:  "stream_subscribe_pool watches a Uniswap pool's price, tick and liquidity and notifies this session of each change.",
			Required: []string{"pool_address"},
			Params:   []string{native.PAddress("pool_address", "The pool or pair contract; use uniswap_get_pools_by_token_pair to find it"), streamInterval},
			Result:   streamResult("the pool as uniswap_get_pool_info reads it"),
			When:     handler.offer("uniswap_get_pool_info"),
			Run:      subscribe(poolStream, handler),
		},
		native.ReadTool{
			Name:   "stream_subscribe_health",
			Action: "subscribe_health",
			Description: "Subscribe this session to a lending position's health: an Aave V3 account (aave_get_account_data), a Morpho Blue position (morpho_get_position, needs market_id) " +
				"or a Compound III account (compound_get_account), of the agent's wallet by default. Returns the current position and a subscription id, then ward reads it every " +
				"interval and reports each change of health factor, collateral or debt; " + streamDelivery + ". Use to watch liquidation risk while a loan is open. " +
				"Subscriptions are per session and bounded; cancel with stream_cancel_subscription. Does not act on the position.",
			Category: tool.CatStreaming, Budget: tool.Medium,
			Steps:    []string{"Reading the position", "Subscribing"},
			Snippet:  "stream_subscribe_health watches an Aave, Morpho or Compound position's health factor and notifies this session of each change.",
			Required: []string{"protocol"},
			Params: []string{native.PString("protocol", "The lending protocol of the position", "aave", "morpho", "compound"),
				native.PAddress("user", "The account (default: the agent's wallet)"),
				native.PHex("market_id", "The Morpho Blue market id (protocol morpho only; see morpho_get_market_id)", 32), streamInterval},
			Result: streamResult("the position as the protocol's read tool reads it"),
			When: func(env *Env) bool {
				return handler.offer("aave_get_account_data")(env) || handler.offer("morpho_get_position")(env) || handler.offer("compound_get_account")(env)
			},
			Run: subscribe(healthStream, handler),
		},
	}
}

// subscriptionTools are the tools that list and cancel a session's
// subscriptions, offered whenever the environment streams.
func subscriptionTools(handler readHandlers) []native.Maker {
	return []native.Maker{
		native.ReadTool{
			Name:   "stream_list_subscriptions",
			Action: "subscriptions",
			Description: "List this session's live data subscriptions (stream_subscribe_price, _pool, _health, _balance): id, kind, target, interval and when each was made, with how many the session may hold " +
				"and the shortest interval allowed. Use to find a subscription's id before cancelling it. Lists no other session's subscriptions.",
			Category: tool.CatStreaming, Budget: tool.Fast,
			Steps:   []string{"Listing"},
			Snippet: "stream_list_subscriptions lists this session's live data subscriptions.",
			Result: []string{native.RProp("subscriptions", "array", "this session's subscriptions, oldest first"),
				native.RProp("max_per_session", "integer", "how many a session may hold"), native.RProp("min_interval_seconds", "number", "the shortest interval allowed")},
			When: handler.offer(),
			Run:  listSubscriptions,
		},
		native.ReadTool{
			Name:   "stream_cancel_subscription",
			Action: "unsubscribe",
			Description: "Cancel one of this session's live data subscriptions by its id (from stream_subscribe_* or stream_list_subscriptions): ward stops reading for it and " +
				"sends a subscription:ended event. Use when a watch is no longer needed, or to make room under the session's limit. Cannot cancel another session's subscription.",
			Category: tool.CatStreaming, Budget: tool.Fast,
			Steps:    []string{"Cancelling"},
			Snippet:  "stream_cancel_subscription ends one of this session's live data subscriptions.",
			Required: []string{"subscription_id"},
			Params:   []string{`"subscription_id":{"type":"string","pattern":"^sub_[0-9]{1,19}$","description":"The subscription's id (sub_<n>)"}`},
			Result:   []string{native.RProp("cancelled", "object", "the subscription that ended")},
			When:     handler.offer(),
			Run:      cancelSubscription,
		},
	}
}

// readHandlers are the catalogue's read tools' handlers by tool name.
type readHandlers map[string]registry.ReadHandler

func handlersOf(reads []registry.Tool) readHandlers {
	h := readHandlers{}
	for _, t := range reads {
		if t.Read != nil {
			h[t.Def.Name] = t.Read
		}
	}
	return h
}

// offer is a stream tool's When: the environment has a stream hub and
// every read tool in names.
func (h readHandlers) offer(names ...string) func(*Env) bool {
	return func(env *Env) bool {
		if env.Streams == nil {
			return false
		}
		for _, n := range names {
			if h[n] == nil {
				return false
			}
		}
		return true
	}
}

// The four kinds of subscription.
var (
	priceStream   = streamed{kind: "price", source: fixed("data_get_token_price"), watch: watchPrice}
	poolStream    = streamed{kind: "pool", source: fixed("uniswap_get_pool_info"), watch: watchPool}
	healthStream  = streamed{kind: "health", source: healthSource, watch: watchHealth}
	balanceStream = streamed{kind: "balance", source: fixed("data_get_token_balance"), watch: watchBalance}
)

func watchPrice(env *Env, in *registry.Input) (map[string]any, string, error) {
	args := native.ArgsOf(in)
	tok := args.AddressOr("token", common.Address{})
	if err := args.Err(); err != nil {
		return nil, "", err
	}
	t, ok := env.Token(tok)
	if !ok || t.Feed == (common.Address{}) {
		return nil, "", fmt.Errorf("ward knows no price feed for token %s, so its price cannot be watched", tok.Hex())
	}
	return map[string]any{"token": tok.Hex()}, tok.Hex(), nil
}

func watchPool(_ *Env, in *registry.Input) (map[string]any, string, error) {
	a, err := native.ArgAddress(in, "pool_address")
	if err != nil {
		return nil, "", err
	}
	return map[string]any{"pool_address": a.Hex()}, a.Hex(), nil
}

// healthSource is the read tool of the lending protocol a health
// subscription names.
func healthSource(in *registry.Input) (string, error) {
	switch p := native.ArgString(in, "protocol", ""); p {
	case "aave":
		return "aave_get_account_data", nil
	case "morpho":
		return "morpho_get_position", nil
	case "compound":
		return "compound_get_account", nil
	default:
		return "", fmt.Errorf("protocol must be aave, morpho or compound, not %q", native.Bounded(p))
	}
}

func watchHealth(env *Env, in *registry.Input) (map[string]any, string, error) {
	protocol := native.ArgString(in, "protocol", "")
	user, err := native.ArgAddressOr(in, "user", native.WalletAddress(env))
	if err != nil {
		return nil, "", err
	}
	if user == (common.Address{}) {
		return nil, "", errors.New("user is required: ward has no wallet whose position to watch")
	}
	args := map[string]any{"user": user.Hex()}
	target := protocol + "/" + user.Hex()
	_, hasMarket := in.Args.Get("market_id")
	switch {
	case protocol == "morpho" && !hasMarket:
		return nil, "", errors.New("market_id is required for a Morpho Blue position (see morpho_get_market_id)")
	case protocol == "morpho":
		id, err := native.ArgHex(in, "market_id")
		if err != nil || len(id) != 32 {
			return nil, "", errors.New("market_id must be 0x and 32 bytes")
		}
		m := common.BytesToHash(id).Hex()
		args["market_id"], target = m, target+"/"+m
	case hasMarket:
		return nil, "", fmt.Errorf("market_id is only for protocol morpho, not %s", protocol)
	}
	return args, target, nil
}

func watchBalance(env *Env, in *registry.Input) (map[string]any, string, error) {
	args := native.ArgsOf(in)
	tok := args.AddressOr("token", common.Address{})
	owner := args.AddressOr("owner", native.WalletAddress(env))
	if err := args.Err(); err != nil {
		return nil, "", err
	}
	if owner == (common.Address{}) {
		return nil, "", errors.New("owner is required: ward has no wallet whose balance to watch")
	}
	return map[string]any{"token": tok.Hex(), "owner": owner.Hex()}, owner.Hex() + "/" + tok.Hex(), nil
}

// listSubscriptions runs stream_list_subscriptions.
func listSubscriptions(_ context.Context, env *Env, in *registry.Input) (any, error) {
	owner, err := streamOwner(in)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	subs := env.Streams.List(owner)
	out := make([]streamSub, len(subs))
	for i, s := range subs {
		out[i] = subOut(s)
	}
	return map[string]any{"subscriptions": out, "max_per_session": env.Streams.MaxPerSession(),
		"min_interval_seconds": env.Streams.MinInterval().Seconds()}, nil
}

// cancelSubscription runs stream_cancel_subscription.
func cancelSubscription(_ context.Context, env *Env, in *registry.Input) (any, error) {
	owner, err := streamOwner(in)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	s, err := env.Streams.Cancel(owner, native.ArgString(in, "subscription_id", ""))
	if err != nil {
		return nil, err
	}
	return map[string]any{"cancelled": subOut(s)}, nil
}

func fixed(name string) func(*registry.Input) (string, error) {
	return func(*registry.Input) (string, error) { return name, nil }
}

// streamResult is a subscribe tool's result schema.
func streamResult(value string) []string {
	return []string{native.RProp("subscription_id", "string", "the id to cancel it with"), native.RProp("kind", "string", "price, pool, health or balance"),
		native.RProp("target", "string", "what is watched: chain id/address[/...]"), native.RProp("interval_seconds", "number", "how often ward reads it"),
		native.RProp("value", "object", value), native.RProp("delivery", "string", "where the updates arrive")}
}

// streamSub is a subscription as the tools return it.
type streamSub struct {
	ID       string    `json:"subscription_id"`
	Kind     string    `json:"kind"`
	Target   string    `json:"target"`
	Interval float64   `json:"interval_seconds"`
	Created  time.Time `json:"created_at"`
}

func subOut(s stream.Sub) streamSub {
	return streamSub{ID: s.ID, Kind: s.Kind, Target: s.Target, Interval: s.Interval.Seconds(), Created: s.Created}
}

// streamOwner is the session a call subscribes for: none outside a
// session's own call (speculation may run reads, never subscribe).
func streamOwner(in *registry.Input) (string, error) {
	if in.SessionID == "" || in.Session == nil {
		return "", errors.New("subscriptions belong to a session, and this call has none")
	}
	return in.SessionID, nil
}

// subscribe is a subscribe tool's Run: read the value once through its
// read tool, then hand the hub the same read as the probe.
func subscribe(k streamed, handler map[string]registry.ReadHandler) func(context.Context, *Env, *registry.Input) (any, error) {
	return func(ctx context.Context, env *Env, in *registry.Input) (any, error) {
		owner, err := streamOwner(in)
		if err != nil {
			return nil, err
		}
		name, err := k.source(in)
		if err != nil {
			return nil, err
		}
		read := handler[name]
		if read == nil {
			return nil, fmt.Errorf("%s is not offered on this chain, so there is nothing to watch", name)
		}
		args, target, err := k.watch(env, in)
		if err != nil {
			return nil, err
		}
		raw, err := json.Marshal(args)
		if err != nil {
			return nil, err
		}
		target = fmt.Sprintf("%d/%s", env.Chain.ChainID(), target)
		probe := func(ctx context.Context) (json.RawMessage, error) {
			// The poller's context descends from this call's, pinned to
			// its block: each poll reads a block of its own.
			return readValue(chain.Unpinned(ctx), read, raw, owner)
		}
		// Every later poll is decided again as the session's read, under
		// the policy of the moment (stream.Check); a session that cannot
		// be asked cannot subscribe.
		rc, ok := in.Session.(rechecker)
		if !ok {
			return nil, errors.New("this session's reads cannot be decided again, so it cannot subscribe")
		}
		check := func(ctx context.Context) error { return rc.Recheck(ctx, name, raw) }
		in.Step(0)
		// The first read is the session's own call of the read tool,
		// through the gate (policy, audit): a session cannot watch what
		// it may not read. The hub's later reads repeat it.
		res, err := in.Session.Read(ctx, name, raw)
		if err != nil {
			return nil, err
		}
		v, err := valueOf(res)
		if err != nil {
			return nil, err
		}
		in.Step(1)
		s, err := env.Streams.Subscribe(ctx, owner, stream.Key{Kind: k.kind, Target: target},
			time.Duration(native.ArgInt(in, "interval_seconds", 0))*time.Second, v, probe, check)
		if err != nil {
			return nil, err
		}
		o := subOut(s)
		return map[string]any{"subscription_id": o.ID, "kind": o.Kind, "target": o.Target, "interval_seconds": o.Interval,
			"value": v, "delivery": streamDelivery}, nil
	}
}

// rechecker is a session that decides again, without running it, a read
// it may make (gate's handlerCalls): a subscription's check.
type rechecker interface {
	Recheck(ctx context.Context, name string, raw json.RawMessage) error
}

// readValue runs a read tool's handler with raw arguments and returns its
// value (valueOf). A result the tool marks is_error is a failed read.
func readValue(ctx context.Context, read registry.ReadHandler, raw json.RawMessage, session string) (json.RawMessage, error) {
	args, err := tool.ParseArgs(raw)
	if err != nil {
		return nil, err
	}
	res, err := read(ctx, &registry.Input{Args: args, Raw: raw, SessionID: session, Now: time.Now(), Step: func(int) {}})
	if err != nil {
		return nil, err
	}
	return valueOf(res)
}

// valueOf is a read's data without the volatile fields, with its keys
// sorted.
func valueOf(res *tool.Result) (json.RawMessage, error) {
	if res.IsError {
		return nil, errors.New("the read reported a failure")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(res.Data, &m); err != nil {
		return res.Data, nil
	}
	for _, f := range volatile {
		delete(m, f)
	}
	return json.Marshal(m) // sorted keys: equal values, equal bytes
}
