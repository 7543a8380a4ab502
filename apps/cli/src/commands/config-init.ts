/**
 * `mcpx config init`: writes a starter config (loopback, the default port, no servers). When hosts'
 * MCP configs are found in their usual places (Claude Desktop, Cursor, VS Code, Windsurf, Codex; the
 * user's and the current project's), it offers to import them: it asks at a terminal, imports them all
 * with --yes, and none with --no-import or when nobody can be asked (it then says what it found).
 */
import { homedir } from "node:os";
import * as path from "node:path";
import { createInterface } from "node:readline";
import {
  findHostConfigs,
  HOST_LABELS,
  type HostConfigFile,
  type ImportResult,
  importHostFile,
  mergeServers,
  starterConfig,
} from "@mcpx/config";
import { ConfigError } from "@mcpx/core";
import { UsageError } from "../errors.js";
import type { MainIO } from "../io.js";
import { forTerminal } from "../render.js";
import {
  envLine,
  type FileWarning,
  printWarnings,
  readOptional,
  serverLines,
  writeConfig,
} from "./config-output.js";

export interface InitOptions {
  config: string;
  output?: string;
  /** Import every host config found, without asking. */
  yes?: boolean;
  /** false: import nothing (--no-import). */
  import?: boolean;
  force?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

interface Found extends HostConfigFile {
  result: ImportResult;
  shown: string;
}

export async function configInit(options: InitOptions, io: MainIO): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  const env = io.env ?? process.env;
  const home = env.HOME ?? homedir();
  const shownOut = options.output ?? options.config;
  const out = path.resolve(cwd, shownOut);
  if (!options.force && !options.dryRun && (await readOptional(out)) !== undefined) {
    throw new UsageError(
      `${shownOut} exists already`,
      "--force overwrites it; mcpx config import <file> or mcpx config add add servers to it",
    );
  }

  const warnings: FileWarning[] = [];
  const found: Found[] = [];
  if (options.import !== false) {
    for (const candidate of await findHostConfigs({ home, cwd, env })) {
      const shown = candidate.path.startsWith(home + path.sep)
        ? `~${candidate.path.slice(home.length)}`
        : candidate.path;
      try {
        const result = await importHostFile(candidate.path, { format: candidate.format, home });
        if (Object.keys(result.servers).length > 0) found.push({ ...candidate, result, shown });
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        // A VS Code settings.json without MCP servers is the common case, and no news.
        if (!err.problems.every((p) => p.startsWith("has no "))) {
          warnings.push({ file: shown, at: "(file)", message: err.problems.join("; ") });
        }
      }
    }
  }

  const chosen = await choose(found, options, io);
  let text = starterConfig();
  const imported: { from: Found; added: string[] }[] = [];
  for (const f of chosen) {
    const merged = mergeServers(text, f.result.servers, { onClash: "skip", label: shownOut });
    text = merged.text;
    imported.push({ from: f, added: merged.added });
    warnings.push(...f.result.warnings.map((w) => ({ file: f.shown, ...w })));
    warnings.push(...merged.warnings.map((w) => ({ file: shownOut, ...w })));
    for (const name of merged.kept) {
      warnings.push({
        file: f.shown,
        server: name,
        at: name,
        message: "a server of this name was imported from another host already; left out",
      });
    }
  }
  if (!options.dryRun) await writeConfig(out, text);
  const needed = [...new Set(imported.flatMap((i) => i.from.result.env))].sort();

  if (options.json) {
    const result = {
      ok: true,
      config: out,
      written: !options.dryRun,
      found: found.map((f) => ({ format: f.format, path: f.path, servers: Object.keys(f.result.servers) })),
      imported: imported.map((i) => ({ format: i.from.format, path: i.from.path, servers: i.added })),
      env: needed,
      warnings,
      ...(options.dryRun ? { result: JSON.parse(text) as unknown } : {}),
    };
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  printWarnings(io, warnings);
  const lines = [
    `${shownOut}: ${options.dryRun ? "would write" : "wrote"} a starter config (listen on 127.0.0.1:7333)`,
  ];
  for (const i of imported) {
    lines.push(`imported from ${i.from.shown} (${HOST_LABELS[i.from.format]}):`);
    lines.push(...serverLines(Object.fromEntries(i.added.map((n) => [n, i.from.result.servers[n]!]))));
  }
  const notChosen = found.filter((f) => !chosen.includes(f));
  if (notChosen.length > 0 && options.import !== false) {
    lines.push("not imported (mcpx config import <file> imports one; mcpx config init --yes all of them):");
    for (const f of notChosen)
      lines.push(`  ${f.shown} (${HOST_LABELS[f.format]}): ${Object.keys(f.result.servers).join(", ")}`);
  }
  lines.push(...envLine(needed));
  lines.push(
    options.dryRun
      ? "nothing written (--dry-run)"
      : imported.length
        ? `check it with: mcpx config check ${shownOut}`
        : 'add a server with: mcpx config add <name> --stdio "<command>" (or --url <url>)',
  );
  if (options.dryRun) io.stdout(text);
  (options.dryRun ? io.stderr : io.stdout)(`${lines.join("\n")}\n`);
  return 0;
}

/** The host configs to import: all (--yes), none (--no-import, or nobody to ask), or as answered. */
async function choose(found: Found[], options: InitOptions, io: MainIO): Promise<Found[]> {
  if (found.length === 0 || options.import === false) return [];
  if (options.yes) return found;
  const terminal = io.terminal;
  if (!terminal?.input || options.json) return [];
  const rl = createInterface({ input: terminal.input, terminal: false });
  // The iterator keeps lines typed ahead of a question; the end of input answers no to the rest.
  const lines = rl[Symbol.asyncIterator]();
  try {
    const chosen: Found[] = [];
    for (const f of found) {
      const names = Object.keys(f.result.servers);
      terminal.output.write(
        forTerminal(
          `Import ${names.length} server${names.length === 1 ? "" : "s"} (${names.join(", ")}) from ${f.shown} (${HOST_LABELS[f.format]})? [Y/n] `,
        ),
      );
      const line = await lines.next();
      if (line.done) break;
      if (!/^\s*n/i.test(line.value)) chosen.push(f);
    }
    return chosen;
  } finally {
    rl.close();
  }
}
