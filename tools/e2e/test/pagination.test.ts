import { describe, expect } from "vitest";
import { requirement, stdioCase } from "../src/index.js";

const many = Array.from({ length: 5 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: "object" } }));

describe("pagination (legacy, stdio)", () => {
  requirement(
    [
      "2024-11-05/pagination/missing-cursor-ends",
      "2025-03-26/pagination/missing-cursor-ends",
      "2025-06-18/pagination/missing-cursor-ends",
      "2025-11-25/pagination/missing-cursor-ends",
    ],
    async (rev) => {
      const c = await stdioCase({ versions: [rev], tools: many, pageSize: 2 });
      const client = await c.connect({ revision: rev });
      const tools = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["t0", "t1", "t2", "t3", "t4"]);
      expect(c.server.frames("tools/list").map((f) => f.params?.cursor)).toEqual([undefined, "c2", "c4"]);
      expect(c.server.failures).toEqual([]);
    },
  );

  requirement(
    [
      "2024-11-05/pagination/empty-cursor-ends",
      "2025-03-26/pagination/empty-cursor-ends",
      "2025-06-18/pagination/empty-cursor-ends",
      "2025-11-25/pagination/empty-cursor-ends",
    ],
    async (rev) => {
      const c = await stdioCase({
        versions: [rev],
        handlers: { "tools/list": () => ({ tools: [many[0]], nextCursor: "" }) },
      });
      const client = await c.connect({ revision: rev });
      expect(await client.listTools()).toHaveLength(1);
      expect(c.server.frames("tools/list")).toHaveLength(1);
    },
  );

  requirement(
    [
      "2024-11-05/pagination/repeated-cursor-ends",
      "2025-03-26/pagination/repeated-cursor-ends",
      "2025-06-18/pagination/repeated-cursor-ends",
      "2025-11-25/pagination/repeated-cursor-ends",
    ],
    async (rev) => {
      // a tool of its own on each page: a second tool of the same name would be left out as a duplicate
      const c = await stdioCase({
        versions: [rev],
        handlers: {
          "tools/list": (req) => ({ tools: [req.params?.cursor ? many[1] : many[0]], nextCursor: "same" }),
        },
      });
      const client = await c.connect({ revision: rev });
      expect(await client.listTools()).toHaveLength(2);
      // the second page answered with the cursor it was asked with: the list ends there
      expect(c.server.frames("tools/list").map((f) => f.params?.cursor)).toEqual([undefined, "same"]);
    },
  );
});
