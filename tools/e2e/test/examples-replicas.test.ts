/**
 * examples/replicas/start.mjs: redis-server, two `mcpx serve` replicas and a round-robin balancer,
 * started by one node script; a tool is called through the balancer, and Ctrl-C stops it all.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { afterThisTest } from "../src/index.js";
import { legacySession, mirrored, modernBody, post } from "./gateway-http.helpers.js";

const START = fileURLToPath(new URL("../../../examples/replicas/start.mjs", import.meta.url));

describe("examples", () => {
  it("examples/replicas-start-serves-through-the-balancer", async () => {
    const child = spawn(process.execPath, [START], { stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    afterThisTest(async () => {
      if (child.exitCode === null) child.kill("SIGINT");
      await exited;
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    await expect
      .poll(() => out, { timeout: 60_000, interval: 200 })
      .toMatch(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
    const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(out)![0];
    // Calls alternate between the replicas: each answers.
    for (const text of ["one", "two"]) {
      const res = await post(
        url,
        modernBody("tools/call", { name: "everything__echo", arguments: { message: text } }),
        mirrored("tools/call", "everything__echo"),
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as { result: { content: { text: string }[] } };
      expect(body.result.content[0]!.text).toContain(text);
    }
    // A legacy session opened on one replica: its requests reaching the other are proxied (over Redis).
    const session = await legacySession(url);
    for (let i = 0; i < 2; i++) {
      const { res, body } = await session.request("tools/list");
      expect(res.status).toBe(200);
      expect((body.result as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain(
        "everything__echo",
      );
    }
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  }, 90_000);
});
