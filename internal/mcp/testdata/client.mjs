// client.mjs drives ward's MCP endpoint with the official TypeScript client
// (@modelcontextprotocol/sdk, installed in testdata/npm): it connects over
// streamable HTTP with a bearer token, lists the tools, reads the gate
// state, previews and commits a swap (with progress), commits the spent
// permit again, and prints one JSON object with what it saw.
//
// Environment: WARD_MCP_URL, WARD_TOKEN, WARD_USDC, WARD_WETH; WARD_NPM_DIR
// overrides where the npm packages are (default ../../../testdata/npm).
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const npm = process.env.WARD_NPM_DIR ?? join(here, "..", "..", "..", "testdata", "npm");
const dist = join(npm, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm");
const load = (p) => import(pathToFileURL(join(dist, p)).href);
const { Client } = await load("client/index.js");
const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");

const { WARD_MCP_URL: url, WARD_TOKEN: token, WARD_USDC: usdc, WARD_WETH: weth } = process.env;
if (!url || !token || !usdc || !weth) {
  throw new Error("set WARD_MCP_URL, WARD_TOKEN, WARD_USDC and WARD_WETH");
}

const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: "ward-ts-test", version: "1.0.0" });
await client.connect(transport);

const text = (res) => res.content.filter((c) => c.type === "text").map((c) => c.text).join("");
const call = async (name, args, progress) => {
  const opts = progress ? { onprogress: (p) => progress.push(p) } : undefined;
  const res = await client.callTool({ name, arguments: args }, undefined, opts);
  return { isError: res.isError === true, text: text(res), structured: res.structuredContent ?? null };
};

const out = { server: client.getServerVersion(), sessionId: transport.sessionId ?? null };
const listed = await client.listTools();
out.tools = listed.tools.map((t) => ({ name: t.name, hasSchema: t.inputSchema?.type === "object" }));

const gate = await call("query_state", { kind: "gate" });
out.gate = { isError: gate.isError, value: JSON.parse(gate.text) };

const preview = await call("preview_action", {
  action_type: "swap",
  venue: "uniswap_v3",
  params: { token_in: usdc, token_out: weth, amount_in: "10000000" },
});
if (preview.isError) {
  out.preview = preview;
} else {
  const pv = JSON.parse(preview.text);
  out.preview = { isError: false, permit_id: pv.permit_id, status: pv.status, structured: preview.structured !== null };
  const progress = [];
  const commit = await call("commit_action", { permit_id: pv.permit_id }, progress);
  out.commit = { isError: commit.isError, value: commit.isError ? commit.text : JSON.parse(commit.text) };
  out.commitProgress = progress.map((p) => ({ progress: p.progress, total: p.total, message: p.message }));
  const again = await call("commit_action", { permit_id: pv.permit_id });
  out.again = { isError: again.isError, text: again.text };
}

await transport.terminateSession();
await client.close();
console.log(JSON.stringify(out));
