/** What the command line itself gets wrong, and the small parsers behind it: no upstream needed. */
import { describe, expect, it } from "vitest";
import { nameOfCommand, nameOfUrl } from "../src/adhoc.js";
import { main } from "../src/main.js";
import { shellWords } from "../src/shell-words.js";
import { editDistance, nearest } from "../src/suggest.js";

async function run(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd: "/nonexistent-dir",
    env: {},
  });
  return { code, stdout, stderr };
}

describe("cli usage", () => {
  it("cli/unknown-command-suggests", async () => {
    expect(await run(["tool", "list"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "mcpx: unknown command 'tool' (did you mean tools?)\n",
    });
    expect((await run(["tools", "lst"])).stderr).toBe("mcpx: unknown command 'lst' (did you mean list?)\n");
    expect((await run(["tools", "list", "--srever", "x"])).stderr).toBe(
      "mcpx: unknown option '--srever' (did you mean --server?)\n",
    );
    // Nothing near: where to read the usage, of the command that failed.
    expect((await run(["call"])).stderr).toBe(
      "mcpx: missing required argument 'tool' (mcpx call --help for usage)\n",
    );
    // As JSON on stderr with --json.
    const json = await run(["tool", "list", "--json"]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr)).toEqual({
      error: { code: "usage", message: "unknown command 'tool'", hint: "did you mean tools?" },
    });
    // A command that needs a subcommand: its help on stderr, and a usage error.
    const bare = await run(["tools"]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("Usage: mcpx tools [options] [command]");
    expect(bare.stderr.endsWith("mcpx: mcpx tools needs a command (mcpx tools --help lists them)\n")).toBe(
      true,
    );
    // Help and the version are no errors.
    expect((await run(["tools", "--help"])).code).toBe(0);
  });

  it("cli/edit-distance-counts-a-swap-as-one", () => {
    expect(editDistance("fs__raed_file", "fs__read_file")).toBe(1);
    expect(editDistance("ab", "ba")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(nearest("raed_file", ["fs__read_file", "fs__write_file", "web__read_file"])).toEqual([
      "fs__read_file",
      "web__read_file",
    ]);
    expect(nearest("zzzz", ["fs__read_file"])).toEqual([]);
  });

  it("cli/stdio-command-line-split-like-a-shell", () => {
    const split = (line: string) => shellWords(line, "/home/me");
    expect(split("npx -y @modelcontextprotocol/server-everything")).toEqual([
      "npx",
      "-y",
      "@modelcontextprotocol/server-everything",
    ]);
    expect(split(`node '/my files/s.js' --name "a \\"b\\" \\$c" x\\ y '' ~/d`)).toEqual([
      "node",
      "/my files/s.js",
      "--name",
      'a "b" $c',
      "x y",
      "",
      "/home/me/d",
    ]);
    expect(split("  a\t b  ")).toEqual(["a", "b"]);
    for (const [line, problem] of [
      ["a | b", '"|" (a shell operator)'],
      ["a $HOME", '"$" (a shell expansion)'],
      ['a "$HOME"', '"$" (a shell expansion)'],
      ["a 'open", "a single quote that is never closed"],
      ['a "open', "a double quote that is never closed"],
    ] as const) {
      expect(() => split(line), line).toThrow(problem);
    }
    expect(() => split("   ")).toThrow("--stdio needs a command");
    // The names ad-hoc servers get.
    expect(nameOfCommand("npx", ["-y", "@modelcontextprotocol/server-everything@1.2.3"])).toBe(
      "server-everything",
    );
    expect(nameOfCommand("node", ["/x/server-everything/dist/index.js", "stdio"])).toBe("server-everything");
    expect(nameOfCommand("uvx", ["mcp-server-time"])).toBe("mcp-server-time");
    expect(nameOfCommand("/usr/local/bin/my-server", ["--port", "1"])).toBe("my-server");
    expect(nameOfCommand("node", ["./weather.js"])).toBe("weather");
    expect(nameOfUrl("https://mcp.example.com/mcp")).toBe("mcp-example-com");
  });
});
