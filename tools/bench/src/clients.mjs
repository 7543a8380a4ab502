// The light load clients the comparison drives every target with: JSON-RPC over undici (HTTP
// keep-alive, one connection per call in flight) or over a child's stdin/stdout. Kept thin on
// purpose: on two cores a heavy client (the SDK's) caps what any target can show.
import { createParser } from "eventsource-parser";
import { Pool } from "undici";

const CLIENT_INFO = { name: "mcpx-bench", version: "1" };

export class CallFailed extends Error {
  name = "CallFailed";
}

/** The echo result must carry the message back, or the call did not happen as measured. */
function checkEcho(msg, size) {
  if (msg.error) throw new CallFailed(`error ${msg.error.code}: ${String(msg.error.message).slice(0, 120)}`);
  const text = msg.result?.content?.[0]?.text;
  if (typeof text !== "string" || text.length < size)
    throw new CallFailed("the echo did not come back whole");
}

/** The frame answering `id` in an SSE body (the peers answer a POST as a stream). */
function fromEventStream(body, id) {
  let found;
  const parser = createParser({
    onEvent: (event) => {
      if (!event.data) return; // a priming event (resumability), not a message
      const msg = JSON.parse(event.data);
      if (msg.id === id) found = msg;
    },
  });
  parser.feed(body);
  if (!found) throw new CallFailed("no answer in the event stream");
  return found;
}

/**
 * A Streamable HTTP client: `era` "2025-11-25" initializes a session first; "2026-07-28" sends each
 * request self-described (no session), as that revision does.
 */
export async function httpClient(url, { era, tool }) {
  const pool = new Pool(new URL(url).origin, { connections: 64, keepAliveTimeout: 60_000 });
  let headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const post = async (body, extraHeaders, timeoutMs = 120_000) => {
    const res = await pool.request({
      path: new URL(url).pathname,
      method: "POST",
      body: JSON.stringify(body),
      headers: { ...headers, ...extraHeaders },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new CallFailed(`HTTP ${res.statusCode}: ${text.slice(0, 120)}`);
    if (body.id === undefined) return { headers: res.headers };
    const type = String(res.headers["content-type"] ?? "");
    return {
      headers: res.headers,
      msg: type.includes("event-stream") ? fromEventStream(text, body.id) : JSON.parse(text),
    };
  };
  let meta;
  let callHeaders = {};
  if (era === "2026-07-28") {
    meta = {
      "io.modelcontextprotocol/protocolVersion": era,
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    };
    callHeaders = { "mcp-protocol-version": era, "mcp-method": "tools/call", "mcp-name": tool };
  } else {
    const init = await post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: era, capabilities: {}, clientInfo: CLIENT_INFO },
    });
    const session = init.headers["mcp-session-id"];
    headers = {
      ...headers,
      ...(session ? { "mcp-session-id": String(session) } : {}),
      "mcp-protocol-version": era,
    };
    await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  }
  let nextId = 1;
  return {
    /** tools/call of the echo tool with `message`; resolves once the echo came back whole. */
    async call(message, timeoutMs) {
      const id = nextId++;
      const params = { name: tool, arguments: { message } };
      if (meta) params._meta = meta;
      const { msg } = await post(
        { jsonrpc: "2.0", id, method: "tools/call", params },
        callHeaders,
        timeoutMs,
      );
      checkEcho(msg, message.length);
    },
    close: () => pool.destroy(),
  };
}

/** A newline-delimited JSON-RPC client over a child's stdio (the direct path, `mcpx stdio`). */
export async function stdioClient(child, { tool }) {
  const waiting = new Map();
  const chunks = [];
  child.stdout.on("data", (chunk) => {
    // Lines can be many MiB: gather Buffers and decode once a newline arrives.
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      chunks.push(chunk.subarray(start, nl));
      const line = Buffer.concat(chunks).toString("utf8");
      chunks.length = 0;
      start = nl + 1;
      const msg = JSON.parse(line);
      const w = waiting.get(msg.id);
      if (w) {
        waiting.delete(msg.id);
        w.resolve(msg);
      }
    }
    if (start < chunk.length) chunks.push(chunk.subarray(start));
  });
  child.on("exit", (code) => {
    for (const w of waiting.values()) w.reject(new CallFailed(`the process exited (${code})`));
    waiting.clear();
  });
  let nextId = 1;
  const request = (method, params, timeoutMs = 120_000) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new CallFailed(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      waiting.set(id, {
        resolve: (msg) => {
          clearTimeout(timer);
          resolve(msg);
        },
        reject,
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  const init = await request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: CLIENT_INFO,
  });
  if (init.error) throw new CallFailed(`initialize: ${init.error.message}`);
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return {
    async call(message, timeoutMs) {
      checkEcho(
        await request("tools/call", { name: tool, arguments: { message } }, timeoutMs),
        message.length,
      );
    },
    close: () => {},
  };
}
