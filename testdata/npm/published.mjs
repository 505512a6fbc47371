// published.mjs copies the creation code and ABI of the published protocol contracts that
// `ward chain deploy` deploys out of the npm packages pinned in package.json into
// ../../internal/chain/artifacts/published/<ContractName>.json, so the ward binary carries them
// without node_modules. Nothing is compiled or changed: the bytecode is the package's, library
// placeholders included; each library a contract links against is copied too and its link
// references name it by contract name. A contract a package publishes only
// as runtime code (Permit2) is written with deployedBytecode instead of
// bytecode. The output is deterministic.
//
// A few contracts come from packages that are fetched with `npm pack` instead
// of installed (see packed below): their npm dependencies are tooling that
// copying a compiled artifact does not need (@uniswap/swap-router-contracts
// depends on hardhat-watcher and so on hardhat, some 220 packages). Each
// tarball is checked against the sha512 integrity pinned here before
// anything is read from it, so the pin is as strong as package-lock.json's.
//
//   npm ci && node published.mjs          # (re)write the files
//   node published.mjs --check            # fail if the committed files differ
import { readFileSync, readdirSync, writeFileSync, mkdirSync, mkdtempSync, unlinkSync, existsSync, rmSync } from "node:fs";
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const modules = join(here, "node_modules");
const outDir = join(here, "..", "..", "internal", "chain", "artifacts", "published");
const check = process.argv.includes("--check");

// The contracts ward chain deploys, as package-relative artifact paths.
const aave = "@aave/core-v3/artifacts/contracts/";
const wanted = [
  "@uniswap/v2-periphery/build/WETH9.json",
  "@uniswap/v2-core/build/UniswapV2Factory.json",
  "@uniswap/v2-core/build/UniswapV2Pair.json",
  "@uniswap/v2-periphery/build/UniswapV2Router02.json",
  "@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json",
  "@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json",
  "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json",
  "@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json",
  "@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json",
  aave + "protocol/configuration/PoolAddressesProvider.sol/PoolAddressesProvider.json",
  aave + "protocol/configuration/ACLManager.sol/ACLManager.json",
  aave + "protocol/pool/Pool.sol/Pool.json",
  aave + "protocol/pool/PoolConfigurator.sol/PoolConfigurator.json",
  aave + "protocol/pool/DefaultReserveInterestRateStrategy.sol/DefaultReserveInterestRateStrategy.json",
  aave + "misc/AaveOracle.sol/AaveOracle.json",
  aave + "misc/AaveProtocolDataProvider.sol/AaveProtocolDataProvider.json",
  aave + "protocol/tokenization/AToken.sol/AToken.json",
  aave + "protocol/tokenization/StableDebtToken.sol/StableDebtToken.json",
  aave + "protocol/tokenization/VariableDebtToken.sol/VariableDebtToken.json",
];

// The packages fetched with npm pack, by exact version and tarball
// integrity (the registry's dist.integrity), and the artifacts taken from
// each (package-relative paths).
const packed = [
  {
    // The ERC-4337 signer (internal/chain/erc4337.go): EntryPoint v0.7, as
    // the eth-infinitism package publishes it (hardhat artifacts; its
    // canonical mainnet address is 0x0000000071727De22E5E9d8BAf0edAc6f37da032).
    spec: "@account-abstraction/contracts@0.7.0",
    integrity: "sha512-Bt/66ilu3u8I9+vFZ9fTd+cWs55fdb9J5YKfrhsrFafH1drkzwuCSL/xEot1GGyXXNJLQuXbMRztQPyelNbY1A==",
    artifacts: ["artifacts/EntryPoint.json"],
  },
  {
    // The Safe signer (internal/chain/safe.go): the Safe v1.4.1 singleton
    // and the factory that deploys proxies of it, and MultiSendCallOnly, which
    // batches a plan into one Safe transaction, as Safe publishes them
    // (their canonical mainnet addresses are in @safe-global/safe-deployments).
    spec: "@safe-global/safe-contracts@1.4.1",
    integrity: "sha512-fP1jewywSwsIniM04NsqPyVRFKPMAuirC3ftA/TA4X3Zc5EnwQp/UCJUU2PL/37/z/jMo8UUaJ+pnFNWmMU7dQ==",
    artifacts: [
      "build/artifacts/contracts/Safe.sol/Safe.json",
      "build/artifacts/contracts/proxies/SafeProxyFactory.sol/SafeProxyFactory.json",
      "build/artifacts/contracts/libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json",
    ],
  },
  {
    spec: "@uniswap/swap-router-contracts@1.3.1",
    integrity: "sha512-mh/YNbwKb7Mut96VuEtL+Z5bRe0xVIbjjiryn+iMMrK2sFKhR4duk/86mEz0UO5gSx4pQIw9G5276P5heY/7Rg==",
    artifacts: ["artifacts/contracts/SwapRouter02.sol/SwapRouter02.json"],
  },
  {
    spec: "@uniswap/v4-periphery@1.0.3",
    integrity: "sha512-JxLL0Djv9XcMvI2PatEnWrCrxuEaYNVhHxstndBOP+aJfh1XLg5ec8SDZ0xyoVfg2ElJTvuKpBgnu90bNValsg==",
    artifacts: ["foundry-out/StateView.sol/StateView.json", "foundry-out/V4Quoter.sol/V4Quoter.json"],
    // Permit2 is on npm only as the runtime code permit2's own test helper
    // etches at the canonical address (its DeployPermit2Test compares it
    // with a fresh Permit2's code), in the repository v4-periphery
    // vendors. The bytes' immutables cache chain 31337 (see deployPermit2
    // in internal/chain/deploy). Its ABI is that of the two interfaces
    // Permit2 implements, as the package compiled them.
    runtime: [
      {
        name: "Permit2",
        code: "lib/permit2/test/utils/DeployPermit2.sol",
        abi: [
          "foundry-out/IAllowanceTransfer.sol/IAllowanceTransfer.default.json",
          "foundry-out/ISignatureTransfer.sol/ISignatureTransfer.json",
        ],
      },
    ],
  },
  {
    // Uniswap V4's PoolManager, and the liquidity test router of the same
    // package that seeds the dev pools (the real PositionManager needs
    // descriptors and signed permits a seeding key does without).
    spec: "@uniswap/v4-core@1.0.2",
    integrity: "sha512-X15Tm2wWd+USAzEExMbo+g9naA6QN6mPgWm0MzDwRNlOfaNlepfUpSyt9RSrUfEODspwbyWbcLg6t5nwc/e7lg==",
    artifacts: ["out/PoolManager.sol/PoolManager.json", "out/PoolModifyLiquidityTest.sol/PoolModifyLiquidityTest.json"],
  },
  {
    spec: "@uniswap/universal-router@2.1.0",
    integrity: "sha512-rt18RUsZd9xDfyVfIONJo+TEQ8w+olOYxu9+A1g4Thil1R7IMa+8mnyVQjdLPK2REhejScDwjYbOGpeaAce0hg==",
    artifacts: ["artifacts/contracts/UniversalRouter.sol/UniversalRouter.json"],
  },
];

// hexLiteral returns the one hex"..." literal of a Solidity source.
function hexLiteral(root, rel) {
  const found = [...readFileSync(join(root, rel), "utf8").matchAll(/hex"([0-9a-fA-F]*)"/g)];
  if (found.length !== 1) throw new Error(`${rel}: ${found.length} hex literals, want one`);
  const code = found[0][1].toLowerCase();
  if (code === "" || code.length % 2 !== 0) throw new Error(`${rel}: the hex literal is not whole bytes`);
  return code;
}

// mergedABI concatenates the ABIs of several artifacts, dropping entries
// an earlier one already has (DOMAIN_SEPARATOR is in both of Permit2's
// interfaces).
function mergedABI(root, rels) {
  const seen = new Set();
  const out = [];
  for (const rel of rels) {
    for (const e of JSON.parse(readFileSync(join(root, rel), "utf8")).abi) {
      const key = JSON.stringify([e.type, e.name ?? "", (e.inputs ?? []).map((i) => i.type)]);
      if (!seen.has(key)) {
        seen.add(key);
        out.push(e);
      }
    }
  }
  return out;
}

// unpack fetches spec with npm pack into a fresh directory under dir,
// checks the tarball's integrity and extracts only the files listed; it
// returns the extracted package root.
function unpack(dir, { spec, integrity, artifacts, runtime = [] }) {
  const into = mkdtempSync(join(dir, "pack-"));
  const out = execFileSync("npm", ["pack", spec, "--json", "--silent", "--pack-destination", into], { encoding: "utf8" });
  const [info] = JSON.parse(out);
  const tgz = join(into, info.filename);
  const got = "sha512-" + createHash("sha512").update(readFileSync(tgz)).digest("base64");
  if (got !== integrity) throw new Error(`${spec}: tarball integrity ${got}, pinned ${integrity}`);
  const files = [...artifacts, ...runtime.flatMap((r) => [r.code, ...r.abi])];
  execFileSync("tar", ["-xzf", tgz, "-C", into, ...files.map((f) => "package/" + f)]);
  const root = join(into, "package");
  const pj = JSON.parse(execFileSync("tar", ["-xzOf", tgz, "package/package.json"], { encoding: "utf8" }));
  if (`${pj.name}@${pj.version}` !== spec) throw new Error(`${spec}: tarball holds ${pj.name}@${pj.version}`);
  return { root, name: pj.name, version: pj.version };
}

// packageOf splits "@scope/name/rest" into the package name and the path inside it.
function packageOf(rel) {
  const parts = rel.split("/");
  const n = parts[0].startsWith("@") ? 2 : 1;
  return { pkg: parts.slice(0, n).join("/"), inner: parts.slice(n).join("/") };
}

const versions = new Map();
function versionOf(pkg) {
  if (!versions.has(pkg)) {
    const file = join(modules, pkg, "package.json");
    if (!existsSync(file)) throw new Error(`${pkg} is not installed: run npm ci in testdata/npm`);
    versions.set(pkg, JSON.parse(readFileSync(file, "utf8")).version);
  }
  return versions.get(pkg);
}

// load reads one artifact in any layout the packages use: hardhat's ("bytecode" with 0x,
// "linkReferences" at the top level), waffle's ("evm.bytecode.object" without 0x) or
// foundry's ("bytecode.object" with 0x, "bytecode.linkReferences").
function load(root, rel) {
  const f = JSON.parse(readFileSync(join(root, rel), "utf8"));
  let code = typeof f.bytecode === "string" ? f.bytecode : "";
  let refs = f.linkReferences ?? {};
  if (typeof f.bytecode?.object === "string") {
    code = f.bytecode.object;
    refs = f.bytecode.linkReferences ?? {};
  }
  if (code === "" || code === "0x") {
    code = f.evm?.bytecode?.object ?? "";
    refs = f.evm?.bytecode?.linkReferences ?? {};
  }
  code = code.replace(/^0x/, "");
  if (code === "") throw new Error(`${rel}: no creation code`);
  const name = f.contractName || posix.basename(rel, ".json");
  return { name, abi: f.abi, code, refs };
}

const out = new Map(); // contract name -> file object
function add(name, file) {
  if (out.has(name)) throw new Error(`contract name ${name} comes from two artifacts`);
  out.set(name, file);
}

const seen = new Set();
const queue = [...wanted];
while (queue.length > 0) {
  const rel = queue.shift();
  if (seen.has(rel)) continue;
  seen.add(rel);
  const a = load(modules, rel);
  const { pkg, inner } = packageOf(rel);
  const links = [];
  for (const source of Object.keys(a.refs).sort()) {
    for (const lib of Object.keys(a.refs[source]).sort()) {
      const offsets = a.refs[source][lib].map((p) => {
        if (p.length !== 20) throw new Error(`${rel}: link reference to ${lib} of ${p.length} bytes`);
        return p.start;
      });
      links.push({ library: lib, offsets: offsets.sort((x, y) => x - y) });
      // Hardhat names a library by its source under the package's artifacts root.
      const at = rel.indexOf("/artifacts/");
      if (at < 0) throw new Error(`${rel} links ${lib} but is not a hardhat artifact`);
      queue.push(rel.slice(0, at + "/artifacts/".length) + source + "/" + lib + ".json");
    }
  }
  const left = a.code.replace(/__\$[0-9a-f]{34}\$__/g, "");
  if (left.includes("__")) throw new Error(`${rel}: a placeholder the link references do not describe`);
  add(a.name, {
    contractName: a.name,
    source: `${pkg}@${versionOf(pkg)}/${inner}`,
    abi: a.abi,
    bytecode: "0x" + a.code,
    links,
  });
}

const scratch = mkdtempSync(join(tmpdir(), "ward-published-"));
try {
  for (const p of packed) {
    const { root, name, version } = unpack(scratch, p);
    for (const rel of p.artifacts) {
      const a = load(root, rel);
      // Libraries would have to be fetched from the same tarball; none of
      // the packed contracts links any.
      if (Object.keys(a.refs).length > 0) throw new Error(`${p.spec}/${rel}: links libraries`);
      add(a.name, { contractName: a.name, source: `${name}@${version}/${rel}`, abi: a.abi, bytecode: "0x" + a.code, links: [] });
    }
    for (const r of p.runtime ?? []) {
      add(r.name, {
        contractName: r.name,
        source: `${name}@${version}/${r.code}`,
        abi: mergedABI(root, r.abi),
        deployedBytecode: "0x" + hexLiteral(root, r.code),
        links: [],
      });
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const files = new Map();
for (const name of [...out.keys()].sort()) {
  files.set(`${name}.json`, JSON.stringify(out.get(name), null, 1) + "\n");
}

if (check) {
  const have = existsSync(outDir) ? readdirSync(outDir).filter((f) => f.endsWith(".json")).sort() : [];
  const problems = [];
  for (const f of have) if (!files.has(f)) problems.push(`${f}: committed but not published`);
  for (const [f, text] of files) {
    if (!have.includes(f)) problems.push(`${f}: missing`);
    else if (readFileSync(join(outDir, f), "utf8") !== text) problems.push(`${f}: differs from the pinned package`);
  }
  if (problems.length > 0) {
    process.stderr.write("internal/chain/artifacts/published is not what the pinned packages contain (run node published.mjs in testdata/npm):\n");
    for (const p of problems) process.stderr.write("  " + p + "\n");
    process.exit(1);
  }
  process.stdout.write(`internal/chain/artifacts/published: ${files.size} artifacts match the pinned packages\n`);
} else {
  mkdirSync(outDir, { recursive: true });
  for (const f of readdirSync(outDir)) if (f.endsWith(".json")) unlinkSync(join(outDir, f));
  for (const [f, text] of files) writeFileSync(join(outDir, f), text);
  for (const [name, a] of out) {
    const what = a.bytecode ? `${(a.bytecode.length - 2) / 2} bytes creation code` : `${(a.deployedBytecode.length - 2) / 2} bytes runtime code`;
    process.stdout.write(`${name}: ${what}, from ${a.source}\n`);
  }
}
