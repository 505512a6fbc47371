// ward dashboard. Plain JavaScript, no dependencies.
//
// Safety rule: every string that comes from the API may be attacker-written.
// The DOM is built with el() and textContent only; data never reaches an
// HTML parser, a class name, a URL or a style (dashboard_test.go checks the
// source for the APIs that would parse HTML).
"use strict";

(() => {
  const TOKEN_KEY = "ward.token";
  const FEED_MAX = 200;
  const STALE_MS = 120_000;

  const $ = (id) => document.getElementById(id);

  // el builds an element. Attribute names are the script's own; API text
  // goes only into text nodes, textContent, title, aria-label and data-*
  // values, none of which is ever parsed as markup. Children are nodes or
  // strings.
  function el(tag, attrs, ...children) {
    const n = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === "class") n.className = v;
        else if (k === "text") n.textContent = String(v);
        else if (k === "title") n.title = String(v);
        else n.setAttribute(k, String(v));
      }
    }
    for (const c of children) {
      if (c === undefined || c === null || c === false) continue;
      n.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    }
    return n;
  }

  const str = (v) => (v === undefined || v === null ? "" : String(v));
  const clip = (s, n) => { s = str(s); return s.length > n ? s.slice(0, n - 1) + "…" : s; };
  const shortId = (s) => { s = str(s); return s.length > 14 ? s.slice(0, 6) + "…" + s.slice(-4) : s; };
  const shortHash = (s) => { s = str(s); return s ? s.slice(0, 10) : ""; };
  const two = (n) => String(n).padStart(2, "0");
  function clock(t) {
    const d = t instanceof Date ? t : new Date(t);
    if (isNaN(d)) return "";
    return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
  }
  function stamp(t) {
    const d = new Date(t);
    if (isNaN(d)) return "";
    return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${clock(d)}`;
  }
  function duration(ms) {
    if (ms === undefined || ms === null || isNaN(ms)) return "";
    if (ms < 1000) return `${Math.round(ms)} ms`;
    if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
    const m = Math.floor(ms / 60_000), s = Math.round((ms % 60_000) / 1000);
    return `${m}m ${two(s)}s`;
  }
  function usd(cents) {
    const n = Number(cents);
    if (!isFinite(n)) return "—";
    if (n >= 9.2e18) return "∞";
    const v = n / 100;
    if (Math.abs(v) >= 1e6) return "$" + (v / 1e6).toFixed(v >= 1e7 ? 0 : 1) + "M";
    if (Math.abs(v) >= 1e4) return "$" + (v / 1e3).toFixed(v >= 1e5 ? 0 : 1) + "k";
    return "$" + v.toLocaleString("en-US", { minimumFractionDigits: v % 1 ? 2 : 0, maximumFractionDigits: 2 });
  }
  function untilText(t) {
    const ms = new Date(t) - Date.now();
    if (isNaN(ms)) return "";
    if (ms <= 0) return "expired";
    const s = Math.ceil(ms / 1000);
    if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
    if (s >= 3600) return `${Math.floor(s / 3600)}h ${two(Math.floor((s % 3600) / 60))}m`;
    return s >= 60 ? `${Math.floor(s / 60)}m ${two(s % 60)}s` : `${s}s`;
  }

  // Tones come from fixed tables, never from the data itself.
  const decisionTone = { allow: "ok", quarantine: "warn", deny: "bad", vetoed: "bad" };
  const phaseTone = { thriving: "ok", stable: "ok", conservation: "warn", declining: "bad", terminal: "bad" };
  const riskTone = { routine: "none", standard: "none", elevated: "warn", high: "bad", critical: "bad" };
  const toneOf = (table, v) => table[str(v).toLowerCase()] || "none";

  // ---- toasts and banner -------------------------------------------------

  function toast(msg, tone = "info", ms = 5000) {
    const t = el("div", { class: "toast", "data-tone": tone, text: msg });
    $("toasts").append(t);
    while ($("toasts").childElementCount > 4) $("toasts").firstElementChild.remove();
    setTimeout(() => t.remove(), ms);
  }
  function banner(msg) {
    const b = $("banner");
    b.textContent = msg || "";
    b.hidden = !msg;
  }

  // ---- the API -----------------------------------------------------------

  let token = sessionStorage.getItem(TOKEN_KEY) || "";

  class APIError extends Error {
    constructor(status, code, message) {
      super(message || `HTTP ${status}`);
      this.status = status;
      this.code = code || "";
    }
  }

  async function errorOf(res) {
    let code = "", message = "", body = null;
    try {
      const j = await res.json();
      body = j;
      const e = j && (j.error || j);
      code = str(e.code);
      message = str(e.message);
    } catch (_) { /* not JSON */ }
    const err = new APIError(res.status, code, message || `${res.status} ${res.statusText}`);
    err.body = body; // the parsed answer, for errors that carry more (a refused reload's problems)
    return err;
  }

  async function api(method, path, body, extra) {
    if (!token) { askToken(); throw new APIError(401, "NO_TOKEN", "no token"); }
    const opts = { method, headers: { ...extra, Authorization: "Bearer " + token, Accept: "application/json" }, cache: "no-store" };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, opts);
    } catch (e) {
      banner("ward cannot be reached: " + str(e && e.message));
      throw new APIError(0, "NETWORK", "ward cannot be reached");
    }
    if (res.status === 401) {
      const e = await errorOf(res);
      askToken("ward rejected the token (" + (e.code || "401") + "): paste a valid one.");
      throw e;
    }
    if (!res.ok) throw await errorOf(res);
    banner("");
    if (res.status === 204) return null;
    const text = await res.text();
    return text ? JSON.parse(text) : null;
  }

  // explain turns an API failure into a sentence for the owner.
  function explain(e, what) {
    if (e && e.status === 403) return `${what}: this token's role may not do that (an owner token is needed).`;
    if (e && e.status === 404) return `${what}: not found (${e.message}).`;
    if (e && e.status === 0) return `${what}: ward cannot be reached.`;
    return `${what}: ${e && e.code ? e.code + " — " : ""}${e && e.message ? e.message : "failed"}`;
  }

  // ---- token dialog ------------------------------------------------------

  function askToken(err) {
    const d = $("token-dialog");
    $("token-error").textContent = err || "";
    $("token-input").value = "";
    if (!d.open) d.showModal();
    $("token-input").focus();
    setConn("off", "no token");
  }

  $("token-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = $("token-input").value.trim();
    if (!v) return;
    token = v;
    $("token-connect").disabled = true;
    $("token-error").textContent = "";
    try {
      // An owner route: an agent or peer token is refused here (403).
      await api("GET", "/v1/permits?limit=1");
      sessionStorage.setItem(TOKEN_KEY, token);
      $("token-dialog").close();
      start();
    } catch (e) {
      $("token-error").textContent = e.status === 401 ? "ward rejected this token."
        : e.status === 403 ? "This token is not an owner's: the dashboard needs ward token create --role owner."
          : explain(e, "Connecting");
      token = "";
    } finally {
      $("token-connect").disabled = false;
    }
  });
  $("token-forget").addEventListener("click", () => {
    sessionStorage.removeItem(TOKEN_KEY);
    token = "";
    stop();
    hideSecret();
    $("token-input").value = "";
    $("token-error").textContent = "Token forgotten.";
  });
  $("token-dialog").addEventListener("cancel", (ev) => { if (!token) ev.preventDefault(); });
  $("token-btn").addEventListener("click", () => askToken(""));

  // ---- header: gate state ------------------------------------------------

  let halted = false;

  function setConn(state, text) {
    $("conn").dataset.state = state;
    $("conn").querySelector(".conn-text").textContent = text;
  }

  function setPill(node, text, tone, title) {
    node.textContent = text;
    node.dataset.tone = tone;
    node.title = title || "";
  }

  const isUnlimited = (w) => !!(w && (w.unlimited || Number(w.limit_cents) >= 9.2e18));

  // spendBar shows the sliding day's spend (every session) against its
  // limit: what executed, and what pending permits hold on top of it.
  function spendBar(w) {
    const spent = Number(w.spent_cents) || 0, held = Number(w.held_cents) || 0, limit = Number(w.limit_cents) || 0;
    const unlimited = isUnlimited(w);
    const frac = (v) => (unlimited ? 0 : limit <= 0 ? (v > 0 ? 1 : 0) : Math.min(1, v / limit));
    const used = frac(spent + held);
    const fill = el("div", { class: "m-fill" });
    fill.style.width = (frac(spent) * 100).toFixed(1) + "%";
    const hold = el("div", { class: "m-held" });
    hold.style.width = (Math.max(0, used - frac(spent)) * 100).toFixed(1) + "%";
    const value = `${usd(spent)}${held ? ` + ${usd(held)} held` : ""} / ${unlimited ? "no limit" : usd(limit)}`;
    return el("div", { class: "meter", "data-level": used >= 0.9 ? "bad" : used >= 0.7 ? "warn" : "ok",
      title: "Spend of every session in the sliding 24 hours: executed, plus what pending permits hold" },
    el("span", { class: "m-name", text: "24 h" }),
    el("span", { class: "m-val", text: value }),
    el("div", { class: "m-bar" }, fill, hold));
  }

  // meters renders GET /v1/gate's spend windows. The tick and session
  // windows there are the caller's own session (this dashboard's), so only
  // their limits are shown; the daily window counts every session, and
  // agent_spend has each agent session's (agentMeters).
  function meters(g) {
    const ws = Array.isArray(g.spend) ? g.spend : [];
    const by = Object.fromEntries(ws.map((w) => [str(w.window), w]));
    const out = [];
    if (by.daily) out.push(spendBar(by.daily));
    const caps = [];
    for (const [name, label] of [["tick", "per tick"], ["session", "per session"]]) {
      const w = by[name];
      if (w) caps.push(`${isUnlimited(w) ? "no limit" : usd(w.limit_cents)} ${label}`);
    }
    if (caps.length) out.push(el("div", { class: "caps", text: "caps: " + caps.join(" · "), title: "Limits of each agent session" }));
    out.push(...agentMeters(g));
    $("meters").replaceChildren(...(out.length ? out : [el("span", { class: "muted", text: "no limits reported" })]));
  }

  let ownSession = ""; // the dashboard's own gate session, for its chain reads

  function renderGate(g) {
    if (!g || typeof g !== "object") return;
    const phase = str(g.phase) || "unknown";
    setPill($("phase"), phase, toneOf(phaseTone, phase));
    halted = !!g.halted;
    const why = str(g.halt_reason);
    setPill($("halt"), halted ? "halted" + (why ? ": " + clip(why, 40) : "") : "running", halted ? "bad" : "ok", why);
    const btn = $("halt-btn");
    btn.disabled = false;
    btn.textContent = halted ? "Resume" : "Halt";
    btn.className = "btn small " + (halted ? "good" : "danger");
    meters(g);
    if (g.session_id) ownSession = str(g.session_id) + "-" + DASH_SESSION;
  }

  // The chain and the wallet are read through the tool gate (query_state)
  // in a session of the dashboard's own, whose events the feed leaves out.
  const DASH_SESSION = "dashboard";

  async function readState(kind) {
    const j = await api("POST", "/v1/call/query_state", { kind }, { "X-Ward-Session": DASH_SESSION });
    return j && j.data && typeof j.data === "object" ? j.data : {};
  }

  async function loadChain() {
    const [c, w] = await Promise.allSettled([readState("chain"), readState("native_balance")]);
    if (c.status === "fulfilled") {
      const d = c.value;
      const name = str(d.name), id = str(d.chain_id);
      $("chain").textContent = id ? (name ? `${name} · ${id}` : id) + (d.block_number !== undefined ? ` · #${str(d.block_number)}` : "") : "—";
      $("chain").title = id ? `chain ${id}, block ${str(d.block_number)} at ${str(d.block_time)}` : "";
    } else {
      $("chain").textContent = "—";
      $("chain").title = explain(c.reason, "Chain");
    }
    if (w.status === "fulfilled") {
      const d = w.value, addr = str(d.owner);
      const eth = Number(d.balance_eth);
      $("wallet").textContent = addr ? `${shortId(addr)} · ${isFinite(eth) ? eth.toLocaleString("en-US", { maximumFractionDigits: 4 }) : clip(d.balance_eth, 12)} ETH` : "—";
      $("wallet").title = addr;
    } else {
      $("wallet").textContent = "—";
      $("wallet").title = explain(w.reason, "Wallet");
    }
  }

  $("halt-btn").addEventListener("click", async () => {
    const resume = halted;
    let body;
    if (!resume) {
      const why = prompt("Halt every write until an owner resumes. Reason:", "halted from the dashboard");
      if (why === null) return;
      body = { reason: why.slice(0, 200) };
    }
    $("halt-btn").disabled = true;
    try {
      await api("POST", resume ? "/v1/gate/resume" : "/v1/gate/halt", body || {});
      toast(resume ? "Writes resumed." : "Writes halted.", resume ? "ok" : "warn");
    } catch (e) {
      if (e.status !== 401) toast(explain(e, resume ? "Resume" : "Halt"), "bad", 8000);
    } finally {
      refresh("gate");
    }
  });

  // ---- live feed ---------------------------------------------------------

  const feed = $("feed");
  const open = new Map(); // "session|tool|hash" → [row, ...] oldest first
  let feedTotal = 0;

  function key(ev) { return `${str(ev.session_id)}|${str(ev.tool)}|${str(ev.params_hash)}`; }

  function updateFeedMeta() {
    $("feed-empty").hidden = feed.childElementCount > 0;
    $("feed-count").textContent = feedTotal ? `${feedTotal} event${feedTotal === 1 ? "" : "s"}` : "";
  }

  function addRow(row) {
    feed.prepend(row.node);
    while (feed.childElementCount > FEED_MAX) {
      const last = feed.lastElementChild;
      last.remove();
    }
    updateFeedMeta();
  }

  // callRow is one tool call: its bar advances with tool:update events and
  // ends green (tool:end) or red (tool:error, gate:vetoed).
  function callRow(ev) {
    const fill = el("div", { class: "fill" });
    const bar = el("div", { class: "bar", "data-indeterminate": "" }, fill);
    const step = el("div", { class: "step", text: "starting…" });
    const dur = el("span", { class: "dur" });
    const node = el("li", { class: "row", "data-state": "running", "data-tool": str(ev.tool) },
      el("span", { class: "icon" }),
      el("div", { class: "who" },
        el("span", { class: "name", text: str(ev.tool) || "tool", title: str(ev.tool) }),
        el("span", { class: "sub", text: [shortId(ev.session_id), shortHash(ev.params_hash)].filter(Boolean).join(" · "), title: `session ${str(ev.session_id)}\narguments ${str(ev.params_hash)}` })),
      el("div", { class: "prog" }, bar, step),
      el("div", { class: "when" }, dur, el("span", { text: clock(ev.time) })));
    const row = { node, fill, bar, step, dur, key: key(ev), started: Date.now(), last: Date.now(), done: false };
    const list = open.get(row.key) || [];
    list.push(row);
    open.set(row.key, list);
    addRow(row);
    return row;
  }

  function findOpen(ev, loose) {
    let list = open.get(key(ev));
    if ((!list || !list.length) && loose) {
      // gate:vetoed carries no argument hash: the session's oldest open
      // call of that tool.
      for (const [k, l] of open) {
        if (l.length && k.startsWith(`${str(ev.session_id)}|${str(ev.tool)}|`)) { list = l; break; }
      }
    }
    return list && list.length ? list[0] : null;
  }

  function close(row, state, text, ms) {
    row.done = true;
    row.node.dataset.state = state;
    row.bar.removeAttribute("data-indeterminate");
    if (state === "bad") row.fill.style.width = row.fill.style.width || "100%";
    else row.fill.style.width = "100%";
    row.step.textContent = text;
    row.step.title = text;
    row.dur.textContent = duration(ms !== undefined ? ms : Date.now() - row.started);
    const list = open.get(row.key);
    if (list) {
      const i = list.indexOf(row);
      if (i >= 0) list.splice(i, 1);
      if (!list.length) open.delete(row.key);
    }
  }

  function noteRow(ev, tone, text, detail) {
    const node = el("li", { class: "row note", "data-state": tone === "none" ? "note" : tone },
      el("span", { class: "icon" }),
      el("div", { class: "who" }, el("span", { class: "name", text, title: text })),
      el("div", { class: "prog" }, el("div", { class: "step", text: detail || "", title: detail || "" })),
      el("div", { class: "when" }, el("span", { text: clock(ev.time) })));
    addRow({ node });
  }

  const joined = (...xs) => xs.map(str).filter(Boolean).join(" · ");

  function onEvent(ev) {
    const kind = str(ev.kind);
    if (ownSession && ev.session_id === ownSession) return; // the dashboard's own reads
    feedTotal++;
    switch (kind) {
      case "tool:start":
        callRow(ev);
        break;
      case "tool:update": {
        const row = findOpen(ev) || callRow(ev);
        row.last = Date.now();
        const i = Number(ev.step_index) || 0, n = Number(ev.total_steps) || 0;
        if (n > 0) {
          row.node.dataset.step = `${i + 1}/${n}`;
          row.bar.removeAttribute("data-indeterminate");
          row.fill.style.width = Math.min(96, ((i + 1) / n) * 100).toFixed(1) + "%";
          row.step.textContent = `step ${i + 1} of ${n}` + (ev.step ? ` · ${str(ev.step)}` : "");
        } else {
          row.step.textContent = str(ev.step) || "working…";
        }
        row.step.title = row.step.textContent;
        break;
      }
      case "tool:end": {
        const row = findOpen(ev) || callRow(ev);
        const ok = ev.success !== false;
        close(row, ok ? "ok" : "bad", ok ? (str(ev.summary) || "done") : joined("returned an error", ev.summary), ev.duration_ms);
        break;
      }
      case "tool:error": {
        const row = findOpen(ev) || callRow(ev);
        close(row, "bad", joined(ev.code, ev.message) || "failed", ev.duration_ms);
        break;
      }
      case "gate:vetoed": {
        const row = findOpen(ev, true);
        if (row) close(row, "bad", "vetoed · " + joined(ev.code, ev.message));
        else noteRow(ev, "bad", `${str(ev.tool) || "call"} vetoed`, joined(ev.code, ev.message));
        noteVeto(ev);
        refresh("decisions");
        break;
      }
      case "permit:created": {
        const row = findOpen(ev);
        const text = joined("permit " + shortId(ev.permit_id), ev.summary);
        if (row) close(row, "ok", text);
        else noteRow(ev, "info", `${str(ev.tool)}: permit issued`, text);
        refresh("permits", "decisions", "gate");
        break;
      }
      case "permit:consumed":
        noteRow(ev, "info", `${str(ev.tool) || "permit"}: permit committed`, shortId(ev.permit_id));
        refresh("permits", "gate", "chain");
        break;
      case "permit:cancelled":
      case "permit:expired":
        noteRow(ev, "none", `permit ${kind.slice(7)}`, shortId(ev.permit_id));
        refresh("permits", "gate");
        break;
      case "quarantine:held":
        noteRow(ev, "warn", `${str(ev.tool)} held for review`, joined(ev.code, ev.message));
        refresh("quarantine", "decisions");
        break;
      case "quarantine:decided":
        noteRow(ev, ev.message === "approved" ? "ok" : "warn", `${str(ev.tool)} ${str(ev.message) || "reviewed"}`, "item " + shortId(ev.summary));
        refresh("quarantine", "decisions", "sessions");
        break;
      case "quarantine:outcome":
        noteRow(ev, ev.success ? "ok" : "bad", `${str(ev.tool)}: approved call ${ev.success ? "ran" : "refused"}`,
          joined(ev.code, ev.permit_id ? "permit " + shortId(ev.permit_id) : "", ev.message));
        refresh("quarantine", "permits");
        break;
      case "gate:halted":
        noteRow(ev, "bad", "writes halted", str(ev.message));
        refresh("gate");
        break;
      case "gate:resumed":
        noteRow(ev, "ok", "writes resumed", ev.message ? "by " + str(ev.message) : "");
        refresh("gate");
        break;
      case "gate:phase":
        noteRow(ev, "warn", "phase → " + str(ev.message), ev.summary ? "by " + str(ev.summary) : "");
        refresh("gate");
        break;
      case "subscription:update":
      case "subscription:ended": {
        // A stream_ tool's subscription: its summary is the subscription
        // as JSON ({subscription_id, kind, target, value}).
        let d = {};
        try { d = JSON.parse(str(ev.summary)) || {}; } catch { d = {}; }
        const what = joined(d.kind, d.target);
        if (kind === "subscription:ended") noteRow(ev, "none", `subscription ${str(d.subscription_id)} ended`, joined(what, ev.message));
        else if (ev.success) noteRow(ev, "info", `${str(d.kind) || "subscription"} changed`, what);
        else noteRow(ev, "warn", `${str(d.kind) || "subscription"} unreadable`, joined(what, ev.code));
        break;
      }
      case "stream:gap":
        noteRow(ev, "warn", "events missed", ev.dropped ? `${str(ev.dropped)} dropped: the lists were reloaded` : "older events are gone: the lists were reloaded");
        refresh("gate", "decisions", "permits", "quarantine");
        break;
      default:
        noteRow(ev, "none", kind || "event", joined(ev.tool, ev.message));
    }
    if (kind.startsWith("tool:")) refresh("decisions");
    updateFeedMeta();
  }

  // Calls whose end never arrived (a dropped event) stop pulsing.
  setInterval(() => {
    const now = Date.now();
    for (const list of open.values()) {
      for (const row of list.slice()) {
        if (now - row.last > STALE_MS) close(row, "stale", "no end seen (the event may have been dropped)");
      }
    }
  }, 10_000);

  $("feed-clear").addEventListener("click", () => {
    feed.replaceChildren();
    open.clear();
    feedTotal = 0;
    updateFeedMeta();
  });

  // ---- the event stream --------------------------------------------------
  //
  // GET /v1/events is read with fetch so the token goes in the
  // Authorization header (EventSource cannot send headers, and a token in a
  // URL ends up in logs). The parser follows the SSE format: "data:" lines
  // up to a blank line make one event; "id:" is remembered and sent back as
  // Last-Event-ID on reconnect.

  let streamAbort = null;
  let lastEventID = "";

  async function stream(signal) {
    const headers = { Authorization: "Bearer " + token, Accept: "text/event-stream" };
    if (lastEventID) headers["Last-Event-ID"] = lastEventID;
    const res = await fetch("/v1/events", { headers, signal, cache: "no-store" });
    if (res.status === 401) {
      const e = await errorOf(res);
      askToken("ward rejected the token (" + (e.code || "401") + "): paste a valid one.");
      throw e;
    }
    if (!res.ok) throw await errorOf(res);
    setConn("live", "live");
    refresh("gate", "decisions", "permits", "quarantine");
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "", data = [], id = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += value;
      if (buf.length > 4 << 20) throw new Error("an event is larger than 4 MiB");
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        let line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.endsWith("\r")) line = line.slice(0, -1);
        if (line === "") {
          if (id !== null) lastEventID = id;
          if (data.length) dispatch(data.join("\n"));
          data = [];
          id = null;
          continue;
        }
        if (line.startsWith(":")) continue;
        const c = line.indexOf(":");
        const field = c < 0 ? line : line.slice(0, c);
        let val = c < 0 ? "" : line.slice(c + 1);
        if (val.startsWith(" ")) val = val.slice(1);
        if (field === "data") data.push(val);
        else if (field === "id" && !val.includes("\0")) id = val;
      }
    }
  }

  // dispatch hands one event to the feed. The server replays what a
  // reconnect missed (Last-Event-ID) and says when events are lost
  // (stream:gap), so the client keeps no sequence bookkeeping of its own.
  function dispatch(text) {
    let ev;
    try { ev = JSON.parse(text); } catch (_) { return; }
    if (ev && typeof ev === "object") onEvent(ev);
  }

  async function runStream() {
    stop();
    const ctl = new AbortController();
    streamAbort = ctl;
    let backoff = 500;
    while (!ctl.signal.aborted && token) {
      setConn("wait", "connecting");
      try {
        await stream(ctl.signal);
        backoff = 500;
      } catch (e) {
        if (ctl.signal.aborted) return;
        if (e && e.status === 401) { setConn("off", "no token"); return; }
        if (e && e.status === 403) {
          askToken("This token may not watch events: the dashboard needs an owner token.");
          return;
        }
        if (e && e.status) toast(explain(e, "Live events"), "bad", 8000);
      }
      if (ctl.signal.aborted) return;
      setConn("wait", "reconnecting");
      await new Promise((r) => setTimeout(r, backoff));
      backoff = Math.min(backoff * 2, 10_000);
    }
  }

  function stop() {
    if (streamAbort) streamAbort.abort();
    streamAbort = null;
    setConn("off", "offline");
  }

  // ---- lists: decisions, permits, quarantine -----------------------------

  const arrayOf = (j, key) => (j && Array.isArray(j[key]) ? j[key] : []);

  function decisionCells(d, review) {
    const dec = str(d.decision), reason = str(d.reason), msg = str(d.message);
    return [
      el("td", { text: clock(d.time), title: stamp(d.time) }),
      el("td", { text: str(d.tool), title: str(d.tool) }),
      el("td", {}, el("span", { class: "pill", "data-tone": toneOf(decisionTone, dec), text: dec || "—" }),
        review ? el("span", { class: "pill review", "data-review": review, "data-tone": toneOf(reviewTone, review), text: review,
          title: "what the owner made of the held call" }) : ""),
      el("td", {}, reason ? el("span", { class: "code", text: reason, title: reason }) : ""),
      el("td", { text: msg, title: [msg, d.rule ? "rule " + str(d.rule) : "", d.session_id ? "session " + str(d.session_id) : ""].filter(Boolean).join("\n") }),
    ];
  }

  async function loadDecisions() {
    const [dj, reviews] = await Promise.all([api("GET", "/v1/decisions?origin=gate&limit=50"), heldReviews()]);
    const rows = withVetoes(arrayOf(dj, "decisions")).filter((d) => !ownSession || d.session_id !== ownSession);
    $("decisions").replaceChildren(...rows.map((d) => el("tr", { "data-id": str(d.id) }, ...decisionCells(d, reviews.get(str(d.id))))));
    $("d-empty").hidden = rows.length > 0;
    $("d-count").textContent = rows.length ? `latest ${rows.length}` : "";
  }

  function countBadge(node, n, tone) {
    node.textContent = String(n);
    node.dataset.tone = n ? tone : "none";
  }

  async function cancelPermit(p, btn) {
    if (!confirm(`Cancel the permit for ${str(p.tool)}? It can never be committed.`)) return;
    btn.disabled = true;
    try {
      await api("POST", `/v1/permits/${encodeURIComponent(str(p.id))}/cancel`, {});
      toast(`Cancelled the permit for ${str(p.tool)}.`, "warn");
    } catch (e) {
      if (e.status !== 401) toast(explain(e, "Cancel"), "bad", 8000);
      btn.disabled = false;
    } finally {
      refresh("permits");
    }
  }

  async function loadPermits() {
    const rows = arrayOf(await api("GET", "/v1/permits"), "permits");
    $("permits").replaceChildren(...rows.map((p) => {
      const risk = str(p.risk_tier);
      const cancel = el("button", { type: "button", class: "btn small ghost", text: "Cancel", title: "Cancel this permit" });
      cancel.addEventListener("click", () => cancelPermit(p, cancel));
      const early = p.not_before && new Date(p.not_before) > Date.now() ? `\ncommittable from ${stamp(p.not_before)}` : "";
      return el("tr", { "data-id": str(p.id), title: [`permit ${str(p.id)}`, str(p.summary), `session ${str(p.session_id)}`].filter(Boolean).join("\n") + early },
        el("td", {},
          el("span", { class: "cell-main", text: str(p.tool) }),
          el("span", { class: "cell-sub", text: p.description ? briefOf(p.description) || str(p.summary) : str(p.summary) || shortId(p.id) })),
        el("td", {}, el("span", { class: "pill", "data-tone": toneOf(riskTone, risk), text: risk || "—" })),
        el("td", { class: "num", text: usd(p.value_cents) }),
        el("td", { class: "num", "data-expires": str(p.expires_at), text: untilText(p.expires_at), title: stamp(p.expires_at) }),
        el("td", { class: "num" }, cancel));
    }));
    $("p-empty").hidden = rows.length > 0;
    countBadge($("p-count"), rows.length, "info");
  }

  // Countdowns tick without re-rendering (no layout jumps).
  setInterval(() => {
    for (const n of document.querySelectorAll("[data-expires]")) n.textContent = untilText(n.dataset.expires);
  }, 1000);

  // reviewed says what an approval did, from the item it returns.
  function reviewed(it, verdict) {
    const name = str(it && it.tool) || "the call";
    if (verdict === "reject") return [`Rejected ${name}: it will not run.`, "warn"];
    const o = it && it.outcome;
    if (!o) return [`Approved ${name}: it runs when the agent next asks for it.`, "ok"];
    if (!o.ok) return [`Approved ${name}, but it was refused: ${[str(o.code), str(o.message)].filter(Boolean).join(" — ")}`, "bad"];
    if (o.permit) return [`Approved ${name}: permit ${shortId(o.permit.permit_id)} issued for the agent to commit.`, "ok"];
    return [`Approved ${name}: it ran.`, "ok"];
  }

  async function review(item, verdict, buttons) {
    for (const b of buttons) b.disabled = true;
    try {
      const it = await api("POST", `/v1/quarantine/${encodeURIComponent(str(item.id))}/${verdict}`, {});
      const [msg, tone] = reviewed(it, verdict);
      toast(msg, tone, 7000);
    } catch (e) {
      if (e.status !== 401) toast(explain(e, verdict === "approve" ? "Approve" : "Reject"), "bad", 8000);
      for (const b of buttons) b.disabled = false;
    } finally {
      refresh("quarantine", "decisions", "permits");
    }
  }

  function quarantineCard(q) {
    const approve = el("button", { type: "button", class: "btn small good", text: "Approve", "data-action": "approve" });
    const reject = el("button", { type: "button", class: "btn small danger", text: "Reject", "data-action": "reject" });
    approve.addEventListener("click", () => review(q, "approve", [approve, reject]));
    reject.addEventListener("click", () => review(q, "reject", [approve, reject]));
    const reason = str(q.reason), msg = str(q.message);
    const args = q.args === undefined ? "" : JSON.stringify(q.args);
    const via = q.facade ? ` via ${str(q.facade)}` : "";
    return el("li", { class: "card", "data-id": str(q.id) },
      el("div", { class: "title", text: str(q.tool) || "call", title: `${str(q.tool)}${via} (${str(q.tier)})\nitem ${str(q.id)}` }),
      el("div", { class: "buttons" }, approve, reject),
      el("div", { class: "meta" },
        reason ? el("span", { class: "code", text: reason, title: q.rule ? "rule " + str(q.rule) : reason }) : "",
        ` ${clock(q.time)} · ${shortId(q.session_id)} · expires in `,
        el("span", { "data-expires": str(q.expires_at), text: untilText(q.expires_at) })),
      el("div", { class: "msg", text: msg, title: msg }),
      q.description ? describeCall(q.description, q.rule) : el("div", { class: "args mono", text: clip(args, 300), title: clip(args, 4000) }));
  }

  async function loadQuarantine() {
    const rows = arrayOf(await api("GET", "/v1/quarantine"), "items");
    $("quarantine").replaceChildren(...rows.map(quarantineCard));
    $("q-empty").hidden = rows.length > 0;
    countBadge($("q-count"), rows.length, "warn");
  }

  async function loadGate() { renderGate(await api("GET", "/v1/gate")); }

  const loaders = { gate: loadGate, chain: loadChain, decisions: loadDecisions, permits: loadPermits, quarantine: loadQuarantine, tokens: loadTokens,
    sessions: loadSessions };
  const pending = new Set();
  let refreshTimer = null;

  // refresh reloads the named parts, coalescing bursts of events.
  function refresh(...names) {
    for (const n of names) pending.add(n);
    if (refreshTimer || !token) return;
    refreshTimer = setTimeout(async () => {
      refreshTimer = null;
      const names = [...pending];
      pending.clear();
      if (names.includes("gate") || !ownSession) await run("gate");
      await Promise.all(names.filter((n) => n !== "gate").map(run));
    }, 150);
  }

  async function run(name) {
    try { await loaders[name](); } catch (e) {
      if (e && e.status && e.status !== 401) toast(explain(e, "Loading " + name), "bad", 8000);
    }
  }

  // ---- what a held call would do, reviews, agent meters, sessions ---------
  //
  // The gate describes a held call once, when it holds it (the item's
  // "description"): tokens with the address book's symbols and decimals,
  // the USD value, the parties in full, the simulation's balance changes,
  // the rule and the taint. Symbols can be chosen by whoever deployed a
  // token: they are text, and a symbol the book does not vouch for is
  // flagged.

  const reviewTone = { approved: "ok", rejected: "bad", expired: "none", pending: "warn" };

  // briefOf is a description in a few words: "$250.00 · out 250 USDC".
  function briefOf(d) {
    const parts = [];
    if (d.value) parts.push(str(d.value));
    for (const t of Array.isArray(d.tokens) ? d.tokens.slice(0, 4) : []) {
      parts.push(`${str(t.direction)} ${str(t.display)}${t.symbol ? " " + str(t.symbol) : ""}`);
    }
    return parts.join(" · ");
  }

  function descRow(field, label, ...value) {
    return el("div", { class: "d-row", "data-field": field }, el("span", { class: "d-label", text: label }), el("span", { class: "d-value" }, ...value));
  }

  // describeCall renders a held call's description.
  function describeCall(d, rule) {
    const rows = [];
    if (d.summary) rows.push(descRow("summary", "does", str(d.summary)));
    if (d.value) {
      const unpriced = d.value === "unpriced";
      rows.push(descRow("value", "value", el("span", { class: unpriced ? "warn-text" : "strong", text: unpriced ? "unpriced (no price feed values it)" : str(d.value),
        title: Array.isArray(d.unpriced) ? d.unpriced.map(str).join("\n") : "" })));
    }
    for (const t of Array.isArray(d.tokens) ? d.tokens.slice(0, 16) : []) {
      const flag = t.symbol_mismatch
        ? el("span", { class: "flag", "data-flag": "symbol", text: t.listed ? `claimed “${str(t.claimed_symbol)}”, the address book says ${str(t.symbol)}` : "not in the address book" })
        : "";
      rows.push(descRow("token", str(t.direction),
        el("span", { class: "strong", text: `${str(t.display)}${t.symbol ? " " + str(t.symbol) : ""}` }), " ",
        el("span", { class: "mono addr", text: str(t.token) }),
        t.spender ? el("span", { class: "mono addr", text: " spender " + str(t.spender) }) : "", flag));
    }
    for (const p of Array.isArray(d.parties) ? d.parties.slice(0, 16) : []) {
      rows.push(descRow(str(p.role) === "contract" ? "contract" : "party", str(p.role),
        el("span", { class: "mono addr", text: str(p.address) }), " ",
        p.name ? el("span", { class: "name", text: str(p.name) }) : el("span", { class: "flag", text: "unknown address" })));
    }
    for (const b of Array.isArray(d.balance_changes) ? d.balance_changes.slice(0, 16) : []) {
      rows.push(descRow("balance", "balance", str(b.display)));
    }
    if (d.simulation) rows.push(descRow("simulation", "simulation", el("span", { class: "warn-text", text: clip(str(d.simulation), 400) })));
    if (rule || d.rule) rows.push(descRow("rule", "rule", el("span", { class: "mono", text: str(rule || d.rule) })));
    if (d.reason) rows.push(descRow("reason", "reason", el("span", { class: "code", text: str(d.reason) })));
    const prov = d.provenance && typeof d.provenance === "object" ? Object.entries(d.provenance).map(([k, v]) => `${str(k)}: ${str(v)}`) : [];
    if (d.taint || prov.length || d.hijacked) {
      rows.push(descRow("taint", "taint", [str(d.taint), prov.length ? "not trusted: " + prov.join(", ") : "", d.hijacked ? "follows instructions it read" : ""]
        .filter(Boolean).join(" · ")));
    }
    const args = d.args === undefined ? "" : JSON.stringify(d.args);
    rows.push(descRow("args", "args", el("span", { class: "mono args-text", text: clip(args, 600), title: clip(args, 4000) })));
    return el("div", { class: "desc" }, ...rows);
  }

  // heldReviews maps the decision ids of recently held calls to what the
  // owner made of them (approved, rejected, expired, pending).
  async function heldReviews() {
    const out = new Map();
    try {
      for (const q of arrayOf(await api("GET", "/v1/quarantine?status=all&limit=200"), "items")) {
        if (q.decision_id) out.set(str(q.decision_id), str(q.status));
      }
    } catch (e) {
      if (e.status === 401) throw e;
    }
    return out;
  }

  // agentMeters shows the spend of the three most recently active agent
  // sessions against the per-session limit (GET /v1/gate's agent_spend,
  // for an owner); the header says how many more there are, so that it
  // stays small.
  function agentMeters(g) {
    const out = [];
    const all = Array.isArray(g.agent_spend) ? g.agent_spend : [];
    for (const a of all.slice(0, 3)) {
      const w = (Array.isArray(a.spend) ? a.spend : []).find((x) => str(x.window) === "session");
      if (!w) continue;
      const bar = spendBar(w);
      bar.dataset.session = str(a.session_id);
      bar.title = `Spend of agent session ${str(a.name) || str(a.session_id)} (${str(a.session_id)}): executed, plus what its pending permits hold`;
      bar.querySelector(".m-name").textContent = clip(str(a.name) || shortId(a.session_id), 16);
      out.push(bar);
    }
    if (all.length > 3) out.push(el("div", { class: "caps", text: `+ ${all.length - 3} more agent sessions (see Sessions)` }));
    return out;
  }

  // loadSessions renders the agent sessions: taint, review, and the
  // provenance of the values their held calls carry.
  async function loadSessions() {
    const [sj, qj] = await Promise.all([api("GET", "/v1/sessions"), api("GET", "/v1/quarantine")]);
    const heldBy = new Map();
    for (const q of arrayOf(qj, "items")) {
      const list = heldBy.get(str(q.session_id)) || [];
      list.push(q);
      heldBy.set(str(q.session_id), list);
    }
    const rows = arrayOf(sj, "sessions").filter((x) => !ownSession || x.session_id !== ownSession);
    $("sessions").replaceChildren(...rows.map((x) => {
      const held = heldBy.get(str(x.session_id)) || [];
      const prov = [];
      for (const q of held) {
        const p = q.description && q.description.provenance;
        if (p && typeof p === "object") for (const [k, v] of Object.entries(p)) prov.push(`${str(q.tool)}.${str(k)}: ${str(v)}`);
      }
      const taint = str(x.taint) || "clean";
      const review = [x.judge ? "judge " + str(x.judge) : "", Array.isArray(x.reviewers) && x.reviewers.length ? "reviewers " + x.reviewers.map(str).join(", ") : ""]
        .filter(Boolean).join(" · ");
      return el("tr", { "data-session": str(x.session_id) },
        el("td", {}, el("span", { class: "cell-main", text: x.name === undefined ? "—" : str(x.name) || "(default)" }),
          el("span", { class: "cell-sub mono", text: str(x.session_id), title: x.principal_id ? "principal " + str(x.principal_id) : "" })),
        el("td", {}, el("span", { class: "pill", "data-tone": toneOf(taintTone, taint), "data-taint": taint, text: taint }),
          x.isolated ? el("span", { class: "cell-sub", text: "isolated orchestrator" }) : ""),
        el("td", { text: review || "—" }),
        el("td", { class: "num", text: `${Number(x.decisions) || 0} · ${Number(x.denied) || 0} denied · ${Number(x.quarantined) || 0} held` }),
        el("td", { "data-cell": "held", text: held.length ? `${held.length} waiting` + (prov.length ? " · " + prov.join(", ") : "") : "—",
          title: prov.join("\n") }),
        el("td", { text: clock(x.last_seen), title: stamp(x.last_seen) }));
    }));
    $("s-empty").hidden = rows.length > 0;
    $("s-count").textContent = rows.length ? `${rows.length} session${rows.length === 1 ? "" : "s"}` : "";
  }

  const taintTone = { clean: "ok", tainted: "warn", review: "bad" };

  // Vetoes (a hook's refusal, a rejected call sent again) are not in the
  // decision trail: the ones the stream brought are kept, newest first,
  // and shown among the decisions.
  const recentVetoes = [];

  function noteVeto(ev) {
    recentVetoes.unshift({ time: ev.time, tool: ev.tool, decision: "vetoed", reason: ev.code, message: ev.message, session_id: ev.session_id });
    if (recentVetoes.length > 20) recentVetoes.pop();
  }

  function withVetoes(rows) {
    if (!recentVetoes.length) return rows;
    const at = (d) => { const t = new Date(d.time).getTime(); return isNaN(t) ? Infinity : t; };
    return [...recentVetoes, ...rows].sort((a, b) => at(b) - at(a)).slice(0, 50 + recentVetoes.length);
  }

  // ---- audit search ------------------------------------------------------

  const columns = {
    decisions: [
      ["Time", "c-time", (d) => el("td", { text: stamp(d.time), title: str(d.id) })],
      ["Tool", "", (d) => el("td", { text: str(d.tool), title: str(d.tool) })],
      ["Decision", "c-dec", (d) => el("td", {}, el("span", { class: "pill", "data-tone": toneOf(decisionTone, d.decision), text: str(d.decision) || "—" }))],
      ["Reason", "c-code", (d) => el("td", {}, d.reason ? el("span", { class: "code", text: str(d.reason), title: str(d.reason) }) : "")],
      ["Rule", "", (d) => el("td", { class: "mono", text: str(d.rule), title: str(d.rule) })],
      ["Message", "c-wide", (d) => el("td", { text: str(d.message), title: [str(d.message), str(d.diagnostic)].filter(Boolean).join("\n") })],
      ["Session", "", (d) => el("td", { class: "mono", text: shortId(d.session_id), title: str(d.session_id) })],
    ],
    actions: [
      ["Time", "c-time", (a) => el("td", { text: stamp(a.time), title: str(a.id) })],
      ["Kind", "", (a) => el("td", { text: str(a.kind) })],
      ["Tool", "", (a) => el("td", { text: str(a.tool), title: str(a.tool) })],
      ["Status", "c-dec", (a) => el("td", {}, a.status ? el("span", { class: "pill", "data-tone": toneOf({ executed: "ok", blocked: "bad", failed: "bad", deferred: "info" }, a.status), text: str(a.status) }) : "")],
      ["Reason", "c-code", (a) => el("td", {}, a.block_reason ? el("span", { class: "code", text: str(a.block_reason) }) : "")],
      ["Permit", "", (a) => el("td", { class: "mono", text: shortId(a.permit_id), title: str(a.permit_id) })],
      ["Tx", "", (a) => el("td", { class: "mono", title: str(a.tx_hash) }, /^https?:\/\//.test(str(a.tx_url))
        ? el("a", { href: a.tx_url, target: "_blank", rel: "noopener noreferrer", text: shortId(a.tx_hash) })
        : shortId(a.tx_hash))],
      ["Session", "", (a) => el("td", { class: "mono", text: shortId(a.session_id), title: str(a.session_id) })],
    ],
  };

  function syncFilters() {
    const trail = $("a-trail").value;
    for (const l of document.querySelectorAll("#audit-form [data-for]")) l.hidden = l.dataset.for !== trail;
  }
  $("a-trail").addEventListener("change", syncFilters);
  $("audit-form").addEventListener("reset", () => setTimeout(syncFilters));

  $("audit-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const trail = f.get("trail") === "actions" ? "actions" : "decisions";
    const allowed = trail === "decisions" ? ["tool", "decision", "reason", "session_id", "limit"] : ["tool", "kind", "permit_id", "session_id", "limit"];
    const q = new URLSearchParams();
    for (const k of allowed) {
      const v = str(f.get(k)).trim();
      if (v) q.set(k, v);
    }
    for (const k of ["since", "until"]) {
      const v = str(f.get(k));
      if (v) {
        const d = new Date(v);
        if (!isNaN(d)) q.set(k, d.toISOString());
      }
    }
    const cols = columns[trail];
    $("audit-head").replaceChildren(el("tr", {}, ...cols.map(([name]) => el("th", { text: name }))));
    $("a-count").textContent = "searching…";
    try {
      const j = await api("GET", `/v1/${trail}?${q}`);
      const rows = arrayOf(j, trail);
      $("audit").replaceChildren(...rows.map((r) => el("tr", {}, ...cols.map(([, , cell]) => cell(r)))));
      $("a-empty").hidden = rows.length > 0;
      $("a-empty").textContent = "Nothing matches these filters.";
      $("a-count").textContent = `${rows.length} ${trail === "decisions" ? "decision" : "action"}${rows.length === 1 ? "" : "s"}`;
    } catch (e) {
      $("a-count").textContent = "";
      $("audit").replaceChildren();
      $("a-empty").hidden = false;
      $("a-empty").textContent = explain(e, "Search");
    }
  });

  // ---- tokens ------------------------------------------------------------
  //
  // The owner lists, creates, rotates and revokes bearer tokens. A new or
  // rotated secret is shown once, as the value of #k-secret-value (a
  // property, never an attribute, so it is in no serialised markup); it is
  // kept in no variable past the call that received it, in no storage and
  // in no toast, and dismissing it empties the field. Rows act on a token by
  // its id: a name is unique only among tokens that are not revoked.

  const statusTone = { live: "ok", expired: "warn", revoked: "bad" };

  function tokenStatus(k) {
    if (k.revoked) return "revoked";
    if (k.expires && new Date(k.expires) <= Date.now()) return "expired";
    return "live";
  }

  function tokenError(msg) { $("k-error").textContent = msg || ""; }

  // tokenProblem says why a token action failed: a refused request (400,
  // 409) is about the owner's input, and ward's message says what to fix.
  function tokenProblem(e, what) {
    if (e && (e.status === 400 || e.status === 409) && e.message) return `${what}: ${e.message}.`;
    return explain(e, what);
  }

  function showSecret(secret, p, verb) {
    if (!secret) throw new APIError(502, "NO_SECRET", "ward returned no token");
    const name = str(p && p.name), role = str(p && p.role);
    $("k-secret-h").textContent = `${verb} ${role ? role + " " : ""}token “${name}”: copy it now, it is not shown again.`;
    const f = $("k-secret-value");
    f.value = secret;
    $("k-secret").hidden = false;
    f.focus();
    f.select();
  }

  function hideSecret() {
    $("k-secret-value").value = "";
    $("k-secret-h").textContent = "";
    $("k-secret").hidden = true;
  }

  $("k-dismiss").addEventListener("click", () => {
    hideSecret();
    $("k-name").focus();
  });

  $("k-copy").addEventListener("click", async () => {
    const f = $("k-secret-value");
    if (!f.value) return;
    try {
      await navigator.clipboard.writeText(f.value);
    } catch (_) {
      // No clipboard API (a page not served from loopback or https) or no
      // permission: copy the selection instead.
      f.focus();
      f.select();
      if (!document.execCommand("copy")) {
        toast("The browser refused to copy: select the token and copy it by hand.", "bad", 8000);
        return;
      }
    }
    toast("Token copied to the clipboard.", "ok");
  });

  $("k-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const form = ev.target;
    const f = new FormData(form);
    const body = { role: str(f.get("role")) };
    const name = str(f.get("name")).trim(), ttl = str(f.get("ttl")).trim();
    if (name) body.name = name;
    if (ttl) body.ttl = ttl;
    tokenError("");
    $("k-create").disabled = true;
    try {
      const j = await api("POST", "/v1/tokens", body);
      showSecret(j && j.token, j && j.principal, "New");
      form.reset();
    } catch (e) {
      if (e.status !== 401) tokenError(tokenProblem(e, "Create"));
    } finally {
      $("k-create").disabled = false;
      refresh("tokens");
    }
  });

  async function rotateToken(k, btn) {
    tokenError("");
    btn.disabled = true;
    try {
      const j = await api("POST", `/v1/tokens/${encodeURIComponent(str(k.id))}/rotate`, {});
      showSecret(j && j.token, (j && j.principal) || k, "Rotated");
    } catch (e) {
      if (e.status !== 401) tokenError(tokenProblem(e, "Rotate"));
      btn.disabled = false;
    } finally {
      refresh("tokens");
    }
  }

  // Revoking asks first, in a dialog whose default button keeps the token.
  let revoking = null;

  function askRevoke(k) {
    revoking = k;
    $("r-text").textContent = `“${str(k.name)}” (${str(k.role)}, ${str(k.id)}) is refused from now on, ` +
      "its open event streams and sessions included. This cannot be undone; if it is this page's own token, the page will ask for another.";
    $("revoke-dialog").showModal();
  }

  $("r-cancel").addEventListener("click", () => {
    revoking = null;
    $("revoke-dialog").close();
  });
  $("revoke-dialog").addEventListener("cancel", () => { revoking = null; });

  $("revoke-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const k = revoking;
    revoking = null;
    $("revoke-dialog").close();
    if (!k) return;
    tokenError("");
    try {
      const info = await api("POST", `/v1/tokens/${encodeURIComponent(str(k.id))}/revoke`, {});
      toast(`Revoked “${str((info && info.name) || k.name)}”.`, "warn");
    } catch (e) {
      if (e.status !== 401) tokenError(tokenProblem(e, "Revoke"));
    } finally {
      refresh("tokens");
    }
  });

  function tokenRow(k) {
    const status = tokenStatus(k), name = str(k.name), id = str(k.id);
    const buttons = [];
    if (status === "live") {
      const rotate = el("button", { type: "button", class: "btn small ghost", text: "Rotate", "data-action": "rotate",
        "aria-label": `Rotate ${name}`, title: "Give this token a new secret; the old one is refused at once" });
      rotate.addEventListener("click", () => rotateToken(k, rotate));
      buttons.push(rotate);
    }
    if (status !== "revoked") {
      const revoke = el("button", { type: "button", class: "btn small ghost", text: "Revoke", "data-action": "revoke",
        "aria-label": `Revoke ${name}`, title: "Refuse this token from now on" });
      revoke.addEventListener("click", () => askRevoke(k));
      buttons.push(revoke);
    }
    const when = (t) => (t ? stamp(t) : "never");
    const history = [k.rotated ? "secret rotated " + stamp(k.rotated) : "", k.revoked ? "revoked " + stamp(k.revoked) : ""].filter(Boolean).join("\n");
    return el("tr", { "data-id": id, "data-status": status },
      el("td", { "data-cell": "name", text: name, title: name }),
      el("td", {}, el("span", { class: "code", text: str(k.role) })),
      el("td", { class: "mono", text: id, title: id }),
      el("td", { text: stamp(k.created), title: history }),
      el("td", { text: when(k.expires), title: k.expires && status === "live" ? "in " + untilText(k.expires) : "" }),
      el("td", { text: when(k.last_used) }),
      el("td", {}, el("span", { class: "pill", "data-tone": statusTone[status], text: status, title: history })),
      el("td", { class: "num" }, ...buttons));
  }

  async function loadTokens() {
    let rows;
    try {
      rows = arrayOf(await api("GET", "/v1/tokens"), "tokens");
    } catch (e) {
      if (e.status === 401) throw e;
      $("tokens").replaceChildren();
      $("k-count").textContent = "";
      $("k-empty").textContent = explain(e, "Tokens");
      $("k-empty").hidden = false;
      return;
    }
    rows.reverse(); // newest first
    $("tokens").replaceChildren(...rows.map(tokenRow));
    $("k-empty").textContent = "No tokens yet.";
    $("k-empty").hidden = rows.length > 0;
    const live = rows.filter((k) => tokenStatus(k) === "live").length;
    $("k-count").textContent = rows.length ? `${live} live of ${rows.length}` : "";
  }

  $("k-reload").addEventListener("click", () => refresh("tokens"));

  // ---- policy and upstream servers ---------------------------------------

  // The owner sees the policy in force (its hash, where and when it was
  // loaded, its rules in evaluation order, the hook limits) and reloads
  // ward.toml without a restart; and the upstream MCP servers: each tool's
  // pinned definition hash and the changed definitions that wait for the
  // owner's approval.

  function policyError(msg) { $("pol-error").textContent = msg || ""; }

  function ruleRow(r) {
    return el("tr", { "data-rule": str(r.id) },
      el("td", { class: "mono", text: str(r.id), title: str(r.id) }),
      el("td", { class: "num", text: str(r.priority) }),
      el("td", { text: str(r.applies_to), title: str(r.applies_to) }),
      el("td", {}, el("span", { class: "code", text: str(r.kind) })),
      el("td", {}, el("span", { class: "pill", "data-tone": toneOf({ deny: "bad", quarantine: "warn", allow: "ok" }, r.effect), text: str(r.effect) })));
  }

  async function loadPolicy() {
    let v;
    try {
      v = await api("GET", "/v1/policy");
    } catch (e) {
      if (e.status === 401) throw e;
      $("pol-rules").replaceChildren();
      $("pol-empty").textContent = explain(e, "Policy");
      $("pol-empty").hidden = false;
      return;
    }
    const hash = str(v && v.hash);
    $("pol-hash").textContent = shortHash(hash);
    $("pol-hash").title = hash;
    const from = v.file ? str(v.file) : "the built-in defaults";
    $("pol-source").textContent = `From ${from}, ${v.loaded_by ? "reloaded by " + str(v.loaded_by) : "loaded at start"} at ${stamp(v.loaded_at)}.`;
    const l = v.limits || {};
    $("pol-limits").textContent = `Spending limits: $${str(l.per_tick_usd)} per tick, $${str(l.per_session_usd)} per session, $${str(l.daily_usd)} a day; at most ${str(l.rate_max)} writes per ${str(l.rate_window)}.`;
    const rules = Array.isArray(v.rules) ? v.rules : [];
    $("pol-rules").replaceChildren(...rules.map(ruleRow));
    $("pol-empty").textContent = "The policy has no rules.";
    $("pol-empty").hidden = rules.length > 0;
  }

  $("pol-reload").addEventListener("click", async () => {
    const btn = $("pol-reload");
    btn.disabled = true;
    policyError("");
    try {
      const r = await api("POST", "/v1/config/reload", {});
      const restart = Array.isArray(r.needs_restart) && r.needs_restart.length ? "; needs a restart: " + r.needs_restart.map(str).join(", ") : "";
      const policy = r.policy_changed ? `policy ${shortHash(r.policy_hash_before)} → ${shortHash(r.policy_hash_after)}` : "policy unchanged";
      toast(`Reloaded ${str(r.file)}: ${policy}${restart}`, restart ? "warn" : "ok", 8000);
    } catch (e) {
      if (e.status === 422) {
        let problems = [];
        try { problems = (e.body && e.body.error && e.body.error.reload && e.body.error.reload.problems) || []; } catch (_) { /* none */ }
        policyError("Not reloaded, nothing changed: " + (problems.length ? problems.map(str).join("; ") : e.message));
      } else if (e.status !== 401) {
        policyError(explain(e, "Reload"));
      }
    } finally {
      btn.disabled = false;
      refresh("policy");
    }
  });

  function upError(msg) { $("up-error").textContent = msg || ""; }

  async function approveUpstream(server, p, btn) {
    btn.disabled = true;
    upError("");
    try {
      const a = await api("POST", `/v1/upstreams/${encodeURIComponent(server)}/tools/${encodeURIComponent(str(p.tool))}/approve`, {});
      toast(`Approved ${str(a.name)} (${shortHash(a.hash)}): served ${str(a.takes_effect)}.`, "ok", 8000);
    } catch (e) {
      if (e.status !== 401) upError(explain(e, "Approve " + str(p.tool)));
      btn.disabled = false;
    } finally {
      refresh("upstreams");
    }
  }

  function upstreamRows(s) {
    const name = str(s.name);
    const where = `${name} (${str(s.transport)} ${str(s.target)})`;
    const rows = [];
    const pending = new Map((Array.isArray(s.pending) ? s.pending : []).map((p) => [str(p.tool), p]));
    for (const t of Array.isArray(s.tools) ? s.tools : []) {
      const by = t.approved_by ? "by " + str(t.approved_by) : "on first use";
      rows.push(el("tr", { "data-server": name, "data-tool": str(t.tool), "data-kind": "pinned" },
        el("td", { text: where, title: where }),
        el("td", { class: "mono", text: str(t.tool), title: str(t.tool) }),
        el("td", { class: "mono", text: str(t.name), title: str(t.name) }),
        el("td", { class: "mono", text: shortHash(t.pinned_hash), title: str(t.pinned_hash) }),
        el("td", { text: t.approved_at ? `${stamp(t.approved_at)} ${by}` : "" }),
        el("td", {}, el("span", { class: "pill", "data-tone": toneOf({ imported: "ok", changed: "warn", removed: "bad", skipped: "bad" }, t.state),
          text: str(t.state) || (pending.has(str(t.tool)) ? "changed" : "pinned"), title: str(t.reason) })),
        el("td", {})));
    }
    for (const p of pending.values()) {
      const approve = el("button", { type: "button", class: "btn small", text: "Approve", "data-action": "approve",
        "aria-label": `Approve the changed definition of ${str(p.tool)}`, title: "Make this definition the approved one" });
      approve.addEventListener("click", () => approveUpstream(name, p, approve));
      let def = "";
      try { def = JSON.stringify(p.definition, null, 2); } catch (_) { def = ""; }
      rows.push(el("tr", { "data-server": name, "data-tool": str(p.tool), "data-kind": "pending" },
        el("td", { text: where, title: where }),
        el("td", { class: "mono", text: str(p.tool), title: def }),
        el("td", { text: "changed definition waiting" }),
        el("td", { class: "mono", text: shortHash(p.hash), title: `new ${str(p.hash)}\napproved ${str(p.approved_hash)}` }),
        el("td", { text: "seen " + stamp(p.seen_at) }),
        el("td", {}, el("span", { class: "pill", "data-tone": "warn", text: "pending", title: def })),
        el("td", { class: "num" }, approve)));
    }
    if (!rows.length) {
      rows.push(el("tr", { "data-server": name, "data-kind": "empty" },
        el("td", { text: where, title: where }), el("td", { text: "no tool pinned yet", colspan: "6" })));
    }
    return rows;
  }

  async function loadUpstreams() {
    let list;
    try {
      list = await api("GET", "/v1/upstreams");
    } catch (e) {
      if (e.status === 401) throw e;
      $("up-rows").replaceChildren();
      $("up-empty").textContent = explain(e, "Upstream servers");
      $("up-empty").hidden = false;
      return;
    }
    list = Array.isArray(list) ? list : [];
    $("up-rows").replaceChildren(...list.flatMap(upstreamRows));
    $("up-empty").textContent = "No upstream MCP server is configured.";
    $("up-empty").hidden = list.length > 0;
    const waiting = list.reduce((n, s) => n + (Array.isArray(s.pending) ? s.pending.length : 0), 0);
    $("up-count").textContent = list.length ? `${list.length} server${list.length === 1 ? "" : "s"}${waiting ? `, ${waiting} waiting` : ""}` : "";
  }

  $("up-reload").addEventListener("click", () => refresh("upstreams"));
  Object.assign(loaders, { policy: loadPolicy, upstreams: loadUpstreams });

  // ---- start -------------------------------------------------------------

  function start() {
    refresh("gate", "chain", "decisions", "permits", "quarantine", "tokens", "sessions", "policy", "upstreams");
    runStream();
  }

  // A slow safety net for lists whose events were missed.
  setInterval(() => { if (token && !document.hidden) refresh("gate", "permits", "quarantine", "sessions"); }, 15_000);

  syncFilters();
  updateFeedMeta();
  if (token) start();
  else askToken("");
})();
