// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${env:NAME} is the config's own syntax
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ConfigError } from "@mcpx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LISTEN, loadListen } from "../src/index.js";

describe("config listen only", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "mcpx-listen-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("config/listen-only-load-expands-listen-alone", async () => {
    const file = path.join(dir, "mcpx.json");
    await writeFile(
      file,
      JSON.stringify({
        listen: { port: 7444, token: "${env:MCPX_TOKEN}" },
        // Secrets a daemon needs and a command that only talks to it does not, nor an invalid server.
        servers: {
          api: { url: "https://x.example/mcp", auth: { type: "bearer", token: "${env:UNSET}" } },
          bad: {},
        },
      }),
    );
    const loaded = await loadListen(file, { env: { MCPX_TOKEN: "tok" } });
    expect(loaded).toEqual({ path: file, listen: { ...DEFAULT_LISTEN, port: 7444, token: "tok" } });
    // What listen itself gets wrong is still reported, naming the key.
    await writeFile(
      file,
      JSON.stringify({ listen: { port: "x", host: "${env:NOHOST}", token: "${env:NOPE}" }, servers: {} }),
    );
    await expect(loadListen(file, { env: {} })).rejects.toThrow(ConfigError);
    const problems = await loadListen(file, { env: {} }).catch((err: ConfigError) => err.problems);
    expect(problems).toEqual([
      "listen.host: environment variable NOHOST is not set",
      "listen.token: environment variable NOPE is not set",
      "listen.port: must be integer",
    ]);
    // A missing file keeps its cause, which names the path.
    const missing = await loadListen(path.join(dir, "none.json")).then(
      () => undefined,
      (err: ConfigError) => err.cause as NodeJS.ErrnoException,
    );
    expect(missing?.code).toBe("ENOENT");
  });
});
