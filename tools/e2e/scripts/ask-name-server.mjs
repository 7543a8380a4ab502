#!/usr/bin/env node
/**
 * A small MCP server over stdio (legacy revisions, 2025-06-18 and 2025-11-25) with one tool,
 * `ask_name`, which asks its client for a name with a form elicitation and greets whoever answers.
 * No dependencies: newline-delimited JSON-RPC on stdin and stdout. Used by elicit-demo.sh and the
 * tmux test as the upstream that asks.
 */
import { createInterface } from "node:readline";

const VERSIONS = ["2025-11-25", "2025-06-18"];
let version = VERSIONS[0];
let nextId = 1;
const waiting = new Map();

const send = (msg) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...msg })}\n`);
const reply = (id, result) => send({ id, result });
const fail = (id, code, message) => send({ id, error: { code, message } });

function ask(params) {
  const id = `ask-${nextId++}`;
  send({ id, method: "elicitation/create", params });
  return new Promise((resolve) => waiting.set(id, resolve));
}

const tool = {
  name: "ask_name",
  description: "Asks for your name (a form elicitation), then greets you",
  inputSchema: { type: "object", properties: {} },
};

async function callTool(id, params) {
  if (params?.name !== tool.name) return fail(id, -32602, `Unknown tool: ${params?.name}`);
  const form = {
    message: "What is your name?",
    requestedSchema: {
      type: "object",
      properties: {
        name: { type: "string", title: "Name", minLength: 1 },
        greeting: { type: "string", title: "Greeting", default: "Hello" },
      },
      required: ["name"],
    },
  };
  const answer = await ask(version === "2025-06-18" ? form : { mode: "form", ...form });
  const result = answer.result ?? {};
  let text;
  if (answer.error) text = `The client could not answer: ${answer.error.message}`;
  else if (result.action === "accept")
    text = `${result.content?.greeting ?? "Hello"}, ${result.content?.name}!`;
  else if (result.action === "decline") text = "You declined to say.";
  else text = "Nobody answered (cancel).";
  reply(id, { content: [{ type: "text", text }] });
}

function onMessage(msg) {
  if (msg.method === undefined) {
    const resolve = waiting.get(msg.id);
    waiting.delete(msg.id);
    resolve?.(msg);
    return;
  }
  if (msg.id === undefined) return; // notifications
  switch (msg.method) {
    case "initialize": {
      const offered = msg.params?.protocolVersion;
      version = VERSIONS.includes(offered) ? offered : VERSIONS.at(-1);
      return reply(msg.id, {
        protocolVersion: version,
        capabilities: { tools: {} },
        serverInfo: { name: "ask-name", version: "1.0.0" },
      });
    }
    case "ping":
      return reply(msg.id, {});
    case "tools/list":
      return reply(msg.id, { tools: [tool] });
    case "tools/call":
      return void callTool(msg.id, msg.params);
    default:
      return fail(msg.id, -32601, `Method not found: ${msg.method}`);
  }
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  try {
    onMessage(JSON.parse(line));
  } catch {
    // not JSON: ignored
  }
});
lines.on("close", () => process.exit(0));
