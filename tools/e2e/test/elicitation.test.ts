import type { ElicitationHandler, ElicitRequestParams } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { handlers, requirement, stdioCase } from "../src/index.js";

const formAndUrl = (answer: ElicitationHandler["handle"]): ElicitationHandler => ({
  name: "test",
  modes: ["form", "url"],
  handle: answer,
});

const schema = {
  type: "object",
  properties: {
    name: { type: "string", default: "Ada" },
    age: { type: "integer", default: 36 },
    subscribe: { type: "boolean", default: true },
    note: { type: "string" },
  },
};

describe("elicitation (legacy, stdio)", () => {
  requirement(
    [
      "2024-11-05/elicitation/declarations",
      "2025-03-26/elicitation/declarations",
      "2025-06-18/elicitation/declarations",
      "2025-11-25/elicitation/declarations",
    ],
    async (rev) => {
      // nothing installed: elicitation form from 2025-06-18 on (cancel is a truthful answer), no url, no sampling
      const bare = await stdioCase({ versions: [rev] });
      await bare.connect({ revision: rev });
      const bareCaps = bare.server.frames("initialize")[0]?.params?.capabilities;
      // everything installed: url and sampling appear where the revision has them
      const full = await stdioCase({ versions: [rev] });
      await full.connect({
        revision: rev,
        handlers: handlers({
          elicitation: [formAndUrl(async () => ({ action: "decline" }))],
          sampling: [{ name: "s", handle: async () => ({}) }],
        }),
      });
      const fullCaps = full.server.frames("initialize")[0]?.params?.capabilities;
      const expected: Record<string, [unknown, unknown]> = {
        "2024-11-05": [{ roots: { listChanged: false } }, { roots: { listChanged: false }, sampling: {} }],
        "2025-03-26": [{ roots: { listChanged: false } }, { roots: { listChanged: false }, sampling: {} }],
        "2025-06-18": [
          { roots: { listChanged: false }, elicitation: {} },
          { roots: { listChanged: false }, sampling: {}, elicitation: {} },
        ],
        "2025-11-25": [
          { roots: { listChanged: false }, elicitation: { form: {} } },
          { roots: { listChanged: false }, sampling: {}, elicitation: { form: {}, url: {} } },
        ],
      };
      expect(bareCaps).toEqual(expected[rev]?.[0]);
      expect(fullCaps).toEqual(expected[rev]?.[1]);
      expect([...bare.server.failures, ...full.server.failures]).toEqual([]);
    },
  );

  requirement(
    ["2025-06-18/elicitation/undeclared-mode", "2025-11-25/elicitation/undeclared-mode"],
    async (rev) => {
      const seen: ElicitRequestParams[] = [];
      const c = await stdioCase({ versions: [rev] });
      // unpinned: initialize offers 2025-11-25 with url declared, and the server settles on `rev`
      await c.connect({
        handlers: handlers({
          elicitation: [
            formAndUrl(async (req) => {
              seen.push(req);
              return { action: "accept" };
            }),
          ],
        }),
      });
      const url = await c.server.request("elicitation/create", {
        mode: "url",
        message: "sign in",
        url: "https://example.com/login",
        elicitationId: "el-1",
      });
      expect(c.server.frames("initialize")[0]?.params?.capabilities).toMatchObject({
        elicitation: { url: {} },
      });
      if (rev === "2025-06-18") {
        // offered in initialize (as 2025-11-25), but the revision in use has no url mode
        expect(url.error).toEqual({
          code: -32602,
          message: 'elicitation mode "url" is not defined in protocol revision 2025-06-18',
        });
        expect(seen).toEqual([]);
      } else {
        expect(url.result).toEqual({ action: "accept" });
      }
      const bogus = await c.server.request("elicitation/create", { mode: "telepathy", message: "?" });
      expect(bogus.error?.code).toBe(-32602);
      expect(bogus.error?.message).toContain('"telepathy"');
    },
  );

  it("2025-11-25/elicitation/url-not-declared-without-handler", async () => {
    const c = await stdioCase({ versions: ["2025-11-25"] });
    await c.connect({
      handlers: handlers({
        elicitation: [{ name: "form-only", modes: ["form"], handle: async () => ({ action: "accept" }) }],
      }),
    });
    const url = await c.server.request("elicitation/create", {
      mode: "url",
      message: "sign in",
      url: "https://example.com",
      elicitationId: "x",
    });
    expect(url.error).toEqual({ code: -32602, message: 'elicitation mode "url" was not declared by mcpx' });
  });

  requirement(["2025-06-18/elicitation/defaults", "2025-11-25/elicitation/defaults"], async (rev) => {
    const c = await stdioCase({ versions: [rev] });
    await c.connect({
      revision: rev,
      handlers: handlers({
        elicitation: [
          formAndUrl(async () => ({ action: "accept", content: { name: "Grace", subscribe: false } })),
        ],
      }),
    });
    const answer = await c.server.request("elicitation/create", { message: "who?", requestedSchema: schema });
    // set fields kept (even false), missing ones from defaults, no default → left out
    expect(answer.result).toEqual({
      action: "accept",
      content: { name: "Grace", subscribe: false, age: 36 },
    });
    expect(c.server.failures).toEqual([]);
  });

  requirement(
    ["2025-06-18/elicitation/nobody-listening", "2025-11-25/elicitation/nobody-listening"],
    async (rev) => {
      const c = await stdioCase({ versions: [rev] });
      await c.connect({ revision: rev });
      const answer = await c.server.request("elicitation/create", {
        message: "who?",
        requestedSchema: schema,
      });
      expect(answer.result).toEqual({ action: "cancel" });
      expect(c.server.failures).toEqual([]);
    },
  );

  it("elicitation/not-in-early-revisions", async () => {
    const c = await stdioCase({ versions: ["2025-03-26"] });
    await c.connect();
    const answer = await c.server.request("elicitation/create", { message: "who?", requestedSchema: schema });
    expect(answer.error).toEqual({
      code: -32601,
      message: "elicitation/create is not in protocol revision 2025-03-26",
    });
  });
});
