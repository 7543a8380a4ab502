/**
 * mcpx leaves nothing behind: the BUILT `mcpx` (apps/cli/dist/bin.js) as a child process, in front of
 * stdio upstreams that carry a marker argument of the test's own, found afterwards by scanning /proc.
 * The upstreams here never exit at the end of their input (`--stay`): only a signal ends them, the
 * worst case for a gateway that must not orphan them. Some run through a shell, as `npx -y …` and
 * wrappers do, so that the server is mcpx's grandchild.
 */
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import {
  exitedByItself,
  processesWith,
  processMarker,
  runBuiltMcpx,
  serverProcesses,
  slowServer,
} from "../src/built-cli.js";
import { afterThisTest, configDir, until } from "../src/index.js";

describe("no orphans", () => {
  it("serve/busy-port-exits-non-zero-at-once-leaving-no-child", async () => {
    // The port, taken by someone else first.
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
    afterThisTest(() => new Promise<void>((resolve) => squatter.close(() => resolve())));
    const port = (squatter.address() as { port: number }).port;
    const marker = processMarker();
    const dir = await configDir({
      listen: { host: "127.0.0.1", port },
      stateDir: ".state",
      servers: { up: slowServer({ delayMs: 0, tool: "echo", marker, stay: true }) },
    });
    const run = runBuiltMcpx(["serve", "--config", "mcpx.json"], dir);
    const code = await exitedByItself(run);
    expect(code).toBe(1);
    expect(run.stderr()).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use`);
    expect(run.stderr()).toMatch(/--port or listen\.port in .*mcpx\.json/);
    expect(processesWith(marker)).toEqual([]);
  });

  for (const wrapper of ["exec", "child"] as const) {
    for (const round of [1, 2, 3]) {
      it(`stdio/host-closing-mcpx-stdio-while-an-upstream-starts-leaves-no-process (sh -c ${wrapper === "exec" ? '"exec node …"' : '"node …; true"'}, run ${round})`, async () => {
        const marker = processMarker();
        const dir = await configDir({
          stateDir: ".state",
          upstream: { timeouts: { closeGrace: 300 } },
          // Still starting when the host goes: it answers nothing for 30 s.
          servers: { slow: slowServer({ delayMs: 30_000, tool: "echo", marker, stay: true, wrapper }) },
        });
        const run = runBuiltMcpx(["stdio", "--config", "mcpx.json"], dir);
        run.child.stdin.write(
          `${JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: "2025-06-18",
              capabilities: {},
              clientInfo: { name: "host", version: "1" },
            },
          })}\n`,
        );
        // The server itself is running (not only the shell that starts it).
        await until(() => serverProcesses(marker).length === 1, 15_000);
        if (wrapper === "child") expect(processesWith(marker)).toHaveLength(2);
        // The host goes away: it closes mcpx's input.
        run.child.stdin.end();
        expect(await exitedByItself(run)).toBe(0);
        expect(processesWith(marker)).toEqual([]);
      });
    }
  }

  it("stdio/sigterm-while-an-upstream-starts-leaves-no-process", async () => {
    const marker = processMarker();
    const dir = await configDir({
      stateDir: ".state",
      upstream: { timeouts: { closeGrace: 300 } },
      servers: {
        slow: slowServer({ delayMs: 30_000, tool: "echo", marker, stay: true, wrapper: "child" }),
      },
    });
    const run = runBuiltMcpx(["stdio", "--config", "mcpx.json"], dir);
    await until(() => serverProcesses(marker).length === 1, 15_000);
    // The host ends mcpx with a signal, its input still open.
    run.child.kill("SIGTERM");
    expect(await exitedByItself(run)).toBe(0);
    expect(processesWith(marker)).toEqual([]);
  });
});
