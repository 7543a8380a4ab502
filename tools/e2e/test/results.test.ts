import { InvalidParamsError, InvalidResultError, ResourceNotFoundError } from "@mcpx/core";
import { describe, expect } from "vitest";
import { RESOURCES, requirement, stdioCase, TOOLS } from "../src/index.js";

describe("results and errors (legacy, stdio)", () => {
  requirement(
    [
      "2024-11-05/results/absent-is-complete",
      "2025-03-26/results/absent-is-complete",
      "2025-06-18/results/absent-is-complete",
      "2025-11-25/results/absent-is-complete",
    ],
    async (rev) => {
      const c = await stdioCase({ versions: [rev], tools: TOOLS });
      const client = await c.connect({ revision: rev });
      const result = await client.callTool("echo", { text: "hi" });
      expect(result.resultType).toBeUndefined();
      expect(result.content).toEqual([{ type: "text", text: '{"text":"hi"}' }]);
      expect(c.server.failures).toEqual([]);
    },
  );

  requirement(
    [
      "2024-11-05/results/known-types",
      "2025-03-26/results/known-types",
      "2025-06-18/results/known-types",
      "2025-11-25/results/known-types",
    ],
    async (rev) => {
      const c = await stdioCase({
        versions: [rev],
        tools: TOOLS,
        handlers: {
          "tools/call": (req) =>
            req.params?.name === "add"
              ? { resultType: "input_required", requestState: "opaque-1" }
              : { resultType: "complete", content: [{ type: "text", text: "done" }] },
        },
      });
      const client = await c.connect({ revision: rev });
      const complete = await client.callTool("echo", { text: "x" });
      expect(complete.content).toEqual([{ type: "text", text: "done" }]);
      // input_required is recognised as not complete; a legacy revision has no retry with
      // inputResponses, so none is sent (those keys are 2026-07-28's) and the caller sees it as it came
      const input = await client.callTool("add", { a: 1, b: 2 });
      expect(input).toEqual({ resultType: "input_required", requestState: "opaque-1" });
      expect(c.server.frames("tools/call")).toHaveLength(2);
      expect(c.server.failures).toEqual([]);
    },
  );

  requirement(
    [
      "2024-11-05/results/unknown-type",
      "2025-03-26/results/unknown-type",
      "2025-06-18/results/unknown-type",
      "2025-11-25/results/unknown-type",
    ],
    async (rev) => {
      const c = await stdioCase({
        versions: [rev],
        tools: TOOLS,
        handlers: { "tools/call": () => ({ resultType: "task", content: [] }) },
      });
      const client = await c.connect({ revision: rev });
      const err = await client.callTool("echo", {}).catch((e) => e);
      expect(err).toBeInstanceOf(InvalidResultError);
      expect(err.message).toBe('tools/call returned a result of unknown resultType "task"');
    },
  );

  requirement(
    [
      "2024-11-05/errors/not-found-32002",
      "2025-03-26/errors/not-found-32002",
      "2025-06-18/errors/not-found-32002",
      "2025-11-25/errors/not-found-32002",
    ],
    async (rev) => {
      const c = await stdioCase({ versions: [rev], resources: RESOURCES });
      const client = await c.connect({ revision: rev });
      const ok = await client.readResource("file:///a.txt");
      expect(ok.contents).toHaveLength(1);
      const err = await client.readResource("file:///missing").catch((e) => e);
      expect(err).toBeInstanceOf(ResourceNotFoundError);
      expect(err.code).toBe(-32002);
      expect(err.data).toEqual({ uri: "file:///missing" });
    },
  );

  requirement(
    [
      "2024-11-05/errors/legacy-32602-invalid-params",
      "2025-03-26/errors/legacy-32602-invalid-params",
      "2025-06-18/errors/legacy-32602-invalid-params",
      "2025-11-25/errors/legacy-32602-invalid-params",
    ],
    async (rev) => {
      const c = await stdioCase({
        versions: [rev],
        resources: RESOURCES,
        handlers: { "resources/read": () => ({ error: { code: -32602, message: "uri must be absolute" } }) },
        expectInvalidFrames: "the caller's relative URI is what the server refuses with -32602",
      });
      const client = await c.connect({ revision: rev });
      const err = await client.readResource("a.txt").catch((e) => e);
      expect(err).toBeInstanceOf(InvalidParamsError);
      expect(err).not.toBeInstanceOf(ResourceNotFoundError);
      expect(err.message).toBe("uri must be absolute");
      expect(c.server.failures).toEqual([
        `resources/read (${rev}): params.uri: must match format "uri" (${rev} ReadResourceRequest)`,
      ]);
    },
  );
});
