# Short multi-line code/config snippets (clean).
from addrs import A
E = []
def c(t, conf, p, notes, content, lang="en"):
    E.append(("clean", t, conf, p, lang, notes, content))

c("S", 0.86, "c", "revoke with cast", "# revoke an approval\ncast send $TOKEN \"approve(address,uint256)\" $SPENDER 0 --ledger")
c("S", 0.83, "s", "safeTransferFrom usage", "using SafeERC20 for IERC20;\n// handles tokens that return no bool (USDT)\ntoken.safeTransferFrom(msg.sender, address(this), amount);")
c("H", 0.78, "c", "slippage helper", "def min_out(quote: int, bps: int) -> int:\n    # floor division keeps the bound conservative\n    return quote * (10_000 - bps) // 10_000")
c("S", 0.88, "p", "foundry remappings", "remappings = [\n  \"@openzeppelin/=lib/openzeppelin-contracts/\",\n  \"forge-std/=lib/forge-std/src/\",\n]")
c("I", 0.9, "c", "Panic decode", "0x4e487b71 ...0011 -> Panic(0x11) overflow\n0x4e487b71 ...0012 -> Panic(0x12) division by zero\n0x4e487b71 ...0032 -> Panic(0x32) index out of bounds")
c("S", 0.82, "s", "nonReentrant", "function withdraw(uint256 amt) external nonReentrant {\n    balances[msg.sender] -= amt;   // effects first\n    (bool ok,) = msg.sender.call{value: amt}(\"\");\n    require(ok);\n}")
c("W", 0.87, "x", "onlyOwner missing review", "Review: setOracle(address) has no access control.\nAnyone can point the vault at a fake oracle. Add onlyOwner (or the timelock) and emit an event.")
c("S", 0.84, "c", "viem simulate then write", "const { request } = await client.simulateContract({ address, abi, functionName: \"deposit\", args, account });\nconst hash = await wallet.writeContract(request);")
c("I", 0.91, "p", "chain ids yaml", "chains:\n  ethereum: 1\n  optimism: 10\n  base: 8453\n  arbitrum: 42161")
c("H", 0.76, "s", "HF alert yaml", "alerts:\n  hf_warn: 1.25\n  hf_act: 1.12     # deleverage via pre-built flow\n  oracle_max_age_s: per_feed")
c("S", 0.85, "c", "python allowance check", "allowance = token.functions.allowance(owner, spender).call()\nif allowance < amount:\n    raise RuntimeError('insufficient allowance; approve exact amount first')")
c("C", 0.8, "p", "git log example", "a1c3e9f fix(oracle): per-feed maxAge instead of global 3600 s\n7b20d41 feat(keeper): sequencer uptime check on Arbitrum and Base")
c("S", 0.87, "s", "forge test filter", "forge test --match-contract LiquidationTest --match-test test_closeFactor -vvvv\nforge test --fuzz-runs 10000 --match-path test/invariant/*")
c("I", 0.89, "c", "ERC-4626 interface fragment", "function deposit(uint256 assets, address receiver) external returns (uint256 shares);\nfunction redeem(uint256 shares, address receiver, address owner) external returns (uint256 assets);")
c("W", 0.85, "p", "CI security job", "[ci] slither: 1 high -> arbitrary-send-erc20 in Router.sweep()\n[ci] failing build: high findings block merge")
c("S", 0.83, "c", "ethers provider fallback", "const provider = new FallbackProvider([\n  { provider: p1, priority: 1, weight: 1 },\n  { provider: p2, priority: 2, weight: 1 },\n], 1, { quorum: 1 });")
c("H", 0.77, "s", "deadline in TS", "const deadline = BigInt(Math.floor(Date.now() / 1000) + 300); // 5 min, set by the signer\n// never use block.timestamp on-chain as the deadline")
c("I", 0.92, "p", ".env example safe", "RPC_URL=\nCHAIN_ID=1\nDRY_RUN=true\n# signer comes from the hardware wallet; no PRIVATE_KEY here")
c("S", 0.81, "c", "Vyper interface", "interface ERC20:\n    def transfer(_to: address, _value: uint256) -> bool: nonpayable\n    def balanceOf(_owner: address) -> uint256: view")
c("C", 0.84, "x", "issue comment rounding", "> totalAssets() drops by 1 wei after redeem\nExpected: redeem rounds down in favour of the vault, so the remaining holders keep the dust. Not a bug.")
c("S", 0.86, "s", "cast block basefee", "cast basefee --rpc-url $RPC\ncast gas-price --rpc-url $RPC   # legacy gasPrice estimate")
c("I", 0.88, "c", "Chainlink ABI fragment", "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)\nfunction decimals() view returns (uint8)")
c("W", 0.9, "p", "advisory short multi-line", "ADVISORY: phishing domain imitating the bridge UI.\nThe real UI is only linked from the project's verified accounts. Revoke any approval you gave on the fake one.")
c("S", 0.84, "c", "json-rpc call", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_call\",\n \"params\":[{\"to\":\"%s\",\"data\":\"0x313ce567\"},\"latest\"]}" % A["USDC"])
c("H", 0.79, "s", "permit try/catch", "try IERC20Permit(token).permit(owner, address(this), value, deadline, v, r, s) {} catch {}\n// proceed if allowance already sufficient (someone front-ran the permit)\nrequire(IERC20(token).allowance(owner, address(this)) >= value);")
ENTRIES = E
