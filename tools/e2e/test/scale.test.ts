import { describe, expect, it } from "vitest";
import { scriptedGateway, stdioClient } from "../src/index.js";

const toolsOf = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    name: `${prefix}${i}`,
    description: `tool ${i}`,
    inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  }));

async function legacyClient(gateway: Parameters<typeof stdioClient>[0]) {
  const c = stdioClient(gateway);
  await c.request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "test", version: "1" },
  });
  c.send({ method: "notifications/initialized" });
  return c;
}

/** Every page of the aggregated tools/list, followed to its end. */
async function allTools(c: Awaited<ReturnType<typeof legacyClient>>) {
  const names: string[] = [];
  const sizes: number[] = [];
  let cursor: unknown;
  do {
    const res = await c.request("tools/list", cursor === undefined ? {} : { cursor });
    expect(res.error).toBeUndefined();
    const tools = res.result?.tools as { name: string }[];
    sizes.push(tools.length);
    names.push(...tools.map((t) => t.name));
    cursor = res.result?.nextCursor;
  } while (cursor !== undefined);
  return { names, sizes };
}

describe("the aggregate at scale", () => {
  it("scale/paged-list-of-10000-tools-is-complete-and-in-order", async () => {
    // 20 upstreams of 500 tools: 10,000 in the union, 100 to a page.
    const specs = Array.from({ length: 20 }, (_, k) => ({
      name: `u${String(k).padStart(2, "0")}`,
      versions: ["2025-11-25"],
      tools: toolsOf("t", 500),
      capabilities: { tools: {} },
    }));
    const { gateway, scripted } = await scriptedGateway(specs, { pageSize: 100 });
    const c = await legacyClient(gateway);
    const expected = specs.flatMap((s) => s.tools.map((t) => `${s.name}__${t.name}`));
    const first = await allTools(c);
    expect(first.names).toEqual(expected);
    expect(first.sizes).toEqual(Array(100).fill(100));
    // Listed again, from what the catalog kept: the same union, and no upstream asked twice.
    const second = await allTools(c);
    expect(second.names).toEqual(expected);
    for (const s of specs) expect(scripted[s.name]?.frames("tools/list"), s.name).toHaveLength(1);
  }, 120_000);

  it("scale/aggregate-follows-an-upstream-list-change", async () => {
    const { gateway, scripted } = await scriptedGateway(
      [
        {
          name: "a",
          versions: ["2025-11-25"],
          tools: toolsOf("x", 3),
          capabilities: { tools: { listChanged: true } },
        },
        {
          name: "b",
          versions: ["2025-11-25"],
          tools: toolsOf("y", 2),
          capabilities: { tools: { listChanged: true } },
        },
      ],
      { pageSize: 2 },
    );
    const c = await legacyClient(gateway);
    expect((await allTools(c)).names).toEqual(["a__x0", "a__x1", "a__x2", "b__y0", "b__y1"]);
    // b's tools change and it says so: the next listing is built anew, the cached union is not served.
    const b = scripted.b as NonNullable<(typeof scripted)["b"]>;
    b.options.tools = toolsOf("z", 1);
    const listed = b.frames("tools/list").length;
    b.notify("notifications/tools/list_changed");
    await c.waitFor((m) => "method" in m && m.method === "notifications/tools/list_changed");
    expect((await allTools(c)).names).toEqual(["a__x0", "a__x1", "a__x2", "b__z0"]);
    expect(b.frames("tools/list").length).toBe(listed + 1);
    // a was not asked again: its list was kept.
    expect(scripted.a?.frames("tools/list")).toHaveLength(1);
  });
});
