/**
 * `mcpx tools list|show`, `mcpx call` and `mcpx prompts get` as a person uses them, in-process, in
 * front of scripted upstreams whose every received frame is checked strictly.
 */
import type { JSONObject } from "@mcpx/core";
import { describe, expect, it } from "vitest";
import { configDir } from "../src/index.js";
import { ESCAPE, run, scriptedUpstream } from "./cli.helpers.js";

describe("mcpx tools", () => {
  it("cli/tools-list-honours-include-and-exclude", async () => {
    const fs = await scriptedUpstream();
    const dir = await configDir({
      servers: {
        fs: { ...fs.entry, tools: { include: ["*_file", "stat"], exclude: ["delete_*"] } },
        all: (await scriptedUpstream()).entry,
      },
    });
    const names = (out: string) => (JSON.parse(out) as { servers: { tools: { name: string }[] }[] }).servers;
    // -s: that server alone, through the gateway's own include/exclude filter.
    const one = await run(dir, ["tools", "list", "-s", "fs", "--json"]);
    expect(one.code).toBe(0);
    const listed = names(one.stdout);
    expect(listed).toHaveLength(1);
    expect(listed[0]?.tools.map((t) => t.name)).toEqual(["fs__read_file", "fs__stat", "fs__write_file"]);
    // Without -s the same, and the unfiltered server keeps all seven.
    const both = names((await run(dir, ["tools", "list", "--json"])).stdout);
    expect(both.map((s) => s.tools.length)).toEqual([3, 7]);
    // --filter narrows by name (the exposed one or the upstream's own), within what is shown.
    const filtered = await run(dir, ["tools", "list", "-s", "fs", "--filter", "*_file"]);
    expect(filtered.stdout).toBe(
      [
        "fs: 2025-11-25 over stdio, 2 of 3 tools",
        "  fs__read_file  Read a file from disk.",
        "  fs__write_file  Write a file",
        "",
      ].join("\n"),
    );
    // A server the gateway hides a tool of cannot be called through it either.
    const hidden = await run(dir, ["call", "fs__delete_file", "path=x"]);
    expect(hidden.code).toBe(2);
    expect(hidden.stderr).toContain("unknown tool fs__delete_file");
    expect(fs.server.failures).toEqual([]);
  });

  it("cli/tools-show-renders-a-signature", async () => {
    const dir = await configDir({ servers: { fs: (await scriptedUpstream()).entry } });
    const shown = await run(dir, ["tools", "show", "fs__read_file"]);
    expect(shown.stderr).toBe("");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(
      [
        'fs__read_file(path: string, encoding?: "utf8" | "base64" = "utf8") -> text',
        "",
        "Read file",
        "",
        "Read a file from disk.",
        "The whole file, in one piece.",
        "",
        "Parameters:",
        "  path  string  The file to read",
        '  encoding  "utf8" | "base64", optional  How the content is encoded (default "utf8")',
        "",
        "Annotations:",
        "  readOnlyHint  true",
        "",
      ].join("\n"),
    );
    // An output schema is the signature's result, and a section of its own.
    const stat = await run(dir, ["tools", "show", "fs__stat"]);
    expect(stat.stdout.split("\n")[0]).toBe(
      'fs__stat(path: string) -> { size: integer, kind?: "file" | "dir" }',
    );
    expect(stat.stdout).toContain('Output:\n  { size: integer, kind?: "file" | "dir" }\n');
  });

  it("cli/tools-show-json", async () => {
    const dir = await configDir({ servers: { fs: (await scriptedUpstream()).entry } });
    const shown = await run(dir, ["tools", "show", "fs__read_file", "--json"]);
    expect(shown.code).toBe(0);
    // The tool exactly as mcpx lists it to its clients: the upstream's, under its exposed name.
    const listed = JSON.parse((await run(dir, ["tools", "list", "--json"])).stdout) as {
      servers: { tools: { name: string }[] }[];
    };
    expect(listed.servers[0]?.tools.map((t) => t.name)).toContain("fs__read_file");
    const tool = JSON.parse(shown.stdout) as JSONObject;
    expect(tool).toMatchObject({
      name: "fs__read_file",
      title: "Read file",
      annotations: { readOnlyHint: true },
      inputSchema: { required: ["path"] },
    });
    expect(shown.stdout).not.toMatch(ESCAPE);
  });

  it("cli/unknown-tool-suggests-the-nearest", async () => {
    const dir = await configDir({ servers: { fs: (await scriptedUpstream()).entry } });
    // A swap of two letters is one edit (Damerau-Levenshtein).
    const typo = await run(dir, ["call", "fs__raed_file", "path=x"]);
    expect(typo).toMatchObject({ code: 2, stdout: "" });
    expect(typo.stderr).toBe("mcpx: unknown tool fs__raed_file (did you mean fs__read_file?)\n");
    // The name without its namespace finds the namespaced one.
    const bare = await run(dir, ["tools", "show", "stat"]);
    expect(bare.stderr).toBe("mcpx: unknown tool stat (did you mean fs__stat?)\n");
    // Nothing near: no guess, a pointer instead.
    const far = await run(dir, ["call", "fs__zzzzzzzzzz"]);
    expect(far.stderr).toBe("mcpx: unknown tool fs__zzzzzzzzzz (mcpx tools list shows the tools)\n");
    // An unknown server, the same way.
    const server = await run(dir, ["tools", "list", "-s", "fss"]);
    expect(server.code).toBe(2);
    expect(server.stderr).toBe(`mcpx: no server named fss in ${dir}/mcpx.json (did you mean fs?)\n`);
    const prompt = await run(dir, ["prompts", "get", "fs__gret", "id=1"]);
    expect(prompt.stderr).toBe("mcpx: unknown prompt fs__gret (did you mean fs__greet?)\n");
  });
});

describe("mcpx call and prompts get arguments", () => {
  it("cli/key-value-arguments-coerced-by-schema-only", async () => {
    const { server, entry } = await scriptedUpstream();
    const dir = await configDir({ servers: { fs: entry } });
    const sent = async (...args: string[]) => {
      const r = await run(dir, ["call", "fs__typed", ...args]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout) as JSONObject;
    };
    expect(
      await sent(
        "s=2",
        "n=2.5",
        "i=-3",
        "b=true",
        'a=["x","y"]',
        'o={"k":1}',
        "maybe=null",
        "either=false",
        "extra=7",
      ),
    ).toEqual({
      s: "2",
      n: 2.5,
      i: -3,
      b: true,
      a: ["x", "y"],
      o: { k: 1 },
      maybe: null,
      // A union with string: a string is what fits first, as typed.
      either: "false",
      // Not in the schema: a string, however much it looks like a number.
      extra: "7",
    });
    // A string stays a string even when it reads as another type.
    expect(await sent("s=true", 'o={"a":[1]}', "s=null")).toEqual({ s: "null", o: { a: [1] } });
    // --arg and a JSON object too; key=value wins over the object's key.
    expect(await sent('{"s":"from json","n":1}', "--arg", "n=4", "i=5")).toEqual({
      s: "from json",
      n: 4,
      i: 5,
    });
    // A value that does not fit names the key and the type, and nothing is sent.
    const calls = () => server.received.filter((r) => r.frame.method === "tools/call").length;
    const before = calls();
    for (const [arg, message] of [
      ["i=2.5", "i=2.5: i must be an integer"],
      ["n=abc", "n=abc: n must be a number"],
      ["b=yes", "b=yes: b must be true or false"],
      ["a={}", "a={}: a must be a JSON array"],
      ["maybe=x", "maybe=x: maybe must be an integer or null"],
    ] as const) {
      const r = await run(dir, ["call", "fs__typed", arg]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`mcpx: ${message} (mcpx tools show <tool> shows each parameter's type)\n`);
    }
    expect(calls()).toBe(before);
    // Not key=value at all: refused before anything connects.
    const bad = await run(dir, ["call", "fs__typed", "novalue"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('"novalue" is not key=value');
    expect(server.failures).toEqual([]);
  });

  it("cli/prompt-arguments-stay-strings", async () => {
    const { server, entry } = await scriptedUpstream();
    const dir = await configDir({ servers: { fs: entry } });
    const got = () =>
      server.received
        .filter((r) => r.frame.method === "prompts/get")
        .map((r) => (r.frame.params as JSONObject).arguments);
    expect((await run(dir, ["prompts", "get", "fs__greet", "--arg", "id=2"])).code).toBe(0);
    expect((await run(dir, ["prompts", "get", "fs__greet", "id=true"])).code).toBe(0);
    expect(got()).toEqual([{ id: "2" }, { id: "true" }]);
    // A JSON object's value that is not a string is refused, saying how to write it.
    const json = await run(dir, ["prompts", "get", "fs__greet", '{"id":2}']);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain("prompt argument id is a number: prompt arguments are strings");
    expect(got()).toHaveLength(2);
    expect(server.failures).toEqual([]);
  });
});

describe("mcpx errors and output", () => {
  it("cli/json-errors-on-stderr", async () => {
    const dir = await configDir({ servers: { fs: (await scriptedUpstream()).entry } });
    const error = (r: { stderr: string }) => JSON.parse(r.stderr) as { error: JSONObject };
    // A usage error of commander's, of mcpx's own, a config error, an upstream's error and a dead
    // upstream: each one JSON object on stderr, stdout empty.
    const cases: [string[], number, JSONObject][] = [
      [
        ["tool", "list", "--json"],
        2,
        { code: "usage", message: "unknown command 'tool'", hint: "did you mean tools?" },
      ],
      [
        ["call", "fs__raed_file", "--json"],
        2,
        { code: "usage", message: "unknown tool fs__raed_file", hint: "did you mean fs__read_file?" },
      ],
      [["call", "fs__typed", "i=x", "--json"], 2, { code: "usage", message: "i=x: i must be an integer" }],
      [["call", "fs__broken", "--json"], 1, { code: "call-failed" }],
      [["tools", "list", "-c", "missing.json", "--json"], 2, { code: "config" }],
    ];
    for (const [args, code, expected] of cases) {
      const r = await run(dir, args);
      expect(r.code, args.join(" ")).toBe(code);
      expect(r.stdout).toBe("");
      expect(r.stderr.trimEnd().split("\n"), args.join(" ")).toHaveLength(1);
      expect(error(r).error).toMatchObject(expected);
    }
    // The upstream's JSON-RPC error, as it said it.
    expect(error(await run(dir, ["call", "fs__broken", "--json"])).error.message).toBe(
      "the disk is on fire (JSON-RPC -32603)",
    );
    // Without --json: one readable line.
    expect((await run(dir, ["call", "fs__broken"])).stderr).toBe(
      "mcpx: the disk is on fire (JSON-RPC -32603)\n",
    );
    // A result with isError is a result: on stdout, exit 1, nothing on stderr.
    const failed = await run(dir, ["call", "fs__fail", "--json"]);
    expect(failed).toMatchObject({ code: 1, stderr: "" });
    expect(JSON.parse(failed.stdout)).toMatchObject({ isError: true });
  });

  it("cli/missing-config-names-its-path", async () => {
    const dir = await configDir({ servers: {} });
    const hint =
      "create one with `mcpx config init`, name another with --config, or run a server without one: --stdio '<command>' or --url <url>";
    for (const args of [
      ["tools", "list", "-c", "nope.json"],
      ["call", "x__y", "--config", "sub/nope.json"],
      ["status", "-c", "nope.json"],
    ]) {
      const r = await run(dir, args);
      expect(r.code).toBe(2);
      const file = args.includes("sub/nope.json") ? `${dir}/sub/nope.json` : `${dir}/nope.json`;
      expect(r.stderr).toBe(`mcpx: no config file at ${file} (${hint})\n`);
    }
  });

  it("cli/colour-and-aligned-columns-on-a-tty", async () => {
    const dir = await configDir({ servers: { fs: (await scriptedUpstream()).entry } });
    const tty = await run(dir, ["tools", "list"], { tty: { columns: 50 } });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(ESCAPE);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing the colour to read the columns
    const plain = tty.stdout.replace(/\u001b\[[0-9;]*m/g, "").split("\n");
    const rows = plain.filter((l) => l.startsWith("  fs__"));
    expect(rows).toHaveLength(7);
    // Every description starts in one column, and no line is wider than the terminal.
    const starts = new Set(rows.map((l) => l.search(/ {2}[A-Z]/)));
    expect(starts.size).toBe(1);
    for (const line of plain) expect(line.length).toBeLessThanOrEqual(50);
    expect(rows[0]).toBe("  fs__read_file    Read a file from disk.");
    expect(rows.find((l) => l.startsWith("  fs__stat"))).toBe("  fs__stat         A file's size and kind");
    // Cut to the width, with the cut shown.
    const narrow = await run(dir, ["tools", "list"], { tty: { columns: 30 } });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing the colour
    const cut = narrow.stdout.replace(/\u001b\[[0-9;]*m/g, "").split("\n")[1];
    expect(cut).toBe("  fs__read_file    Read a fil…");
    expect(cut).toHaveLength(30);
  });
});
