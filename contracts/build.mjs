// build.mjs compiles src/*.sol with the solc package pinned in package.json and writes one
// artifact per deployable contract to ../internal/chain/artifacts/<ContractName>.json.
// The output is deterministic: sources, contracts and JSON keys are written in sorted order.
import { readFileSync, readdirSync, writeFileSync, mkdirSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const solc = require("solc");

const here = dirname(fileURLToPath(import.meta.url));
const srcDir = join(here, "src");
const outDir = join(here, "..", "internal", "chain", "artifacts");
const wantVersion = "0.8.37";

if (!solc.version().startsWith(wantVersion + "+")) {
  throw new Error(`solc ${solc.version()} is installed, want ${wantVersion}; run npm ci`);
}

const sources = {};
for (const file of readdirSync(srcDir).filter((f) => f.endsWith(".sol")).sort()) {
  sources[file] = { content: readFileSync(join(srcDir, file), "utf8") };
}

const input = {
  language: "Solidity",
  sources,
  settings: {
    evmVersion: "cancun",
    optimizer: { enabled: true, runs: 200 },
    metadata: { bytecodeHash: "none", appendCBOR: false },
    outputSelection: {
      "*": {
        "": ["ast"],
        "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"],
      },
    },
  },
};

function findImports(path) {
  try {
    return { contents: readFileSync(join(srcDir, path), "utf8") };
  } catch {
    return { error: `import not found: ${path}` };
  }
}

const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
const errors = (output.errors ?? []).filter((e) => e.severity === "error");
for (const e of output.errors ?? []) {
  process.stderr.write((e.formattedMessage ?? e.message) + "\n");
}
if (errors.length > 0) {
  process.exit(1);
}

// Deployable contracts: concrete contracts (not interfaces, libraries or abstract contracts).
const deployable = new Set();
for (const [file, src] of Object.entries(output.sources)) {
  for (const node of src.ast.nodes) {
    if (node.nodeType === "ContractDefinition" && node.contractKind === "contract" && !node.abstract) {
      deployable.add(`${file}:${node.name}`);
    }
  }
}

// Recursively sorts object keys so the JSON text does not depend on compiler key order.
function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k])]));
  }
  return value;
}

const artifacts = new Map();
for (const file of Object.keys(output.contracts).sort()) {
  for (const name of Object.keys(output.contracts[file]).sort()) {
    if (!deployable.has(`${file}:${name}`)) continue;
    if (artifacts.has(name)) throw new Error(`contract name ${name} is defined twice`);
    const c = output.contracts[file][name];
    const runtime = c.evm.deployedBytecode.object;
    if (runtime.length / 2 > 24576) throw new Error(`${name}: runtime code is ${runtime.length / 2} bytes, over EIP-170's 24576`);
    artifacts.set(name, {
      contractName: name,
      abi: sorted(c.abi),
      bytecode: "0x" + c.evm.bytecode.object,
      deployedBytecode: "0x" + runtime,
    });
  }
}

mkdirSync(outDir, { recursive: true });
for (const f of readdirSync(outDir)) {
  if (f.endsWith(".json")) unlinkSync(join(outDir, f));
}
for (const name of [...artifacts.keys()].sort()) {
  const a = artifacts.get(name);
  const text = JSON.stringify(
    { contractName: a.contractName, abi: a.abi, bytecode: a.bytecode, deployedBytecode: a.deployedBytecode },
    null,
    1,
  );
  writeFileSync(join(outDir, `${name}.json`), text + "\n");
  process.stdout.write(`${name}: ${(a.deployedBytecode.length - 2) / 2} bytes runtime\n`);
}
