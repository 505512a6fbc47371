// discover.mjs is a model's first minutes with ward, played by the official
// TypeScript MCP client (@modelcontextprotocol/sdk, installed in
// testdata/npm): it lists the tools (every page), picks the upstream tools
// ward lists under its mcp_ namespace and one native action from
// query_state {"kind":"tools"}, builds every argument from the advertised
// JSON schemas alone (a value chosen by type, enum, bounds and pattern,
// never a hard-coded argument), calls them, commits what returns a permit,
// and prints one JSON object with what it saw.
//
// Environment: WARD_MCP_URL, WARD_TOKEN, WARD_ACTION (the native kind to
// use, e.g. wrap); WARD_NPM_DIR overrides where the npm packages are
// (default ../../../testdata/npm).
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const npm = process.env.WARD_NPM_DIR ?? join(here, "..", "..", "..", "testdata", "npm");
const dist = join(npm, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm");
const load = (p) => import(pathToFileURL(join(dist, p)).href);
const { Client } = await load("client/index.js");
const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");

const { WARD_MCP_URL: url, WARD_TOKEN: token, WARD_ACTION: action } = process.env;
if (!url || !token || !action) {
  throw new Error("set WARD_MCP_URL, WARD_TOKEN and WARD_ACTION");
}

const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: "ward-ts-discovery", version: "1.0.0" });
await client.connect(transport);

const text = (res) => res.content.filter((c) => c.type === "text").map((c) => c.text).join("");
const call = async (name, args) => {
  const res = await client.callTool({ name, arguments: args });
  return { isError: res.isError === true, text: text(res) };
};

// value returns a value that satisfies schema s (within document root):
// its const, its first enum value, its default, or one built from its
// type and constraints. It throws for what it cannot satisfy (an address,
// say), so the caller picks another tool.
function value(s, root, depth = 0) {
  if (depth > 16) throw new Error("schema too deep");
  if (s.$ref) {
    if (!s.$ref.startsWith("#/")) throw new Error(`remote $ref ${s.$ref}`);
    let n = root;
    for (const seg of s.$ref.slice(2).split("/")) n = n[seg.replace(/~1/g, "/").replace(/~0/g, "~")];
    return value(n, root, depth + 1);
  }
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if ("default" in s) return s.default;
  for (const k of ["anyOf", "oneOf"]) {
    if (Array.isArray(s[k])) {
      for (const b of s[k]) {
        try { return value(b, root, depth + 1); } catch { /* next branch */ }
      }
      throw new Error(`no ${k} branch is satisfiable`);
    }
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const out = {};
      for (const k of s.required ?? []) out[k] = value((s.properties ?? {})[k] ?? {}, root, depth + 1);
      return out;
    }
    case "array": {
      const n = s.minItems ?? 0;
      return Array.from({ length: n }, () => value(s.items ?? {}, root, depth + 1));
    }
    case "integer":
    case "number": {
      let v = s.minimum ?? (s.exclusiveMinimum !== undefined ? Math.floor(s.exclusiveMinimum) + 1 : 1);
      if (s.maximum !== undefined && v > s.maximum) v = s.maximum;
      return v;
    }
    case "boolean":
      return false;
    case "string": {
      const min = s.minLength ?? 0, max = s.maxLength ?? Infinity;
      const fits = (c) => c.length >= min && c.length <= max && (!s.pattern || new RegExp(s.pattern, "u").test(c));
      // Candidates by kind of string: a word, a positive integer in
      // decimal (amounts in base units), a padded word.
      for (const c of ["discovery", "1000", "1", "x".repeat(Math.max(min, 1))]) {
        if (fits(c)) return c;
      }
      throw new Error(`no value for the string ${JSON.stringify(s).slice(0, 120)}`);
    }
  }
  throw new Error(`no value for ${JSON.stringify(s).slice(0, 120)}`);
}

const out = { server: client.getServerVersion() };

// 1. Every tool, over every page.
const tools = [];
let cursor;
do {
  const page = await client.listTools(cursor ? { cursor } : undefined);
  tools.push(...page.tools);
  cursor = page.nextCursor;
} while (cursor);
out.tools = tools.map((t) => ({ name: t.name, annotations: t.annotations ?? null }));

// 2. The upstream tools ward lists (its mcp_ namespace), by their hints:
// a read-only one and a state-changing one.
const upstream = tools.filter((t) => t.name.startsWith("mcp_"));
const read = upstream.find((t) => t.annotations?.readOnlyHint === true);
const write = upstream.find((t) => t.annotations?.readOnlyHint === false);
if (!read || !write) throw new Error(`no upstream read and write among ${upstream.map((t) => t.name)}`);

// A write returns a permit; commit_action runs it, once its announce
// delay (not_before) is over.
const commit = async (res) => {
  if (res.isError) return { isError: true, text: res.text };
  const pv = JSON.parse(res.text);
  if (pv.not_before) {
    const wait = Date.parse(pv.not_before) - Date.now();
    if (wait > 0) await new Promise((ok) => setTimeout(ok, wait + 100));
  }
  const c = await call("commit_action", { permit_id: pv.permit_id });
  return { isError: c.isError, permit_id: pv.permit_id, tool: pv.tool, text: c.text };
};

const writeArgs = value(write.inputSchema, write.inputSchema);
out.upstreamWrite = { name: write.name, args: writeArgs, ...(await commit(await call(write.name, writeArgs))) };
const readArgs = value(read.inputSchema, read.inputSchema);
const r = await call(read.name, readArgs);
out.upstreamRead = { name: read.name, args: readArgs, isError: r.isError, text: r.text };

// 3. A native action: its venues and params schema from
// query_state {"kind":"tools"}, its params from that schema.
const listing = await call("query_state", { kind: "tools", params: { kind: action } });
if (listing.isError) throw new Error(`query_state tools: ${listing.text}`);
const actions = JSON.parse(listing.text).actions.filter((a) => !a.direct);
if (actions.length === 0) throw new Error(`no native ${action}`);
const a = actions[0];
const params = value(a.params_schema, a.params_schema);
const args = a.call === "preview_action"
  ? { action_type: a.kind, venue: a.venue, params }
  : { kind: a.kind, venue: a.venue, params };
const native = await call(a.call, args);
out.native = { call: a.call, kind: a.kind, venue: a.venue, tool: a.tool, params, ...(a.call === "preview_action" ? await commit(native) : native) };

await transport.terminateSession();
await client.close();
console.log(JSON.stringify(out));
