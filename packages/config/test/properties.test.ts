/**
 * Loading a config, checked on generated files (fast-check: 100 runs each; a failure prints its
 * seed and the shrunk counterexample, so it replays exactly). Whatever JSON a user writes, mcpx
 * answers with a loaded config or a ConfigError listing problems that each start with a key path.
 */
import { ConfigError } from "@mcpx/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../src/index.js";

/** Any JSON value (as JSON writes it: no -0). */
const value = fc.json().map((text) => JSON.parse(text) as unknown);
/** A value of the right kind for a key (mostly), or anything at all. */
const either = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: good, weight: 4 }, { arbitrary: value as fc.Arbitrary<unknown>, weight: 1 });
const text = fc.oneof(
  fc.string(),
  // biome-ignore lint/suspicious/noTemplateCurlyInString: ${env:NAME} is the config's own syntax
  fc.constantFrom("${env:HOME}", "${env:}", "${env:UNSET:-fallback}", "${env:UNSET}", "$${env:X}", "stdio"),
);
const key = fc.oneof(
  fc.constantFrom("fs", "web", "a-b", "x1"),
  fc.string(),
  fc.constantFrom("a_", "a__b", "my server", "__proto__", "0", ""),
);

/** One server's keys besides command and url: each present or not. */
const serverKeys = {
  args: either(fc.array(text, { maxLength: 3 })),
  env: either(fc.dictionary(key, text, { maxKeys: 3 })),
  cwd: either(text),
  type: either(fc.constantFrom("stdio", "http", "streamable-http", "sse", "ws")),
  transport: either(fc.constantFrom("stdio", "streamable-http", "http+sse")),
  revision: either(fc.constantFrom("2024-11-05", "2025-06-18", "2026-07-28", "1999-01-01")),
  namespace: either(key),
  namespacing: either(fc.boolean()),
  disabled: either(fc.boolean()),
  auth: either(fc.record({ type: either(fc.constantFrom("bearer", "oauth", "nope")), token: either(text) })),
  tools: either(fc.record({ include: either(fc.array(text)), exclude: either(fc.array(text)) })),
  timeouts: either(
    fc.dictionary(fc.constantFrom("request", "handshake", "probe", "bogus"), either(fc.integer()), {
      maxKeys: 2,
    }),
  ),
};
const server = fc.oneof(
  fc.record({ command: either(text), ...serverKeys }, { requiredKeys: ["command"] }),
  fc.record({ url: either(fc.oneof(fc.webUrl(), text)), ...serverKeys }, { requiredKeys: ["url"] }),
  fc.record({ command: either(text), url: either(fc.webUrl()), ...serverKeys }, { requiredKeys: [] }),
);

/** Configs that should load: every value of its kind, odd strings included. */
const name = fc.constantFrom("fs", "web", "a-b", "x1", "_z", "A_9");
const plain = fc.string().filter((s) => !s.includes("${"));
const goodFile = fc.record(
  {
    servers: fc.dictionary(
      name,
      fc.oneof(
        fc.record(
          {
            command: plain.filter((s) => s.length > 0),
            args: fc.array(plain, { maxLength: 3 }),
            env: fc.dictionary(fc.constantFrom("A", "B_C", "PATH"), plain, { maxKeys: 2 }),
            namespacing: fc.boolean(),
            disabled: fc.boolean(),
            timeouts: fc.record({ request: fc.integer({ min: 1 }) }, { requiredKeys: [] }),
          },
          { requiredKeys: ["command"] },
        ),
        fc.record(
          {
            url: fc.webUrl(),
            revision: fc.constantFrom("2025-06-18", "2026-07-28"),
            namespacing: fc.boolean(),
          },
          { requiredKeys: ["url"] },
        ),
      ),
      { maxKeys: 3 },
    ),
    roots: fc.array(
      fc.record({ uri: fc.webUrl().map((u) => `file:///${encodeURIComponent(u)}`), name: plain }),
    ),
    upstream: fc.record({ versionAttempts: fc.integer({ min: 1, max: 5 }) }, { requiredKeys: [] }),
  },
  { requiredKeys: ["servers"] },
);

/** Files shaped like configs, keys right or wrong, values of the right kind or not; and any JSON. */
const file = fc.oneof(
  value,
  goodFile,
  fc.record(
    {
      servers: either(fc.dictionary(key, either(server), { maxKeys: 3 })),
      mcpServers: either(fc.dictionary(key, either(server), { maxKeys: 2 })),
      listen: either(
        fc.record(
          { host: either(text), port: either(fc.integer({ min: 0, max: 70_000 })), token: either(text) },
          { requiredKeys: [] },
        ),
      ),
      upstream: either(
        fc.dictionary(
          fc.constantFrom("versionAttempts", "timeouts", "maxFrameBytes", "x"),
          either(fc.nat()),
          {
            maxKeys: 2,
          },
        ),
      ),
      plugins: either(fc.array(either(fc.oneof(text, fc.tuple(text, value))), { maxLength: 2 })),
      roots: either(fc.array(either(fc.record({ uri: either(text), name: either(text) })), { maxLength: 2 })),
      stateDir: either(text),
      log: value,
    },
    { requiredKeys: ["servers"] },
  ),
);

/** A key path as problems write it (`servers.fs.args[0]`, `servers["my server"]`), or (root). */
const KEY_PATH =
  /^(?:\(root\)|(?:[A-Za-z_$][\w$-]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])(?:\.[A-Za-z_$][\w$-]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*): \S/;

describe("properties", () => {
  it("properties/config-loading-never-throws-anything-but-ConfigError", () => {
    fc.assert(
      fc.property(file, (data) => {
        try {
          const config = parseConfig(JSON.stringify(data), {
            env: { HOME: "/home/x" },
            path: "/tmp/cfg/mcpx.json",
          });
          expect(typeof config.servers).toBe("object");
        } catch (err) {
          if (!(err instanceof ConfigError)) {
            throw new Error(`loading threw ${String(err)} for ${JSON.stringify(data)}`);
          }
          expect(err.problems.length).toBeGreaterThan(0);
          for (const problem of err.problems) expect(problem).toMatch(KEY_PATH);
        }
      }),
    );
  });
});
