// generate.mjs writes ../internal/addrbook/book.json, ward's address book,
// from the maintained npm packages pinned in package.json; nothing in the
// book is typed by hand. It refuses to write a book that fails its checks:
// every address is a valid EIP-55 checksum (a mixed-case source spelling
// must already be one), the sources agree on each token's decimals, and no
// address plays two roles on one chain (a token is not a contract, a
// contract has one role, a feed is neither).
//
//   npm ci && node generate.mjs           write the book
//   node generate.mjs --check             fail if the committed book differs
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { getAddress, isAddress } from "viem";
import * as viemChains from "viem/chains";
import { entryPoint07Address } from "viem/account-abstraction";

const require = createRequire(import.meta.url);
const aave = require("@bgd-labs/aave-address-book");
const safe = require("@safe-global/safe-deployments");
const sdk = require("@uniswap/sdk-core");
const { poolInitCodeHash } = require("@uniswap/v3-sdk");
const tokenList = require("@uniswap/default-token-list");
const { PERMIT2_ADDRESS } = require("@uniswap/permit2-sdk");
const { UNIVERSAL_ROUTER_ADDRESS, UniversalRouterVersion } = require("@uniswap/universal-router-sdk");
const morpho = require("@morpho-org/morpho-ts");
const arbitrum = require("@arbitrum/sdk");
const cow = require("@cowprotocol/contracts/networks.json");
const lido = require("@lido-sdk/constants");
const zeroEx = require("@0x/contract-addresses");
const comet = require("@compound-finance/compound-js/dist/nodejs/comet-artifacts/comet-constants.json");
// Only @gmx-io/sdk's config modules (plain address tables) are loaded, from
// its CommonJS build: its ESM build's extensionless imports do not resolve
// in Node, and the rest of the SDK (trading, relay, GraphQL) is not needed.
const { CONTRACTS: gmxContractsByChain } = require("@gmx-io/sdk/configs/contracts");
const { MARKETS: gmxMarketsByChain } = require("@gmx-io/sdk/configs/markets");
const { getLimitOrderContract: oneInchRouter } = require("@1inch/limit-order-sdk");
// Only the SDK's network table: the rest (its database-backed message
// tracking) is not loaded.
const { NETWORKS: lineaNetworks } = require("@consensys/linea-sdk/dist/lib/utils/networks.js");
// Across's deployments file is plain data: only it is read, not the
// contracts package's code (Solana and Hardhat tooling).
const across = require("@across-protocol/contracts/dist/broadcast/deployed-addresses.json").chains;
// Curve's per-chain constants, loaded as the module @curvefi/api builds
// its client from; the rest of the client (RPC, routing) is not loaded.
const { NETWORK_CONSTANTS: curveByChain } = await import("@curvefi/api/lib/constants/network_constants.js");
const { VAULT_V2: balancerV2Vault, balancerV3Contracts } = await import("@balancer/sdk");
const { addresses: ens } = await import("@ensdomains/ensjs/contracts");
// The consensus layer's deposit contract, from EthereumJS's chain presets.
const { Mainnet: ethereumjsMainnet } = await import("@ethereumjs/common");
const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url)));
const out = new URL("../internal/addrbook/book.json", import.meta.url);

// The chains ward ships a book for, with the package keys that name them.
// lz is the network name LayerZero's and Stargate's deployment folders use.
const chains = [
  { id: 1, viem: "mainnet", aave: "AaveV3Ethereum", chainlink: "ChainlinkEthereum", lz: "ethereum-mainnet" },
  { id: 8453, viem: "base", aave: "AaveV3Base", chainlink: "ChainlinkBase", lz: "base-mainnet" },
  { id: 42161, viem: "arbitrum", aave: "AaveV3Arbitrum", chainlink: "ChainlinkArbitrum", lz: "arbitrum-mainnet" },
  { id: 10, viem: "optimism", aave: "AaveV3Optimism", chainlink: "ChainlinkOptimism", lz: "optimism-mainnet" },
  { id: 137, viem: "polygon", aave: "AaveV3Polygon", chainlink: "ChainlinkPolygon", lz: "polygon-mainnet" },
];

// The rollups whose contracts on Ethereum (their L1 side) the book lists
// under Ethereum, with the role prefix that names the rollup.
const opStackRollups = [
  { viem: "optimism", prefix: "op_mainnet" },
  { viem: "base", prefix: "base" },
];
const arbitrumRollups = [{ id: 42161, prefix: "arbitrum_one" }];

// Uniswap's first QuoterV3 deployment, which sdk-core lists as the quoter
// on the chains it was deployed to first, speaks the V1 interface (flat
// arguments); every later one is a QuoterV2 (a struct argument).
const quoterV1 = "0xb27308f9F90D607463bb33eA1BeBb41C27CE5AB6";

const errors = [];
const fail = (msg) => errors.push(msg);

// addr validates a source's spelling and returns its checksummed form.
function addr(raw, what) {
  if (typeof raw !== "string" || !isAddress(raw, { strict: false })) {
    fail(`${what}: ${raw} is not an address`);
    return null;
  }
  const mixed = /[a-f]/.test(raw.slice(2)) && /[A-F]/.test(raw.slice(2));
  if (mixed && !isAddress(raw, { strict: true })) {
    fail(`${what}: ${raw} has an invalid EIP-55 checksum`);
    return null;
  }
  const a = getAddress(raw);
  return a === "0x0000000000000000000000000000000000000000" ? null : a;
}

function initCodeHash(h, id) {
  if (typeof h !== "string" || !/^0x[0-9a-f]{64}$/.test(h)) fail(`chain ${id}: Uniswap V3 pool init code hash ${h}`);
  return h;
}

function safeAddress(get, id) {
  const d = get({ network: String(id), version: "1.4.1" });
  const a = d && d.networkAddresses[String(id)];
  return Array.isArray(a) ? a[0] : a;
}

function chainBook(c) {
  const vc = viemChains[c.viem];
  const book = {
    chain_id: c.id,
    name: vc.name,
    native_symbol: vc.nativeCurrency.symbol,
    explorer_tx_url: `${vc.blockExplorers.default.url}/tx/{hash}`,
    // With the factory, what CREATE2 makes a V3 pool's address from.
    uniswap_v3_pool_init_code_hash: initCodeHash(poolInitCodeHash(c.id), c.id),
    tokens: [],
    contracts: [],
  };
  const tokens = new Map(); // lower-case address -> token
  const contracts = new Map(); // lower-case address -> contract
  const contract = (role, raw, source) => {
    const a = addr(raw, `chain ${c.id} ${role}`);
    if (!a) return;
    const prev = contracts.get(a.toLowerCase());
    if (prev) {
      fail(`chain ${c.id}: ${a} is both ${prev.role} and ${role}`);
      return;
    }
    contracts.set(a.toLowerCase(), { role, address: a, source });
  };

  // Tokens: Uniswap's default list, then the Aave market's assets it lacks.
  for (const t of tokenList.tokens) {
    if (t.chainId !== c.id) continue;
    const a = addr(t.address, `chain ${c.id} token ${t.symbol}`);
    if (!a) continue;
    if (tokens.has(a.toLowerCase())) {
      fail(`chain ${c.id}: token ${a} listed twice`);
      continue;
    }
    tokens.set(a.toLowerCase(), { address: a, symbol: t.symbol, name: t.name, decimals: t.decimals, sources: ["@uniswap/default-token-list"] });
  }
  const market = aave[c.aave];
  for (const [key, asset] of Object.entries(market.ASSETS)) {
    const a = addr(asset.UNDERLYING, `chain ${c.id} aave asset ${key}`);
    if (!a) continue;
    let t = tokens.get(a.toLowerCase());
    if (t) {
      if (t.decimals !== asset.decimals) {
        fail(`chain ${c.id}: ${t.symbol} ${a} has ${t.decimals} decimals in the token list and ${asset.decimals} in the Aave address book`);
      }
      t.sources.push("@bgd-labs/aave-address-book");
    } else if (key.includes("_")) {
      // Pendle PT tokens and the like: the book's key is not the token's
      // symbol, and a wrong symbol would make the book refuse good claims.
      continue;
    } else {
      t = { address: a, symbol: key, name: key, decimals: asset.decimals, sources: ["@bgd-labs/aave-address-book"] };
      tokens.set(a.toLowerCase(), t);
    }
    const feed = addr(asset.ORACLE, `chain ${c.id} aave price source of ${key}`);
    if (feed) t.usd_feed = feed;
  }
  const wrapped = sdk.WETH9[c.id];
  if (wrapped) {
    const a = addr(wrapped.address, `chain ${c.id} wrapped native`);
    const t = a && tokens.get(a.toLowerCase());
    if (!t) fail(`chain ${c.id}: the wrapped native token ${wrapped.address} is in no token list`);
    else t.wrapped_native = true;
  }

  // Contracts.
  const u = sdk.CHAIN_TO_ADDRESSES_MAP[c.id];
  const src = "@uniswap/sdk-core";
  contract("uniswap_v2_factory", sdk.V2_FACTORY_ADDRESSES[c.id], src);
  contract("uniswap_v2_router02", sdk.V2_ROUTER_ADDRESSES[c.id], src);
  contract("uniswap_v3_factory", u.v3CoreFactoryAddress, src);
  contract("uniswap_v3_swap_router02", sdk.SWAP_ROUTER_02_ADDRESSES(c.id), src);
  contract(getAddress(u.quoterAddress) === quoterV1 ? "uniswap_v3_quoter_v1" : "uniswap_v3_quoter_v2", u.quoterAddress, src);
  contract("uniswap_v3_position_manager", u.nonfungiblePositionManagerAddress, src);
  if (u.v4PoolManagerAddress) contract("uniswap_v4_pool_manager", u.v4PoolManagerAddress, src);
  if (u.v4PositionManagerAddress) contract("uniswap_v4_position_manager", u.v4PositionManagerAddress, src);
  if (u.v4QuoterAddress) contract("uniswap_v4_quoter", u.v4QuoterAddress, src);
  if (u.v4StateView) contract("uniswap_v4_state_view", u.v4StateView, src);
  // The Universal Router v2.0, the SDK's default version: the first with
  // V4_SWAP, and the command encoding ward's V4 swaps use (v2.1 changed it).
  contract("uniswap_universal_router", UNIVERSAL_ROUTER_ADDRESS(UniversalRouterVersion.V2_0, c.id), "@uniswap/universal-router-sdk");
  contract("permit2", PERMIT2_ADDRESS, "@uniswap/permit2-sdk");
  if (vc.contracts && vc.contracts.multicall3) contract("multicall3", vc.contracts.multicall3.address, "viem/chains");
  const asrc = "@bgd-labs/aave-address-book";
  contract("aave_v3_pool", market.POOL, asrc);
  contract("aave_v3_pool_addresses_provider", market.POOL_ADDRESSES_PROVIDER, asrc);
  contract("aave_v3_data_provider", market.AAVE_PROTOCOL_DATA_PROVIDER, asrc);
  contract("aave_v3_oracle", market.ORACLE, asrc);
  contract("aave_v3_weth_gateway", market.WETH_GATEWAY, asrc);
  const ssrc = "@safe-global/safe-deployments";
  contract("safe_singleton", safeAddress(safe.getSafeSingletonDeployment, c.id), ssrc);
  contract("safe_singleton_l2", safeAddress(safe.getSafeL2SingletonDeployment, c.id), ssrc);
  contract("safe_proxy_factory", safeAddress(safe.getProxyFactoryDeployment, c.id), ssrc);
  contract("safe_multisend_call_only", safeAddress(safe.getMultiSendCallOnlyDeployment, c.id), ssrc);
  contract("safe_fallback_handler", safeAddress(safe.getCompatibilityFallbackHandlerDeployment, c.id), ssrc);
  // ERC-4337 EntryPoint v0.7: one CREATE2 address on every chain the book covers.
  contract("erc4337_entry_point", entryPoint07Address, "viem/account-abstraction");
  for (const add of [morphoContracts, balancerContracts, cowContracts, zeroExContracts, opStackPredeploys, acrossContracts,
    layerZeroContracts, stargateContracts, oneInchContracts, pendleContracts]) add(c, contract);
  curveContracts(c, contract, tokens);
  cometContract(c, contract, tokens);
  gmxContracts(c, contract, tokens);
  if (c.id === 1) {
    for (const add of [rollupContracts, lineaContracts, ensContracts, lidoContracts, depositContract]) add(c, contract);
  }
  const feeds = chainlinkFeeds(c);

  // No address plays two roles.
  for (const [k, f] of feeds) {
    if (tokens.has(k)) fail(`chain ${c.id}: the ${f.pair} feed ${f.address} is also token ${tokens.get(k).symbol}`);
    if (contracts.has(k)) fail(`chain ${c.id}: the ${f.pair} feed ${f.address} is also ${contracts.get(k).role}`);
  }
  for (const [k, t] of tokens) {
    if (contracts.has(k)) fail(`chain ${c.id}: ${t.address} is both token ${t.symbol} and ${contracts.get(k).role}`);
    if (t.usd_feed) {
      const f = t.usd_feed.toLowerCase();
      if (tokens.has(f)) fail(`chain ${c.id}: the feed of ${t.symbol} ${t.usd_feed} is also token ${tokens.get(f).symbol}`);
      if (contracts.has(f)) fail(`chain ${c.id}: the feed of ${t.symbol} ${t.usd_feed} is also ${contracts.get(f).role}`);
    }
  }
  const byAddr = (x, y) => (x.address.toLowerCase() < y.address.toLowerCase() ? -1 : 1);
  book.tokens = [...tokens.values()].sort(byAddr);
  book.contracts = [...contracts.values()].sort((x, y) => (x.role < y.role ? -1 : 1));
  book.feeds = [...feeds.values()].sort(byAddr);
  return book;
}

// morphoContracts adds Morpho's deployments: the Morpho Blue singleton
// (morpho-ts calls it "morpho"), its interest rate model, the MetaMorpho
// vault factory, the public allocator and Bundler3.
function morphoContracts(c, contract) {
  let a;
  try {
    a = morpho.getChainAddresses(c.id);
  } catch {
    return; // Morpho is not deployed on the chain
  }
  const src = "@morpho-org/morpho-ts";
  contract("morpho_blue", a.morpho, src);
  if (a.adaptiveCurveIrm) contract("morpho_adaptive_curve_irm", a.adaptiveCurveIrm, src);
  if (a.metaMorphoFactory) contract("morpho_metamorpho_factory", a.metaMorphoFactory, src);
  if (a.publicAllocator) contract("morpho_public_allocator", a.publicAllocator, src);
  if (a.bundler3 && a.bundler3.bundler3) contract("morpho_bundler3", a.bundler3.bundler3, src);
}

// The networks compound-js names Compound III deployments by.
const cometNetworks = { 1: "mainnet", 137: "polygon", 42161: "arbitrum", 8453: "base" };

// cometContract adds a Compound III market (compound_v3_comet, one per
// chain): the first of the chain's Comets in compound-js whose base asset
// is the book's token of that symbol, with the same decimals. A Comet over
// a token the book knows under another symbol (Arbitrum's and Polygon's
// bridged USDC.e) is left out rather than listed against the wrong USDC.
function cometContract(c, contract, tokens) {
  const net = cometNetworks[c.id];
  if (!net) return;
  for (const [instance, base] of Object.entries(comet.base)) {
    if (!instance.startsWith(`${net}_`)) continue;
    const a = comet.address[instance];
    const b = a && a[base] && addr(a[base].contract, `chain ${c.id} comet ${instance} base ${base}`);
    const t = b && tokens.get(b.toLowerCase());
    if (!t || t.symbol !== base || t.decimals !== comet.decimals[instance][base]) continue;
    contract("compound_v3_comet", a.Comet, "@compound-finance/compound-js");
    return;
  }
}

// gmxContracts adds GMX V2 (Synthetics) where @gmx-io/sdk lists it: the
// ExchangeRouter orders go through, the Router (the SDK's
// SyntheticsRouter) collateral is approved to, the OrderVault, the
// DataStore and the Reader (SyntheticsReader; the SDK's "Reader" is GMX
// V1's), and the ETH/USD market (gmx_market_eth_usd): the market whose
// index and long token are the book's wrapped native token and whose
// short token is the book's USDC, the collateral ward's GMX tools take.
function gmxContracts(c, contract, tokens) {
  const a = gmxContractsByChain[c.id];
  if (!a) return;
  const src = "@gmx-io/sdk";
  contract("gmx_exchange_router", a.ExchangeRouter, src);
  contract("gmx_router", a.SyntheticsRouter, src);
  contract("gmx_order_vault", a.OrderVault, src);
  contract("gmx_data_store", a.DataStore, src);
  contract("gmx_reader", a.SyntheticsReader, src);
  const sym = (x) => {
    const t = tokens.get(addr(x, `chain ${c.id} gmx market token`).toLowerCase());
    return t && t.symbol;
  };
  const wnt = addr(a.NATIVE_TOKEN, `chain ${c.id} gmx native token`);
  const eth = Object.values(gmxMarketsByChain[c.id] || {}).filter(
    (m) => getAddress(m.indexTokenAddress) === wnt && getAddress(m.longTokenAddress) === wnt && sym(m.shortTokenAddress) === "USDC",
  );
  if (eth.length !== 1) fail(`chain ${c.id}: @gmx-io/sdk lists ${eth.length} WETH-USDC ETH/USD markets, want 1`);
  if (sym(wnt) !== "WETH") fail(`chain ${c.id}: GMX's native token ${wnt} is not the book's WETH`);
  contract("gmx_market_eth_usd", eth[0].marketTokenAddress, src);
}

// balancerContracts adds the Balancer V2 and V3 vaults.
function balancerContracts(c, contract) {
  const src = "@balancer/sdk";
  if (balancerV2Vault[c.id]) contract("balancer_v2_vault", balancerV2Vault[c.id], src);
  const v3 = balancerV3Contracts.Vault[c.id];
  if (v3) contract("balancer_v3_vault", v3, src);
}

// cowContracts adds CoW Protocol's settlement contract and the vault
// relayer orders' sell tokens are approved to.
function cowContracts(c, contract) {
  const src = "@cowprotocol/contracts";
  const at = (name) => cow[name] && cow[name][String(c.id)] && cow[name][String(c.id)].address;
  if (at("GPv2Settlement")) contract("cow_gpv2_settlement", at("GPv2Settlement"), src);
  if (at("GPv2VaultRelayer")) contract("cow_gpv2_vault_relayer", at("GPv2VaultRelayer"), src);
}

// zeroExContracts adds 0x's Exchange Proxy.
function zeroExContracts(c, contract) {
  if (!zeroEx.isChainId(c.id)) return;
  contract("zeroex_exchange_proxy", zeroEx.getContractAddressesForChainOrThrow(c.id).exchangeProxy, "@0x/contract-addresses");
}

// opStackPredeploys adds, on an OP Stack chain, the predeploys viem
// lists for it (the same addresses on every OP Stack chain): the L2
// standard bridge, the L2-to-L1 message passer withdrawals start at, the
// gas price oracle (L1 data fee), the L1 block attributes, the L2
// cross-domain messenger and the L2 ERC-721 bridge.
function opStackPredeploys(c, contract) {
  const k = viemChains[c.viem].contracts || {};
  for (const [name, role] of [["l2StandardBridge", "l2_standard_bridge"], ["l2ToL1MessagePasser", "l2_to_l1_message_passer"],
    ["gasPriceOracle", "gas_price_oracle"], ["l1Block", "l1_block"], ["l2CrossDomainMessenger", "l2_cross_domain_messenger"],
    ["l2Erc721Bridge", "l2_erc721_bridge"]]) {
    // A predeploy is an address of its own chain; the entries keyed by
    // chain id are the rollup's contracts on its parent chain.
    if (k[name] && typeof k[name].address === "string") contract(`op_stack_${role}`, k[name].address, "viem/chains");
  }
}

// acrossContracts adds Across's bridge: the SpokePool deposits go to and
// fills come from on every chain, its periphery (swap and deposit), and
// on Ethereum the HubPool (LP liquidity, root bundles) and config store.
function acrossContracts(c, contract) {
  const k = across[String(c.id)] && across[String(c.id)].contracts;
  if (!k) return;
  const src = "@across-protocol/contracts";
  for (const [name, role] of [["SpokePool", "across_spoke_pool"], ["SpokePoolPeriphery", "across_spoke_pool_periphery"],
    ["HubPool", "across_hub_pool"], ["AcrossConfigStore", "across_config_store"]]) {
    if (k[name]) contract(role, k[name].address, src);
  }
}

// curveContracts adds Curve's router, address provider and pool
// factories (stableswap-NG, twocrypto-NG, tricrypto-NG) on every chain,
// and on Ethereum its DAO (gauge controller, veCRV, CRV minter, fee
// distributor) and crvUSD's controller factory. Not the other chains'
// gauge_controller and fee_distributor: @curvefi/api fills those with
// Ethereum's addresses as placeholders. Not "crv": a token.
//
// Then the pools @curvefi/api names (its curated, non-factory pools):
// the swap contract as curve_pool_<name>, "curve_pool_3pool". A pool
// whose swap contract the book already lists as a token (a newer pool is
// its own LP token) stays a token.
function curveContracts(c, contract, tokens) {
  const k = curveByChain[c.id];
  if (!k) return;
  const src = "@curvefi/api";
  const a = k.ALIASES;
  const names = ["router", "address_provider", "stable_ng_factory", "twocrypto_factory", "tricrypto_factory"];
  if (c.id === 1) names.push("gauge_controller", "voting_escrow", "minter", "fee_distributor", "crvusd_factory");
  for (const n of names) {
    if (a[n]) contract(`curve_${n}`, a[n], src);
  }
  for (const [name, p] of Object.entries(k.POOLS_DATA || {})) {
    if (!/^[a-z0-9]+$/.test(name)) {
      fail(`chain ${c.id}: Curve pool name ${JSON.stringify(name)} cannot make a role`);
      continue;
    }
    const swap = addr(p.swap_address, `chain ${c.id} Curve pool ${name}`);
    if (swap && !tokens.has(swap.toLowerCase())) contract(`curve_pool_${name}`, swap, src);
  }
}

// layerZeroContracts adds LayerZero V2's EndpointV2 (one address on
// every chain) and its default send and receive message libraries.
function layerZeroContracts(c, contract) {
  const src = "@layerzerolabs/lz-evm-sdk-v2";
  for (const [name, role] of [["EndpointV2", "layerzero_endpoint_v2"], ["SendUln302", "layerzero_send_uln302"],
    ["ReceiveUln302", "layerzero_receive_uln302"]]) {
    contract(role, deployment(`${src}/deployments/${c.lz}/${name}.json`), src);
  }
}

// stargateContracts adds Stargate V2's pools (native ETH, USDC, USDT)
// where the chain has them, and its TokenMessaging, the contract that
// sends a pool's transfer over LayerZero.
function stargateContracts(c, contract) {
  const src = "@stargatefinance/stg-evm-sdk-v2";
  for (const [name, role] of [["StargatePoolNative", "stargate_pool_native"], ["StargatePoolUSDC", "stargate_pool_usdc"],
    ["StargatePoolUSDT", "stargate_pool_usdt"], ["TokenMessaging", "stargate_token_messaging"]]) {
    const a = deployment(`${src}/deployments/${c.lz}/${name}.json`, true);
    if (a) contract(role, a, src);
  }
}

// deployment reads the address of a hardhat-deploy deployment file; a
// missing file is an error unless optional.
function deployment(path, optional) {
  try {
    return require(path).address;
  } catch (e) {
    if (!optional || e.code !== "MODULE_NOT_FOUND") fail(`${path}: ${e.message.split("\n")[0]}`);
    return null;
  }
}

// oneInchContracts adds 1inch's AggregationRouterV6, which
// @1inch/limit-order-sdk lists as the Limit Order Protocol v4 contract
// (the router hosts the limit order protocol; one address on the chains
// the book covers).
function oneInchContracts(c, contract) {
  contract("oneinch_aggregation_router_v6", oneInchRouter(c.id), "@1inch/limit-order-sdk");
}

// pendleContracts adds Pendle V2's deployments where @pendle/core-v2
// lists them (deployments/<chain>-core.json): the router (swaps, PT/YT
// mint and redeem), its static quoter, the limit order router, the
// PT/YT/LP oracle and the newest market and yield contract factories.
function pendleContracts(c, contract) {
  let d;
  try {
    d = require(`@pendle/core-v2/deployments/${c.id}-core.json`);
  } catch (e) {
    if (e.code !== "MODULE_NOT_FOUND") fail(`@pendle/core-v2 chain ${c.id}: ${e.message}`);
    return;
  }
  const src = "@pendle/core-v2";
  for (const [name, role] of [["router", "pendle_router"], ["routerStatic", "pendle_router_static"], ["limitRouter", "pendle_limit_router"],
    ["pyYtLpOracle", "pendle_py_yt_lp_oracle"], ["marketFactoryV6", "pendle_market_factory_v6"],
    ["yieldContractFactoryV6", "pendle_yield_contract_factory_v6"]]) {
    if (d[name]) contract(role, d[name], src);
  }
}

// rollupContracts adds, on Ethereum, the L1 side of the rollups the book
// covers: the OP Stack chains' standard bridge, portal and output or
// dispute-game contracts, and Arbitrum One's bridge, delayed inbox,
// sequencer inbox, outbox, rollup and token gateway router.
function rollupContracts(c, contract) {
  for (const r of opStackRollups) {
    const k = viemChains[r.viem].contracts;
    const at = (name) => k[name] && k[name][c.id] && k[name][c.id].address;
    for (const [name, role] of [["l1StandardBridge", "l1_standard_bridge"], ["portal", "optimism_portal"],
      ["l2OutputOracle", "l2_output_oracle"], ["disputeGameFactory", "dispute_game_factory"]]) {
      if (at(name)) contract(`${r.prefix}_${role}`, at(name), "viem/chains");
    }
  }
  for (const r of arbitrumRollups) {
    const n = arbitrum.getArbitrumNetwork(r.id);
    if (n.parentChainId !== c.id) continue;
    const src = "@arbitrum/sdk";
    for (const [name, role] of [["bridge", "bridge"], ["inbox", "inbox"], ["sequencerInbox", "sequencer_inbox"],
      ["outbox", "outbox"], ["rollup", "rollup"]]) {
      contract(`${r.prefix}_${role}`, n.ethBridge[name], src);
    }
    contract(`${r.prefix}_l1_gateway_router`, n.tokenBridge.parentGatewayRouter, src);
    contract(`${r.prefix}_l1_erc20_gateway`, n.tokenBridge.parentErc20Gateway, src);
  }
}

// lineaContracts adds, on Ethereum, Linea's L1 message service (the
// LineaRollup contract messages and the canonical ETH bridge go through);
// the book does not cover Linea itself.
function lineaContracts(c, contract) {
  const n = lineaNetworks["linea-mainnet"];
  if (n) contract("linea_l1_message_service", n.l1ContractAddress, "@consensys/linea-sdk");
}

// ensContracts adds ENS: the registry, the .eth registrar, its
// controller, the name wrapper and the public and reverse resolvers. Not
// the universal resolver: its vanity address (0xeEeE…EeEe) shares its
// ends with the 0xEeee…EEeE that DeFi APIs write for native ETH, so every
// mention of that would read as a look-alike of it.
function ensContracts(c, contract) {
  const e = ens[c.id];
  if (!e) return;
  for (const [name, role] of [["ensRegistry", "ens_registry"], ["ensBaseRegistrarImplementation", "ens_base_registrar"],
    ["ensEthRegistrarController", "ens_eth_registrar_controller"], ["ensNameWrapper", "ens_name_wrapper"],
    ["ensPublicResolver", "ens_public_resolver"], ["ensReverseRegistrar", "ens_reverse_registrar"]]) {
    if (e[name]) contract(role, e[name].address, "@ensdomains/ensjs");
  }
}

// lidoContracts adds Lido's withdrawal queue (an ERC-721 of withdrawal
// requests).
function lidoContracts(c, contract) {
  const a = lido.WITHDRAWAL_QUEUE_BY_NETWORK[c.id];
  if (a) contract("lido_withdrawal_queue", a, "@lido-sdk/constants");
}

// depositContract adds the consensus layer's deposit contract, where
// every validator's 32 ETH stake (and top-ups) is paid on Ethereum.
function depositContract(c, contract) {
  if (ethereumjsMainnet.chainId === c.id) contract("beacon_deposit_contract", ethereumjsMainnet.depositContractAddress, "@ethereumjs/common");
}

// chainlinkFeeds returns the chain's Chainlink USD price feeds (the
// proxies), from the feed lists of Aave's address book: "BTC__USD" is
// the BTC/USD feed. Aave's own adapters (SVR, exchange rates) are not
// Chainlink's feeds and are left out.
function chainlinkFeeds(c) {
  const feeds = new Map(); // lower-case address -> feed
  for (const [key, raw] of Object.entries(aave[c.chainlink] || {})) {
    const m = /^([A-Za-z0-9]+)__USD$/.exec(key);
    if (!m) continue;
    const a = addr(raw, `chain ${c.id} Chainlink ${key}`);
    if (!a) continue;
    const pair = `${m[1]}/USD`;
    const prev = feeds.get(a.toLowerCase());
    if (prev) {
      fail(`chain ${c.id}: ${a} is both the ${prev.pair} and the ${pair} feed`);
      continue;
    }
    feeds.set(a.toLowerCase(), { pair, address: a, source: "@bgd-labs/aave-address-book" });
  }
  return feeds;
}

const book = {
  format: 1,
  generator: "addrbook/generate.mjs",
  sources: Object.fromEntries(Object.entries(pkg.dependencies).sort()),
  chains: chains.map(chainBook),
};
if (errors.length) {
  console.error(`address book: ${errors.length} problem(s):\n  ` + errors.join("\n  "));
  process.exit(1);
}
const text = JSON.stringify(book, null, 1) + "\n";
if (process.argv.includes("--check")) {
  let have = "";
  try {
    have = readFileSync(out, "utf8");
  } catch {}
  if (have !== text) {
    console.error("internal/addrbook/book.json differs from what addrbook/generate.mjs produces: run it and commit the result");
    process.exit(1);
  }
} else {
  writeFileSync(out, text);
}
const n = book.chains.map((c) => `${c.name}: ${c.tokens.length} tokens (${c.tokens.filter((t) => t.usd_feed).length} with a USD feed), ${c.contracts.length} contracts, ${c.feeds.length} Chainlink feeds`);
console.log(n.join("\n"));
