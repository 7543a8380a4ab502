/** `mcpx era show|forget [server]`: the era records kept in the state directory. */
import * as path from "node:path";
import { loadConfig } from "@mcpx/config";
import { FileEraStore } from "@mcpx/gateway";
import type { MainIO } from "../io.js";
import { type CommonOptions, printJson } from "../one-shot.js";

async function store(opts: CommonOptions & { stateDir?: string }, io: MainIO): Promise<FileEraStore> {
  if (opts.stateDir) return new FileEraStore(path.resolve(io.cwd ?? process.cwd(), opts.stateDir));
  const config = await loadConfig(
    path.resolve(io.cwd ?? process.cwd(), opts.config),
    io.env ? { env: io.env } : {},
  );
  return new FileEraStore(config.stateDir);
}

export async function eraShow(opts: CommonOptions & { stateDir?: string }, io: MainIO): Promise<number> {
  const eras = await (await store(opts, io)).all();
  if (opts.json) {
    printJson(io, { eras });
    return 0;
  }
  const names = Object.keys(eras);
  if (names.length === 0) io.stdout("no era records\n");
  for (const name of names) {
    const e = eras[name];
    if (e) io.stdout(`${name}: ${e.revision} over ${e.transport} (probed ${e.probedAt})\n`);
  }
  return 0;
}

export async function eraForget(
  server: string | undefined,
  opts: CommonOptions & { stateDir?: string },
  io: MainIO,
): Promise<number> {
  const s = await store(opts, io);
  if (server === undefined) await s.clear();
  else {
    if (!(server in (await s.all()))) {
      io.stderr(`mcpx: no era record for ${server}\n`);
      return 1;
    }
    await s.delete(server);
  }
  io.stdout(server === undefined ? "forgot every era record\n" : `forgot the era of ${server}\n`);
  return 0;
}
