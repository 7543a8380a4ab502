/**
 * `mcpx config import <file>`: a host's MCP config (Claude Desktop, Cursor, VS Code, Windsurf, Codex)
 * into the mcpx config (@mcpx/config does the converting). The servers are added to the config file
 * (`-o`, default `--config`), whose other keys stay as they are; a name it has already is refused
 * unless --force. --dry-run prints the resulting config and writes nothing.
 */
import * as path from "node:path";
import { HOST_LABELS, type HostFormat, importHostFile, mergeServers, serversOf } from "@mcpx/config";
import { UsageError } from "../errors.js";
import type { MainIO } from "../io.js";
import { envLine, printWarnings, readOptional, serverLines, writeConfig } from "./config-output.js";

export interface ImportCommandOptions {
  /** The host's config file. */
  file: string;
  /** The mcpx config (--config), written unless `output` names another. */
  config: string;
  output?: string;
  from?: HostFormat;
  force?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

export async function configImport(options: ImportCommandOptions, io: MainIO): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  const source = path.resolve(cwd, options.file);
  const shownOut = options.output ?? options.config;
  const out = path.resolve(cwd, shownOut);
  const home = io.env?.HOME;
  const imported = await importHostFile(source, {
    ...(options.from ? { format: options.from } : {}),
    ...(home ? { home } : {}),
  });
  const names = Object.keys(imported.servers);
  if (names.length === 0) {
    printWarnings(
      io,
      imported.warnings.map((w) => ({ file: options.file, ...w })),
    );
    throw new UsageError(
      `${options.file}: no server to import`,
      "the warnings above say why each was left out",
    );
  }

  const existing = await readOptional(out);
  if (existing !== undefined && !options.force) {
    const clashes = names.filter((n) => Object.hasOwn(serversOf(existing, shownOut), n));
    if (clashes.length > 0) {
      throw new UsageError(
        `${shownOut} has ${clashes.length === 1 ? "a server" : "servers"} named ${clashes.map((c) => JSON.stringify(c)).join(", ")} already`,
        `--force replaces ${clashes.length === 1 ? "it" : "them"}; or rename ${clashes.length === 1 ? "it" : "them"} in the host file, or import into another file with -o`,
      );
    }
  }
  const merged = mergeServers(existing, imported.servers, {
    onClash: options.force ? "replace" : "refuse",
    label: shownOut,
  });
  const warnings = [
    ...imported.warnings.map((w) => ({ file: options.file, ...w })),
    ...merged.warnings.map((w) => ({ file: shownOut, ...w })),
  ];
  if (!options.dryRun) await writeConfig(out, merged.text);

  if (options.json) {
    const result = {
      ok: true,
      format: imported.format,
      source,
      config: out,
      written: !options.dryRun,
      added: merged.added,
      replaced: merged.replaced,
      skipped: imported.skipped,
      env: imported.env,
      warnings,
      ...(options.dryRun ? { result: JSON.parse(merged.text) as unknown } : {}),
    };
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  printWarnings(io, warnings);
  const lines = [
    `${shownOut}: ${options.dryRun ? "would import" : "imported"} ${names.length} server${names.length === 1 ? "" : "s"} from ${options.file} (${HOST_LABELS[imported.format]})${merged.replaced.length ? `, replacing ${merged.replaced.join(", ")}` : ""}`,
    ...serverLines(imported.servers),
    ...(imported.skipped.length ? [`not imported: ${imported.skipped.join(", ")} (see the warnings)`] : []),
    ...envLine(imported.env),
    options.dryRun ? "nothing written (--dry-run)" : `check it with: mcpx config check ${shownOut}`,
  ];
  if (options.dryRun) {
    // stdout is the config alone, so that it can be piped or redirected.
    io.stdout(merged.text);
    io.stderr(`${lines.join("\n")}\n`);
  } else {
    io.stdout(`${lines.join("\n")}\n`);
  }
  return 0;
}
