// stream.mjs subscribes to a live price over ward's MCP endpoint with the
// official TypeScript client and waits for its update: it connects over
// streamable HTTP with a bearer token, asks for logging notifications
// (logging/setLevel info), subscribes to WETH's feed price through
// query_state, prints {"subscribed": id} on one line, then prints the first
// notifications/message of logger ward.stream that reports a new value of
// that subscription (or {"timeout": true} after 30 s) and exits.
//
// Environment: WARD_MCP_URL, WARD_TOKEN, WARD_WETH; WARD_NPM_DIR overrides
// where the npm packages are (default ../../../testdata/npm).
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const npm = process.env.WARD_NPM_DIR ?? join(here, "..", "..", "..", "testdata", "npm");
const dist = join(npm, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm");
const load = (p) => import(pathToFileURL(join(dist, p)).href);
const { Client } = await load("client/index.js");
const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");
const { LoggingMessageNotificationSchema } = await load("types.js");

const { WARD_MCP_URL: url, WARD_TOKEN: token, WARD_WETH: weth } = process.env;
if (!url || !token || !weth) {
  throw new Error("set WARD_MCP_URL, WARD_TOKEN and WARD_WETH");
}

const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: "ward-ts-stream-test", version: "1.0.0" });
const notices = [];
let arrived = () => {};
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
  if (n.params.logger === "ward.stream") {
    notices.push(n.params);
    arrived();
  }
});
await client.connect(transport);
await client.setLoggingLevel("info");

const res = await client.callTool({ name: "query_state", arguments: { kind: "subscribe_price", params: { token: weth } } });
const text = res.content.filter((c) => c.type === "text").map((c) => c.text).join("");
if (res.isError) {
  console.log(JSON.stringify({ error: text }));
  process.exit(1);
}
const id = JSON.parse(text).data.subscription_id;
console.log(JSON.stringify({ subscribed: id }));

const match = () => notices.find((p) => p.data?.subscription_id === id && p.data?.event === "subscription:update" && p.data?.value);
const found = await new Promise((resolve) => {
  const timer = setTimeout(() => resolve(null), 30_000);
  arrived = () => {
    const m = match();
    if (m) {
      clearTimeout(timer);
      resolve(m);
    }
  };
  arrived();
});
console.log(JSON.stringify(found ?? { timeout: true }));

await transport.terminateSession();
await client.close();
