/**
 * CI: what `npm install -g` of the packed app gives a user. Packs the release, installs the app's
 * tarball alone (no @mcpx/* package may come from a registry) with a third-party plugin's tarball
 * (examples/plugin-hello) into an empty global prefix, then runs the installed `mcpx`: --version,
 * `tools list` and `serve` fronting server-everything, and `plugins list`, which must show the
 * plugin found by its package name beside the global install. Exits non-zero on any failure.
 *
 *   node tools/release/install-check.mjs
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { everythingEntry } from "./src/everything.mjs";
import { cleanEnv, npmInstall } from "./src/npm.mjs";
import { packRelease } from "./src/pack.mjs";
import { bound, checks, killGroup, run, runPnpm, track } from "./src/run.mjs";
import { REPO, workspacePackages } from "./src/workspace.mjs";

const PLUGIN = "@mcpx/example-plugin";
bound("release/install-check", 13 * 60_000);

const { check, finish } = checks();
const tmp = mkdtempSync(path.join(tmpdir(), "mcpx-install-check-"));
try {
  let release = [];
  const packed = await check("release/every-package-packs-with-real-ranges-and-its-files", async () => {
    release = await packRelease({ log: () => {} });
  });
  const prefix = path.join(tmp, "global");
  const bin = path.join(prefix, "bin", "mcpx");
  const project = path.join(tmp, "project");
  mkdirSync(project);
  const config = path.join(project, "mcpx.json");
  writeFileSync(
    config,
    JSON.stringify({
      listen: { host: "127.0.0.1", port: 0 },
      stateDir: "./state",
      servers: { everything: { command: process.execPath, args: [everythingEntry(), "stdio"] } },
      // By name: not in the config's directory, so found beside mcpx, in the global node_modules.
      plugins: [[PLUGIN, { greeting: "hello from beside mcpx" }]],
    }),
  );
  const mcpx = (args) => run(bin, args, { cwd: project, env: cleanEnv(), timeoutMs: 60_000 });

  const installed = await check("release/global-install-of-the-app-and-a-plugin-tarball", async () => {
    if (!packed) throw new Error("not run: the release did not pack (above)");
    const app = release.find((r) => r.name === "mcpx");
    if (!app) throw new Error("release/ has no tarball of mcpx");
    await runPnpm(["pack", "--pack-destination", tmp], { cwd: path.join(REPO, "examples/plugin-hello") });
    const plugin = readdirSync(tmp).find((f) => f.endsWith(".tgz"));
    if (!plugin) throw new Error("packing examples/plugin-hello wrote no tarball");
    // The app as the README installs it: `./release/mcpx-<version>.tgz` from the repository's root.
    const appSpec = `./${path.relative(REPO, app.file)}`;
    await npmInstall(["-g", "--prefix", prefix, appSpec, path.join(tmp, plugin)], { cwd: REPO });
    if (!existsSync(bin)) throw new Error(`npm install -g put no mcpx at ${bin}`);
  });

  // Every check is named in the output, one that could not run (the install failed) as a failure.
  const notInstalled = () => {
    if (!installed) throw new Error("not run: the release did not pack or install (above)");
  };
  await check("release/global-install-runs-mcpx", async () => {
    notInstalled();
    const version = release.find((r) => r.name === "mcpx").version;
    const { stdout } = await mcpx(["--version"]);
    expect(stdout.trim() === version, `mcpx --version printed ${JSON.stringify(stdout)}, not ${version}`);
    const tools = await mcpx(["tools", "list", "--config", config, "--json"]);
    expect(
      /"(?:everything__)?echo"/.test(tools.stdout),
      `mcpx tools list shows no echo tool of server-everything:\n${tools.stdout}${tools.stderr}`,
    );
    // The built-in plugins are inside the bundle: every revision and transport is registered.
    const { revisions, transports } = JSON.parse(
      (await mcpx(["plugins", "list", "--config", config, "--json"])).stdout,
    );
    const ours = [...workspacePackages().keys()].filter((n) => n.startsWith("@mcpx/revision-"));
    expect(
      revisions.length === ours.length,
      `mcpx plugins list shows the revisions ${revisions.join(", ")}, the workspace has ${ours.join(", ")}`,
    );
    expect(
      ["stdio", "streamable-http", "http+sse"].every((t) => transports.includes(t)),
      `mcpx plugins list shows the transports ${transports.join(", ")}`,
    );
    await serveAnswers(bin, config, project);
  });

  await check("release/third-party-plugin-loads-by-name-beside-a-global-install", async () => {
    notInstalled();
    const { stdout } = await mcpx(["plugins", "list", "--config", config, "--json"]);
    const listed = JSON.parse(stdout);
    const plugin = listed.plugins.find((p) => p.name === PLUGIN);
    expect(plugin?.source === PLUGIN, `mcpx plugins list does not show ${PLUGIN} by name:\n${stdout}`);
    expect(listed.authSchemes.includes("example-static"), `its auth scheme is not registered:\n${stdout}`);
  });
} finally {
  rmSync(tmp, { recursive: true, force: true });
  finish();
}

/** The web console's page and its script, from the files the tarball carries, under the CSP. */
async function consoleServed(base) {
  const page = await fetch(base, { signal: AbortSignal.timeout(15_000) });
  const html = await page.text();
  expect(page.status === 200, `GET ${base} answered ${page.status}: ${html}`);
  const csp = page.headers.get("content-security-policy") ?? "";
  expect(csp.includes("default-src 'self'"), `GET ${base} has no strict Content-Security-Policy: ${csp}`);
  const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(script !== undefined, `the console's page names no script:\n${html}`);
  const js = await fetch(new URL(script, base), { signal: AbortSignal.timeout(15_000) });
  expect(js.status === 200, `GET ${script} answered ${js.status}`);
  await js.arrayBuffer();
}

function expect(ok, message) {
  if (!ok) throw new Error(message);
}

/**
 * `mcpx serve` starts, says where it listens, and answers a legacy client there: initialize, then
 * tools/list through it shows the upstream's tools under their namespace.
 */
async function serveAnswers(bin, config, cwd) {
  const child = spawn(bin, ["serve", "--config", config], {
    cwd,
    env: cleanEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const untrack = track(child.pid);
  let output = "";
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`mcpx serve did not start in 30 s:\n${output}`)),
        30_000,
      );
      const read = (t) => {
        output += t;
        const found = /serving .* at (http:\/\/\S+)/.exec(output);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]);
        }
      };
      child.stdout.setEncoding("utf8").on("data", read);
      child.stderr.setEncoding("utf8").on("data", read);
      child.on("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`mcpx serve exited ${code}:\n${output}`));
      });
    });
    await consoleServed(new URL("/", url));
    const post = async (body, headers = {}) => {
      const res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${body.method}: HTTP ${res.status} ${text}`);
      return { res, text };
    };
    const init = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "install-check", version: "0" },
      },
    });
    expect(init.text.includes('"serverInfo"'), `initialize answered ${init.text}`);
    const session = init.res.headers.get("mcp-session-id");
    const headers = {
      "mcp-protocol-version": "2025-06-18",
      ...(session ? { "mcp-session-id": session } : {}),
    };
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    // serve listens before its upstreams have connected: until then its list is empty.
    let list;
    for (let i = 0; i < 100; i++) {
      list = await post({ jsonrpc: "2.0", id: 2 + i, method: "tools/list" }, headers);
      if (list.text.includes('"everything__echo"')) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`tools/list through mcpx serve still answers ${list.text} after 20 s`);
  } finally {
    killGroup(child.pid);
    untrack();
  }
}
