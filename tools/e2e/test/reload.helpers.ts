/**
 * A real `mcpx serve` (in the test process) on a config file the test rewrites, in front of
 * scripted stdio upstreams. Every upstream the test may add later is started up front, so a config
 * can name it at any time. Each upstream has an `echo` tool and a `hold` tool that answers only once
 * the test lets it (`release`), for calls that must still be in flight when a reload happens.
 */
import { rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { JSONObject } from "@mcpx/core";
import { type Serving, serve } from "@mcpx/daemon";
import { ScriptedServer, type StdioScript, stdioScript } from "@mcpx/testkit";
import { afterThisTest, configDir, freePort, until } from "../src/index.js";

export const echo = {
  name: "echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } } },
};
const hold = { name: "hold", inputSchema: { type: "object" } };

export interface Upstream {
  server: ScriptedServer;
  script: StdioScript;
  /** Its config entry (pass extra keys to change it). */
  entry(extra?: JSONObject): JSONObject;
  /** Answers the `hold` calls waiting so far. */
  release(): void;
  /** How many `tools/call` requests it has received. */
  calls(): number;
}

export interface ReloadCase {
  dir: string;
  file: string;
  port: number;
  serving: Serving;
  url: string;
  control: string;
  up: Record<string, Upstream>;
  /** Writes the config file: these servers and the base keys (listen, stateDir, reload) under `extra`. */
  write(servers: Record<string, JSONObject>, extra?: JSONObject, opts?: { rename?: boolean }): Promise<void>;
  /** POST /.mcpx/<route> with a JSON body. */
  post(
    route: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: JSONObject }>;
  get(route: string): Promise<JSONObject>;
  /** The daemon's events of these types so far. */
  events(...types: string[]): Promise<JSONObject[]>;
  /** Resolves once the named upstream has this status on the control API. */
  status(name: string, status: string | undefined): Promise<void>;
}

export async function upstream(name: string): Promise<Upstream> {
  const waiting: (() => void)[] = [];
  let calls = 0;
  const server = new ScriptedServer({
    label: `reload upstream "${name}"`,
    versions: ["2025-11-25"],
    capabilities: { tools: { listChanged: true } },
    tools: [echo, hold],
  });
  server.on("tools/call", async (req) => {
    calls++;
    const params = (req.params ?? {}) as JSONObject;
    if (params.name === "hold") {
      await new Promise<void>((resolve) => waiting.push(resolve));
      return { content: [{ type: "text", text: `${name} held` }] };
    }
    const args = (params.arguments ?? {}) as JSONObject;
    return { content: [{ type: "text", text: `${name}: ${String(args.text)}` }] };
  });
  const script = await stdioScript(server);
  const release = () => {
    for (const fn of waiting.splice(0)) fn();
  };
  afterThisTest(async () => {
    release();
    await script.close();
  });
  return {
    server,
    script,
    entry: (extra = {}) => ({ command: script.command, args: script.args, ...extra }),
    release,
    calls: () => calls,
  };
}

export async function reloadCase(
  names: string[],
  initial: string[],
  extra: JSONObject = {},
): Promise<ReloadCase> {
  const up: Record<string, Upstream> = {};
  for (const name of names) up[name] = await upstream(name);
  const port = await freePort();
  const base = (more: JSONObject): JSONObject => ({
    ...more,
    listen: { host: "127.0.0.1", port, ...(more.listen as JSONObject | undefined) },
    stateDir: ".state",
    reload: { watch: false, ...(more.reload as JSONObject | undefined) },
  });
  const servers = Object.fromEntries(initial.map((n) => [n, (up[n] as Upstream).entry()]));
  const dir = await configDir(base({ ...extra, servers }));
  const file = join(dir, "mcpx.json");
  const serving = await serve({ configFile: file, writeLog: () => {}, logLevel: "error" });
  afterThisTest(() => serving.stop());
  await serving.runtime.gateway.pool.settled();
  const control = `http://127.0.0.1:${port}/.mcpx/`;
  const get = async (route: string) => (await (await fetch(`${control}${route}`)).json()) as JSONObject;
  return {
    dir,
    file,
    port,
    serving,
    url: serving.url,
    control,
    up,
    async write(next, more = {}, opts = {}) {
      const text = JSON.stringify(base({ ...more, servers: next }), null, 2);
      if (!opts.rename) return writeFile(file, text);
      // As editors save: a new file renamed over the old one.
      const tmp = join(dir, ".mcpx.json.tmp");
      await writeFile(tmp, text);
      await rename(tmp, file);
    },
    async post(route, body = {}, headers = {}) {
      const res = await fetch(`${control}${route}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as JSONObject };
    },
    get,
    async events(...types) {
      const all = (await get("events")).events as JSONObject[];
      return all.filter((e) => types.includes(String(e.type)));
    },
    async status(name, status) {
      const now = async () => {
        const states = (await get("status")).upstreams as JSONObject[];
        return states.find((s) => s.name === name)?.status as string | undefined;
      };
      let seen = await now();
      const end = Date.now() + 10_000;
      while (seen !== status) {
        if (Date.now() > end)
          throw new Error(`upstream ${name}: status ${String(seen)}, not ${String(status)}`);
        await new Promise((r) => setTimeout(r, 20));
        seen = await now();
      }
    },
  };
}

/** Calls a tool through the control API; the result, or the error the daemon answered. */
export async function callTool(
  c: ReloadCase,
  name: string,
  args: JSONObject = {},
): Promise<{ status: number; body: JSONObject }> {
  return c.post("call", { name, arguments: args });
}

/** The text of a tool result. */
export function text(result: JSONObject): string {
  const content = result.content as { text?: string }[] | undefined;
  return content?.map((c) => c.text ?? "").join("") ?? "";
}

export { until };
