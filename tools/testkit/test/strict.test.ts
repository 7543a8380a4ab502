import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkClientFrames, REVISIONS, type Verdict, validatorFor } from "../src/index.js";
import { legacyFrames, MISSING, modernFrames, modernMeta } from "./frames.js";

const clientInfo = { name: "mcpx", version: "0.1.0" };

function initialize(revision: string, capabilities: Record<string, unknown>): unknown {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: revision, capabilities, clientInfo },
  };
}

function errorsOf(verdict: Verdict): readonly string[] {
  if (verdict.ok) throw new Error("expected a failure, got ok");
  return verdict.errors;
}

/** Examples that break the strict rule, with the errors they must keep producing (a stale entry fails). */
const EXAMPLE_EXPECTED_FAILURES: Record<string, readonly string[]> = {};

describe("strict", () => {
  it("strict/revisions-listed", () => {
    expect(REVISIONS).toEqual(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]);
    expect(() => validatorFor("2099-01-01")).toThrow(/unknown MCP revision "2099-01-01"/);
    expect(validatorFor("2025-06-18")).toBe(validatorFor("2025-06-18"));
  });

  it("strict/examples-accepted", () => {
    const v = validatorFor("2026-07-28");
    const dir = new URL("../fixtures/2026-07-28/examples/", import.meta.url);
    const unexpected: string[] = [];
    let checked = 0;
    for (const name of readdirSync(dir)) {
      for (const file of readdirSync(new URL(`${name}/`, dir))) {
        const value: unknown = JSON.parse(readFileSync(new URL(`${name}/${file}`, dir), "utf8"));
        const verdict = v.definition(name, value);
        const expected = EXAMPLE_EXPECTED_FAILURES[`${name}/${file}`];
        checked++;
        if (expected)
          expect(verdict, `${name}/${file}`).toEqual({ ok: false, reason: "invalid", errors: expected });
        else if (!verdict.ok) unexpected.push(`${name}/${file}: ${verdict.errors.join("; ")}`);
      }
    }
    expect(unexpected).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it("strict/definition-not-in-revision", () => {
    expect(validatorFor("2025-06-18").definition("DiscoverResult", {})).toEqual({
      ok: false,
      reason: "not-in-revision",
      errors: ["(root): definition DiscoverResult is not in revision 2025-06-18"],
    });
  });

  it("strict/tasks-extension-requests-on-2026-07-28", () => {
    const v = validatorFor("2026-07-28");
    const meta = modernMeta();
    const get = { jsonrpc: "2.0", id: 1, method: "tasks/get", params: { taskId: "t-1", _meta: meta } };
    const update = {
      jsonrpc: "2.0",
      id: 2,
      method: "tasks/update",
      params: { taskId: "t-1", inputResponses: { k: { action: "accept", content: {} } }, _meta: meta },
    };
    const cancel = { jsonrpc: "2.0", id: 3, method: "tasks/cancel", params: { taskId: "t-1", _meta: meta } };
    for (const frame of [get, update, cancel])
      expect(v.clientMessage(frame), frame.method).toEqual({ ok: true });
    // Checked as strictly as the core's: a task request without its taskId is invalid.
    const bad = v.clientMessage({ jsonrpc: "2.0", id: 4, method: "tasks/get", params: { _meta: meta } });
    expect(bad.ok).toBe(false);
    // Removed by the extension, so never in the revision.
    const result = v.clientMessage({
      jsonrpc: "2.0",
      id: 5,
      method: "tasks/result",
      params: { taskId: "t", _meta: meta },
    });
    expect(result).toMatchObject({ ok: false, reason: "not-in-revision" });
  });

  for (const revision of REVISIONS) {
    it(`strict/valid-frames-${revision}`, () => {
      const v = validatorFor(revision);
      const frames = revision === "2026-07-28" ? modernFrames() : legacyFrames(revision);
      for (const [method, frame] of Object.entries(frames)) {
        expect(v.clientMessage(frame), `${revision} ${method}`).toEqual({ ok: true });
      }
      // What the other era sends is "not in this revision", not merely invalid.
      const other = revision === "2026-07-28" ? legacyFrames("2025-11-25") : modernFrames();
      const missing = MISSING[revision];
      expect(missing, `test/frames.ts has no MISSING entry for ${revision}`).toBeDefined();
      for (const method of missing ?? []) {
        expect(v.clientMessage(other[method]), `${revision} ${method}`).toEqual({
          ok: false,
          reason: "not-in-revision",
          errors: [`(root): method ${method} is not in revision ${revision}`],
        });
      }
    });
  }

  for (const revision of REVISIONS.filter((r) => r !== "2026-07-28")) {
    it(`strict/valid-client-results-${revision}`, () => {
      const v = validatorFor(revision);
      const answer = (result: unknown, forMethod: string) =>
        v.clientMessage({ jsonrpc: "2.0", id: 9, result }, { forMethod });
      expect(answer({}, "ping")).toEqual({ ok: true });
      expect(answer({ roots: [{ uri: "file:///work", name: "work" }] }, "roots/list")).toEqual({ ok: true });
      const sampled = {
        role: "assistant",
        content: { type: "text", text: "hi" },
        model: "m-1",
        stopReason: "endTurn",
      };
      expect(answer(sampled, "sampling/createMessage")).toEqual({ ok: true });
      if (revision >= "2025-06-18") {
        expect(answer({ action: "accept", content: { name: "x" } }, "elicitation/create")).toEqual({
          ok: true,
        });
      }
      expect(v.clientMessage({ jsonrpc: "2.0", id: 9, error: { code: -32601, message: "nope" } })).toEqual({
        ok: true,
      });
    });
  }

  it("strict/cross-revision-meta-key", () => {
    const v = validatorFor("2025-06-18");
    const meta = { "io.modelcontextprotocol/protocolVersion": "2025-06-18", progressToken: 1 };
    const line =
      'params._meta["io.modelcontextprotocol/protocolVersion"]: key defined by 2026-07-28, not by 2025-06-18';
    expect(
      errorsOf(v.clientMessage({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta } })),
    ).toEqual([line]);
    // initialize has no 2026-07-28 counterpart, but every 2026-07-28 request's params._meta is one.
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { ...legacyInitParams(), _meta: meta },
    };
    expect(errorsOf(v.clientMessage(init))).toEqual([line]);
    // A free _meta key (not defined by any revision) is fine.
    const free = {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/list",
      params: { _meta: { "com.example/trace": "t" } },
    };
    expect(v.clientMessage(free)).toEqual({ ok: true });
  });

  it("strict/elicitation-url-in-2025-06-18", () => {
    const v = validatorFor("2025-06-18");
    expect(errorsOf(v.clientMessage(initialize("2025-06-18", { elicitation: { url: {} } })))).toEqual([
      "params.capabilities.elicitation.url: key defined by 2025-11-25, 2026-07-28, not by 2025-06-18",
    ]);
    expect(errorsOf(v.clientMessage(initialize("2025-06-18", { elicitation: { form: {} } })))).toEqual([
      "params.capabilities.elicitation.form: key defined by 2025-11-25, 2026-07-28, not by 2025-06-18",
    ]);
  });

  it("strict/elicitation-open-in-2025-06-18", () => {
    const v = validatorFor("2025-06-18");
    const caps = { roots: { listChanged: false }, elicitation: {} };
    expect(v.clientMessage(initialize("2025-06-18", caps))).toEqual({ ok: true });
  });

  it("strict/elicitation-form-in-2025-11-25", () => {
    const v = validatorFor("2025-11-25");
    expect(v.clientMessage(initialize("2025-11-25", { elicitation: { form: {} } }))).toEqual({ ok: true });
    expect(v.clientMessage(initialize("2025-11-25", { elicitation: { form: {}, url: {} } }))).toEqual({
      ok: true,
    });
  });

  it("strict/elicitation-capability-in-2025-03-26", () => {
    const v = validatorFor("2025-03-26");
    expect(errorsOf(v.clientMessage(initialize("2025-03-26", { elicitation: {} })))).toEqual([
      "params.capabilities.elicitation: key defined by 2025-06-18, 2025-11-25, 2026-07-28, not by 2025-03-26",
    ]);
  });

  it("strict/roots-list-changed-in-2026-07-28-meta", () => {
    const v = validatorFor("2026-07-28");
    const meta = modernMeta({
      "io.modelcontextprotocol/clientCapabilities": { roots: { listChanged: true } },
    });
    const frame = { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: meta } };
    expect(errorsOf(v.clientMessage(frame))).toEqual([
      'params._meta["io.modelcontextprotocol/clientCapabilities"].roots.listChanged: key defined by 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, not by 2026-07-28',
    ]);
    const ok = modernMeta({
      "io.modelcontextprotocol/clientCapabilities": { roots: {}, elicitation: { url: {} } },
    });
    expect(v.clientMessage({ ...frame, params: { _meta: ok } })).toEqual({ ok: true });
  });

  it("strict/result-type-in-2025-06-18", () => {
    const v = validatorFor("2025-06-18");
    const roots = { jsonrpc: "2.0", id: 9, result: { roots: [], resultType: "complete" } };
    expect(errorsOf(v.clientMessage(roots, { forMethod: "roots/list" }))).toEqual([
      "result.resultType: key defined by 2026-07-28, not by 2025-06-18",
    ]);
    const pong = { jsonrpc: "2.0", id: 9, result: { resultType: "complete" } };
    expect(errorsOf(v.clientMessage(pong, { forMethod: "ping" }))).toEqual([
      "result.resultType: key defined by 2026-07-28, not by 2025-06-18",
    ]);
  });

  it("strict/task-in-2025-06-18-tools-call", () => {
    const frame = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "echo", task: { ttl: 1000 } },
    };
    expect(errorsOf(validatorFor("2025-06-18").clientMessage(frame))).toEqual([
      "params.task: key defined by 2025-11-25, not by 2025-06-18",
    ]);
    expect(validatorFor("2025-11-25").clientMessage(frame)).toEqual({ ok: true });
    // The rule works in both directions: 2026-07-28 dropped tasks from the core protocol.
    const modern = { ...frame, params: { ...frame.params, _meta: modernMeta() } };
    expect(errorsOf(validatorFor("2026-07-28").clientMessage(modern))).toEqual([
      "params.task: key defined by 2025-11-25, not by 2026-07-28",
    ]);
  });

  it("strict/free-form-values-not-walked", () => {
    // Tool arguments and structured content are the user's: keys that look like protocol keys are fine.
    const call = {
      name: "x",
      arguments: { task: {}, resultType: "y", _meta: { "io.modelcontextprotocol/clientInfo": 1 } },
    };
    expect(
      validatorFor("2025-06-18").clientMessage({ jsonrpc: "2.0", id: 1, method: "tools/call", params: call }),
    ).toEqual({ ok: true });
    // inputSchema is a JSON Schema document: its keywords are not compared across revisions.
    const tool = {
      name: "t",
      inputSchema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
    };
    const page = { resultType: "complete", tools: [tool], ttlMs: 60000, cacheScope: "public" };
    const listed = { jsonrpc: "2.0", id: 1, result: page };
    expect(validatorFor("2026-07-28").serverMessage(listed, { forMethod: "tools/list" })).toEqual({
      ok: true,
    });
  });

  it("strict/method-not-in-revision", () => {
    const discover = modernFrames()["server/discover"];
    expect(validatorFor("2025-06-18").clientMessage(discover)).toEqual({
      ok: false,
      reason: "not-in-revision",
      errors: ["(root): method server/discover is not in revision 2025-06-18"],
    });
    expect(errorsOf(validatorFor("2026-07-28").clientMessage(initialize("2026-07-28", {})))).toEqual([
      "(root): method initialize is not in revision 2026-07-28",
    ]);
    const elicited = { jsonrpc: "2.0", id: 9, result: { action: "accept" } };
    expect(validatorFor("2024-11-05").clientMessage(elicited, { forMethod: "elicitation/create" })).toEqual({
      ok: false,
      reason: "not-in-revision",
      errors: ["(root): method elicitation/create is not in revision 2024-11-05"],
    });
    // The method exists, but the other side sends it.
    const rootsList = { jsonrpc: "2.0", id: 2, method: "roots/list" };
    expect(errorsOf(validatorFor("2025-06-18").clientMessage(rootsList))).toEqual([
      "(root): method roots/list is not in revision 2025-06-18 as a client request",
    ]);
    // 2026-07-28 servers send no requests (roots/list only travels inside inputRequests), so a client
    // never answers one.
    const roots = { jsonrpc: "2.0", id: 9, result: { roots: [] } };
    expect(errorsOf(validatorFor("2026-07-28").clientMessage(roots, { forMethod: "roots/list" }))).toEqual([
      "(root): method roots/list is not in revision 2026-07-28",
    ]);
  });

  it("strict/schema-invalid-names-path", () => {
    const v = validatorFor("2026-07-28");
    const verdict = v.clientMessage({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} });
    expect(verdict).toMatchObject({ ok: false, reason: "invalid" });
    expect(errorsOf(verdict)).toContain("params._meta: is required (2026-07-28 ListToolsRequest)");
    const legacy = validatorFor("2025-06-18").clientMessage({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {},
    });
    expect(errorsOf(legacy)).toContain("params.protocolVersion: is required (2025-06-18 InitializeRequest)");
  });

  it("strict/server-messages", () => {
    const tool = { name: "echo", inputSchema: { type: "object" } };
    const v6 = validatorFor("2025-06-18");
    expect(
      v6.serverMessage({ jsonrpc: "2.0", id: 2, result: { tools: [tool] } }, { forMethod: "tools/list" }),
    ).toEqual({
      ok: true,
    });
    const withServerInfo = { tools: [tool], _meta: { "io.modelcontextprotocol/serverInfo": clientInfo } };
    expect(
      errorsOf(
        v6.serverMessage({ jsonrpc: "2.0", id: 2, result: withServerInfo }, { forMethod: "tools/list" }),
      ),
    ).toEqual([
      'result._meta["io.modelcontextprotocol/serverInfo"]: key defined by 2026-07-28, not by 2025-06-18',
    ]);
    const v26 = validatorFor("2026-07-28");
    const inputRequired = {
      resultType: "input_required",
      inputRequests: {
        who: {
          method: "elicitation/create",
          params: {
            mode: "form",
            message: "Name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } } },
          },
        },
      },
      requestState: "s1",
    };
    expect(
      v26.serverMessage({ jsonrpc: "2.0", id: 4, result: inputRequired }, { forMethod: "tools/call" }),
    ).toEqual({
      ok: true,
    });
    const missingType = v26.serverMessage(
      { jsonrpc: "2.0", id: 2, result: { tools: [] } },
      { forMethod: "tools/list" },
    );
    expect(errorsOf(missingType)).toContain("result.resultType: is required (2026-07-28 ListToolsResult)");
    const note = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };
    expect(v6.serverMessage(note)).toEqual({ ok: true });
    expect(v6.clientMessage(note)).toEqual({
      ok: false,
      reason: "not-in-revision",
      errors: [
        "(root): method notifications/tools/list_changed is not in revision 2025-06-18 as a client notification",
      ],
    });
  });

  it("strict/batches-only-in-2025-03-26", () => {
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 0 } },
    ];
    expect(validatorFor("2025-03-26").clientMessage(batch)).toEqual({ ok: true });
    const badCall = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", task: {} } };
    expect(errorsOf(validatorFor("2025-03-26").clientMessage([...batch, badCall]))).toEqual([
      "[2].params.task: key defined by 2025-11-25, not by 2025-03-26",
    ]);
    expect(validatorFor("2025-06-18").clientMessage(batch)).toEqual({
      ok: false,
      reason: "not-in-revision",
      errors: ["(root): JSON-RPC batches are not in revision 2025-06-18"],
    });
  });

  it("strict/assert-throws-listing-errors", () => {
    const v = validatorFor("2025-06-18");
    expect(() => v.assertClientMessage(initialize("2025-06-18", { elicitation: { url: {} } }))).toThrow(
      /2025-06-18 client message failed strict validation:\n {2}- params\.capabilities\.elicitation\.url: key defined by 2025-11-25, 2026-07-28, not by 2025-06-18/,
    );
    expect(() => v.assertClientMessage(initialize("2025-06-18", {}))).not.toThrow();
    expect(() => v.assertDefinition("Tool", { name: "t" })).toThrow(
      /inputSchema: is required \(2025-06-18 Tool\)/,
    );
    expect(() =>
      v.assertServerMessage({ jsonrpc: "2.0", id: 1, result: {} }, { forMethod: "ping" }),
    ).not.toThrow();
  });

  it("strict/check-client-frames", () => {
    const frames = [
      initialize("2025-06-18", { elicitation: {} }),
      { jsonrpc: "2.0", method: "notifications/initialized" },
      {
        jsonrpc: "2.0",
        id: "s1",
        result: { action: "accept", content: { name: "x" }, resultType: "complete" },
      },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", task: {} } },
    ];
    const serverRequests = [{ jsonrpc: "2.0", id: "s1", method: "elicitation/create", params: {} }];
    expect(checkClientFrames("2025-06-18", frames, { serverRequests })).toEqual([
      "frames[2] elicitation/create: result.resultType: key defined by 2026-07-28, not by 2025-06-18",
      "frames[3] tools/call: params.task: key defined by 2025-11-25, not by 2025-06-18",
    ]);
    expect(checkClientFrames("2025-06-18", frames.slice(0, 2))).toEqual([]);
  });
});

function legacyInitParams(): Record<string, unknown> {
  return { protocolVersion: "2025-06-18", capabilities: {}, clientInfo };
}
