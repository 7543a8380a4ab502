/** The server leg's config and verdict: what `pnpm conformance:server` serves and counts as a pass. */
import { describe, expect, it } from "vitest";
import { referenceServerDir } from "../src/reference-server.js";
import { fixtureUpstream, judgeServerRun, legConfig } from "../src/server-leg.js";
import type { Check, Exec } from "../src/suite.js";

const exec = (over: Partial<Exec> = {}): Exec => ({
  code: 0,
  timedOut: false,
  stdout: "",
  stderr: "",
  ms: 1,
  ...over,
});
const check = (id: string, status: Check["status"], errorMessage?: string): Check => ({
  id,
  status,
  ...(errorMessage ? { errorMessage } : {}),
});

describe("server leg", () => {
  it("server-leg/fixture-under-its-own-names-on-loopback", () => {
    const config = legConfig("/tmp/state", fixtureUpstream("/x/fixture-server.js"));
    expect(config.servers.conformance).toEqual({
      command: process.execPath,
      args: ["/x/fixture-server.js"],
      namespacing: false,
    });
    expect(config.listen).toEqual({ host: "127.0.0.1", port: 0 });
    expect(config.stateDir).toBe("/tmp/state");
  });

  it("server-leg/reference-server-by-url-under-its-own-names", () => {
    const config = legConfig("/tmp/state", { url: "http://127.0.0.1:4000/mcp" });
    expect(config.servers.conformance).toEqual({ url: "http://127.0.0.1:4000/mcp", namespacing: false });
    expect(config.listen).toEqual({ host: "127.0.0.1", port: 0 });
  });

  it("server-leg/reference-server-found-beside-the-repo-or-where-the-env-says", () => {
    expect(referenceServerDir({}, "/w/main")).toBe("/w/shared/peers/conformance-reference-server");
    expect(referenceServerDir({ MCPX_REFERENCE_SERVER_DIR: "/elsewhere/ref" }, "/w/main")).toBe(
      "/elsewhere/ref",
    );
    // a relative override is the repository's
    expect(referenceServerDir({ MCPX_REFERENCE_SERVER_DIR: "peers/ref" }, "/w/main")).toBe(
      "/w/main/peers/ref",
    );
  });

  it("server-leg/a-check-of-the-scenarios-own-must-succeed", () => {
    const wire = check("wire-schema-valid", "SUCCESS");
    // the suite's verdict first: a failure or a warning fails the run
    expect(judgeServerRun(exec({ code: 1 }), [wire, check("x", "FAILURE", "bad")], 1000).pass).toBe(false);
    expect(judgeServerRun(exec(), [wire, check("x", "WARNING", "meh")], 1000).pass).toBe(false);
    // well-formed traffic alone shows nothing: every own check skipped is no pass
    const skipped = judgeServerRun(exec(), [wire, check("sep-2640-x", "SKIPPED", "not declared")], 1000);
    expect(skipped).toEqual({
      pass: false,
      reason: "no check of the scenario's own succeeded (sep-2640-x: not declared)",
    });
    expect(judgeServerRun(exec(), [wire, check("tools-list", "SUCCESS")], 1000)).toEqual({ pass: true });
  });
});
