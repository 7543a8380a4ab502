/**
 * For the tests of the `mcpx` command as people use it: scripted upstreams whose tools have the
 * schemas the tests need (their tools/call answers the arguments it received, as JSON), the CLI
 * in-process with a terminal or not, and the built CLI (apps/cli/dist) as a child process.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { JSONObject } from "@mcpx/core";
import { ScriptedServer, type ScriptedServerOptions, stdioScript } from "@mcpx/testkit";
import { main } from "mcpx";
import { expect } from "vitest";
import { afterThisTest } from "../src/index.js";

const repo = fileURLToPath(new URL("../../../", import.meta.url));
export const BIN = join(repo, "apps/cli/dist/bin.js");

/** A file server's tools, with the schemas a person meets: required, optional, enum, default. */
export const FS_TOOLS: JSONObject[] = [
  {
    name: "read_file",
    title: "Read file",
    description: "Read a file from disk.\nThe whole file, in one piece.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", description: "The file to read" },
        encoding: {
          type: "string",
          enum: ["utf8", "base64"],
          default: "utf8",
          description: "How the content is encoded",
        },
      },
      required: ["path"],
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: "stat",
    description: "A file's size and kind",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    outputSchema: {
      type: "object",
      properties: { size: { type: "integer" }, kind: { enum: ["file", "dir"] } },
      required: ["size"],
    },
  },
  {
    name: "write_file",
    description: "Write a file",
    inputSchema: { type: "object", properties: { path: { type: "string" }, text: { type: "string" } } },
  },
  {
    name: "delete_file",
    description: "Delete a file",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
  },
  {
    name: "typed",
    description: "Every JSON type",
    inputSchema: {
      type: "object",
      properties: {
        s: { type: "string" },
        n: { type: "number" },
        i: { type: "integer" },
        b: { type: "boolean" },
        a: { type: "array", items: { type: "string" } },
        o: { type: "object" },
        maybe: { type: ["integer", "null"] },
        either: { anyOf: [{ type: "boolean" }, { type: "string" }] },
      },
    },
  },
  {
    name: "fail",
    description: "Answers a result with isError",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "broken",
    description: "Answers a JSON-RPC error",
    inputSchema: { type: "object", properties: {} },
  },
];

export const PROMPTS: JSONObject[] = [
  { name: "greet", description: "Greets someone", arguments: [{ name: "id", required: true }] },
];

/**
 * A scripted upstream over stdio (2025-11-25) with these tools and prompts: tools/call answers the
 * arguments it got as JSON text, `fail` answers isError, `broken` a JSON-RPC error.
 */
export async function scriptedUpstream(
  options: Partial<ScriptedServerOptions> = {},
): Promise<{ server: ScriptedServer; entry: { command: string; args: string[] } }> {
  const server = new ScriptedServer({
    versions: ["2025-11-25"],
    tools: FS_TOOLS,
    prompts: PROMPTS,
    ...options,
  });
  server.on("tools/call", (req) => {
    const params = (req.params ?? {}) as JSONObject;
    if (params.name === "fail") return { content: [{ type: "text", text: "it went wrong" }], isError: true };
    if (params.name === "broken") return { error: { code: -32603, message: "the disk is on fire" } };
    return { content: [{ type: "text", text: JSON.stringify(params.arguments ?? {}) }] };
  });
  const script = await stdioScript(server);
  afterThisTest(() => script.close());
  return { server, entry: { command: script.command, args: script.args } };
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** `mcpx <args>` in-process in `dir`, as if stdout were a terminal when `tty` is given. */
export async function run(
  dir: string,
  args: string[],
  opts: { tty?: { columns: number }; env?: Record<string, string> } = {},
): Promise<Ran> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", XDG_STATE_HOME: join(dir, ".state"), ...opts.env },
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    ...(opts.tty ? { isTTY: true, columns: opts.tty.columns } : {}),
  });
  return { code, stdout, stderr };
}

/** The built `mcpx` as a child process in `dir`: its real stdout, a pipe. */
export function built(dir: string, args: string[], env: Record<string, string> = {}): Promise<Ran> {
  expect(existsSync(BIN), `${BIN} is missing: build first (pnpm build)`).toBe(true);
  return spawned(process.execPath, [BIN, ...args], dir, env);
}

export function spawned(
  command: string,
  args: string[],
  dir: string,
  env: Record<string, string> = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    // The colour variables of the test's own environment are not the test's to pass on.
    const { NO_COLOR: _n, FORCE_COLOR: _f, ...inherited } = process.env;
    const child = spawn(command, args, {
      cwd: dir,
      env: { ...inherited, XDG_STATE_HOME: join(dir, ".state"), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (t: string) => {
      stdout += t;
    });
    child.stderr.setEncoding("utf8").on("data", (t: string) => {
      stderr += t;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Any ANSI escape sequence (CSI or otherwise). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding escape codes is the point
export const ESCAPE = /\u001b[[\]()#;?]*[0-9;]*[A-Za-z]?/;
