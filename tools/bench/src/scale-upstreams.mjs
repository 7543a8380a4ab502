// The upstreams of the scale bench, all in this one process: `http` scripted Streamable HTTP servers
// (testkit's, one node:http server each, half on 2026-07-28 and half on 2025-11-25) and `stdio`
// scripted stdio servers (testkit's relay: each child mcpx spawns connects back here). Each has
// `tools` tools with realistic schemas; some answer their handshake late (up to `slowestMs`).
//   node scale-upstreams.mjs '{"http":80,"stdio":20,"tools":100,"slowestMs":1500}'
// prints one JSON line: { control, http: [{ name, url }], stdio: [{ name, command, args }] };
// GET <control>/handshakes answers { answered, lastAt } (Date.now() of the latest handshake answer).
import { createServer } from "node:http";
import { defaultHandler, httpScript, ScriptedServer, stdioScript } from "@mcpx/testkit";

const opts = { http: 80, stdio: 20, tools: 100, slowestMs: 1500, ...JSON.parse(process.argv[2] ?? "{}") };
const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";

const UNITS = ["celsius", "fahrenheit", "kelvin"];
/** A tool as real servers list them: a description, typed and bounded parameters, nested objects. */
function toolOf(server, i, modern) {
  const tool = {
    name: `op_${i}`,
    title: `Operation ${i} of ${server}`,
    description: `Runs operation ${i} against the ${server} service: looks the record up by id, filters it by the given fields, and returns the matching rows with their metadata. Rate-limited per caller.`,
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string", description: "The record's id", pattern: "^[a-z0-9-]{1,64}$" },
        limit: { type: "integer", minimum: 1, maximum: 500, default: 50, description: "Rows at most" },
        unit: { type: "string", enum: UNITS, description: "The unit of measures in the answer" },
        filter: {
          type: "object",
          description: "Fields a row must match",
          properties: {
            owner: { type: "string" },
            since: { type: "string", format: "date-time" },
            tags: { type: "array", items: { type: "string" }, maxItems: 16 },
          },
          additionalProperties: false,
        },
        dryRun: { type: "boolean", default: false },
      },
      required: ["id"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: i % 3 !== 0, idempotentHint: true, openWorldHint: i % 5 === 0 },
  };
  if (modern) {
    tool.outputSchema = {
      type: "object",
      properties: { rows: { type: "array", items: { type: "object" } }, next: { type: "string" } },
      required: ["rows"],
    };
  }
  return tool;
}

let answered = 0;
let lastAt = 0;
/** Upstream k of n answers its handshake after k/n of the slowest delay, every fourth one at once. */
const delayOf = (k, n) => (k % 4 === 0 ? 0 : Math.round((opts.slowestMs * (k + 1)) / n));
const delayed = (method, ms) => async (req, ctx) => {
  if (ms > 0) await new Promise((r) => setTimeout(r, ms));
  const answer = await defaultHandler(method)(req, ctx);
  if (!("error" in answer)) {
    answered++;
    lastAt = Math.max(lastAt, Date.now());
  }
  return answer;
};

function scripted(name, modern, delayMs) {
  const versions = modern ? [MODERN] : [LEGACY];
  const tools = Array.from({ length: opts.tools }, (_, i) => toolOf(name, i, modern));
  // Not validated: the strict check is the conformance suites' job, and at this scale it would
  // make the upstreams, not mcpx, the figure measured. The frames it records are dropped too.
  const server = new ScriptedServer({
    versions,
    serverInfo: { name, version: "1.0.0" },
    capabilities: { tools: {} },
    tools,
    validate: false,
    label: name,
    handlers: {
      [modern ? "server/discover" : "initialize"]: delayed(
        modern ? "server/discover" : "initialize",
        delayMs,
      ),
    },
  });
  server.received.push = () => 0;
  return server;
}

const total = opts.http + opts.stdio;
const http = [];
for (let k = 0; k < opts.http; k++) {
  const name = `h${String(k).padStart(3, "0")}`;
  const script = await httpScript(scripted(name, k % 2 === 0, delayOf(k, total)));
  script.requests.push = () => 0;
  http.push({ name, url: script.url, modern: k % 2 === 0 });
}
const stdio = [];
for (let k = 0; k < opts.stdio; k++) {
  const name = `s${String(k).padStart(3, "0")}`;
  const script = await stdioScript(scripted(name, false, delayOf(opts.http + k, total)));
  stdio.push({ name, command: script.command, args: script.args });
}

const control = createServer((_req, res) => {
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ answered, lastAt }));
});
await new Promise((r) => control.listen(0, "127.0.0.1", r));
process.stdout.write(
  `${JSON.stringify({ control: `http://127.0.0.1:${control.address().port}`, http, stdio })}\n`,
);
// Ends with its parent (the bench): its stdin closes then.
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
