import { ConnectionClosedError, RequestTimeoutError, UnsupportedVersionError } from "@mcpx/core";
import { NO_ANSWER } from "@mcpx/testkit";
import { describe, expect, it } from "vitest";
import { requirement, settings, stdioCase, TOOLS } from "../src/index.js";

describe("lifecycle (legacy, stdio)", () => {
  requirement(
    [
      "2024-11-05/lifecycle/unsupported-version",
      "2025-03-26/lifecycle/unsupported-version",
      "2025-06-18/lifecycle/unsupported-version",
      "2025-11-25/lifecycle/unsupported-version",
    ],
    async (rev) => {
      const c = await stdioCase({ versions: [rev], answerVersion: "1999-01-01" });
      const err = await c.connect({ revision: rev }).catch((e) => e);
      expect(err).toBeInstanceOf(UnsupportedVersionError);
      expect(err.message).toContain('"1999-01-01"');
      // disconnected: the child's stdin was closed, and notifications/initialized was never sent
      await c.script.eof();
      expect(c.server.frames().map((f) => f.method)).toEqual(["initialize"]);
      expect(c.server.failures).toEqual([]);
    },
  );

  it("lifecycle/negotiated-down", async () => {
    // offered the newest legacy version, the server answers an older one mcpx speaks: that one is spoken
    const c = await stdioCase({ versions: ["2025-03-26"], tools: TOOLS });
    const client = await c.connect();
    expect(c.server.frames("initialize")[0]?.params?.protocolVersion).toBe("2025-11-25");
    expect(client.negotiated.version).toBe("2025-03-26");
    expect(client.revision.version).toBe("2025-03-26");
    expect(await client.listTools()).toHaveLength(2);
    // the era probe's server/discover got -32601 from this legacy server, so initialize followed
    expect(c.server.frames().map((f) => f.method)).toEqual([
      "server/discover",
      "initialize",
      "notifications/initialized",
      "tools/list",
    ]);
    expect(c.server.failures).toEqual([]);
  });

  requirement(
    [
      "2024-11-05/lifecycle/initialize-never-cancelled",
      "2025-03-26/lifecycle/initialize-never-cancelled",
      "2025-06-18/lifecycle/initialize-never-cancelled",
      "2025-11-25/lifecycle/initialize-never-cancelled",
    ],
    async (rev) => {
      const c = await stdioCase({ versions: [rev], handlers: { initialize: () => NO_ANSWER } });
      const err = await c
        .connect({ revision: rev, settings: settings({ handshakeTimeout: 300 }) })
        .catch((e) => e);
      expect(err).toBeInstanceOf(RequestTimeoutError);
      await c.script.eof();
      expect(c.server.frames("notifications/cancelled")).toEqual([]);
      expect(c.server.frames().map((f) => f.method)).toEqual(["initialize"]);
    },
  );

  requirement(
    [
      "2024-11-05/lifecycle/roots-capability",
      "2025-03-26/lifecycle/roots-capability",
      "2025-06-18/lifecycle/roots-capability",
      "2025-11-25/lifecycle/roots-capability",
    ],
    async (rev) => {
      const c = await stdioCase({ versions: [rev] });
      await c.connect({ revision: rev });
      const init = c.server.frames("initialize")[0];
      expect(init?.params?.capabilities).toMatchObject({ roots: { listChanged: false } });
      expect(c.server.failures).toEqual([]);
    },
  );

  it("lifecycle/child-exit-fails-pending-at-once", async () => {
    const c = await stdioCase({
      versions: ["2025-06-18"],
      tools: TOOLS,
      handlers: { "tools/call": () => NO_ANSWER },
    });
    const client = await c.connect({ settings: settings({ requestTimeout: 30_000 }) });
    const started = Date.now();
    const call = client.callTool("echo", { text: "hi" }).catch((e) => e);
    await c.server.waitForMethod("tools/call");
    c.script.exit(3);
    const err = await call;
    expect(err).toBeInstanceOf(ConnectionClosedError);
    expect(err.message).toContain("exited with code 3");
    // failed when the child exited, not at the 30 s deadline
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(client.closed).toBe(true);
  });

  it("lifecycle/ping-and-set-level", async () => {
    const c = await stdioCase({ versions: ["2025-06-18"] });
    const client = await c.connect();
    await client.ping();
    await client.setLogLevel("warning");
    expect(c.server.frames("ping")).toHaveLength(1);
    expect(c.server.frames("logging/setLevel")[0]?.params).toEqual({ level: "warning" });
    expect(c.server.failures).toEqual([]);
  });
});
