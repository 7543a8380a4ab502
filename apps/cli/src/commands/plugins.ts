/** `mcpx plugins list`: what is installed — the plugins applied, and what they registered. */
import * as path from "node:path";
import { loadRuntime } from "@mcpx/daemon";
import type { MainIO } from "../io.js";
import { type CommonOptions, printJson } from "../one-shot.js";

export async function pluginsList(opts: CommonOptions, io: MainIO): Promise<number> {
  const { host } = await loadRuntime({
    configFile: path.resolve(io.cwd ?? process.cwd(), opts.config),
    ...(io.env ? { env: io.env } : {}),
    writeLog: (line) => io.stderr(`${line}\n`),
    // What is installed, not only what this config uses: every built-in, for this command alone.
    allBuiltins: true,
  });
  const r = host.registry;
  const out = {
    plugins: host.plugins,
    revisions: r.revisions().map((x) => `${x.version} (${x.era})`),
    transports: r.transports().map((t) => t.kind),
    authSchemes: r.authSchemes().map((a) => a.type),
    elicitationHandlers: r.elicitationHandlers().map((h) => h.name),
  };
  if (opts.json) {
    printJson(io, out);
    return 0;
  }
  const lines = [
    "plugins:",
    ...out.plugins.map((p) => `  ${p.name}${p.version ? `@${p.version}` : ""}  ${p.source ?? ""}`),
  ];
  lines.push(`revisions: ${out.revisions.join(", ")}`);
  lines.push(`transports: ${out.transports.join(", ")}`);
  lines.push(`auth schemes: ${out.authSchemes.join(", ") || "(none)"}`);
  lines.push(`elicitation handlers: ${out.elicitationHandlers.join(", ") || "(none)"}`);
  io.stdout(`${lines.join("\n")}\n`);
  return 0;
}
