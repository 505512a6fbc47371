from addrs import A
E = []
def c(t, conf, p, notes, content, lang="en"):
    E.append(("clean", t, conf, p, lang, notes, content))

c("S", 0.86, "c", "Chainlink consumer with checks", '''function _price(AggregatorV3Interface feed, uint256 maxAge) internal view returns (uint256) {
    (uint80 roundId, int256 answer,, uint256 updatedAt, uint80 answeredInRound) = feed.latestRoundData();
    require(answer > 0, "bad answer");
    require(updatedAt != 0 && block.timestamp - updatedAt <= maxAge, "stale");
    // answeredInRound is deprecated; roundId check kept only for older aggregators
    roundId; answeredInRound;
    return uint256(answer) * 1e18 / (10 ** feed.decimals());
}''')
c("W", 0.9, "p", "sequencer uptime check", '''L2 consumers must check the sequencer uptime feed before using prices:
(, int256 answer, uint256 startedAt,,) = sequencerFeed.latestRoundData();
if (answer == 1) revert SequencerDown();            // 0 = up, 1 = down
if (block.timestamp - startedAt <= GRACE_PERIOD) revert GracePeriodNotOver();
Arbitrum One uptime feed: %s''' % A["CL_ARB_SEQ_UPTIME"])
c("I", 0.92, "p", "ETH/USD feed", "Chainlink ETH/USD on Ethereum mainnet (EACAggregatorProxy): %s, 8 decimals. Always read through the proxy; the underlying aggregator changes when Chainlink upgrades it." % A["CL_ETH_USD"])
c("H", 0.77, "s", "heartbeat per feed", "Don't use one global maxAge. Heartbeats differ per feed and per chain (1 h for ETH/USD mainnet, 24 h for many stablecoin and /ETH feeds, 20 min or less on some L2 feeds). Set maxAge = heartbeat + a small margin per feed from the feed's documented parameters.")
c("C", 0.81, "c", "deviation threshold meaning", "A 0.5% deviation threshold means the feed updates on-chain only when the off-chain median moves more than 0.5% from the last on-chain answer (or the heartbeat elapses). Between updates, the on-chain price can be off by up to that threshold; protocols with tight margins must account for it.")
c("W", 0.85, "x", "LUNA minAnswer", "Chainlink aggregators historically had minAnswer/maxAnswer circuit breakers: if the real price fell below minAnswer, the feed kept reporting minAnswer. During the LUNA crash (May 2022) lending protocols using the clamped price let users deposit LUNA at an inflated value. Compare answers against sane bounds yourself.")
c("I", 0.88, "p", "Pyth pull model", "Pyth is a pull oracle: prices are signed off-chain and pushed on-chain by whoever needs them via updatePriceFeeds(updateData) paying getUpdateFee(updateData). Consumers must call getPriceNoOlderThan(id, age); getPriceUnsafe can return an arbitrarily old price.")
c("H", 0.72, "c", "Pyth exponent", "Pyth prices come as (price int64, conf uint64, expo int32, publishTime). Real price = price x 10^expo (expo is typically negative, e.g. -8). The confidence interval is useful: reject or widen margins when conf/price is large.")
c("S", 0.75, "s", "TWAP manipulation cost", "Manipulating a 30-minute Uniswap v3 TWAP requires holding the price off for the whole window, which for a deep pool means keeping a large position exposed to arbitrage across many blocks. After the Merge, a validator proposing consecutive blocks can do multi-block manipulation more cheaply, so use wider windows or thin-liquidity limits for illiquid pools.")
c("I", 0.84, "p", "wstETH pricing", "Pricing wstETH in USD: wstETH.stEthPerToken() x (stETH/USD or stETH/ETH x ETH/USD). Many lending markets price stETH as ETH 1:1 (exchange-rate oracle) rather than using the market stETH/ETH feed, to avoid liquidations on temporary discounts.")
c("W", 0.87, "c", "Mango Markets 2022", "Mango Markets (Oct 2022): the attacker pumped MNGO spot on the few venues the oracle used, which inflated the value of their MNGO-perp position used as collateral, and borrowed ~$110M against it. Oracles on thin-liquidity assets are attack surface even if they are 'decentralized'.")
c("I", 0.82, "x", "SE: latestAnswer deprecated", "Q: Is latestAnswer() ok?\nA: It works but is deprecated and gives no timestamp. Use latestRoundData() and check updatedAt. Also note getRoundData on proxies uses phase-prefixed round ids (phaseId << 64 | aggregatorRoundId).")
c("C", 0.78, "p", "oracle decimals mismatch", "Mixing an 8-decimal /USD feed with an 18-decimal /ETH feed without normalising gives prices off by 1e10. Normalise every feed to a common precision using decimals() at construction time and store the scale factor immutably.")
c("H", 0.7, "c", "fallback oracle", "A fallback oracle helps only if it is independent; falling back to a DEX spot price when Chainlink is stale re-introduces the manipulation risk you used Chainlink to avoid. Prefer pausing the affected market over falling back to spot.")
c("I", 0.86, "p", "BTC/USD feed and WBTC", "Chainlink BTC/USD (%s) prices BTC, not WBTC. Protocols valuing WBTC usually combine it with the WBTC/BTC feed to catch a custodian depeg." % A["CL_BTC_USD"])
c("W", 0.83, "s", "answer type int", "latestRoundData().answer is int256. Casting to uint256 without checking > 0 turns a negative answer into a huge number; always require(answer > 0).")
c("S", 0.7, "x", "RedStone/Chronicle note", "Alternative push/pull oracles (Chronicle, RedStone, API3) expose Chainlink-compatible interfaces in adapters, but heartbeat, decimals and staleness semantics differ; read the adapter source rather than assuming Chainlink behaviour.")
c("I", 0.89, "p", "ETH/USD Arbitrum", "Chainlink ETH/USD on Arbitrum One: %s (8 decimals). Pair it with the sequencer uptime check." % A["CL_ETH_USD_ARB"])
ENTRIES = E
