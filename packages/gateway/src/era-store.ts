/**
 * Era records on disk: `<stateDir>/eras.json`, one record per upstream with the fingerprint of its
 * target, written atomically (a temporary file renamed over the old one) so a crash never leaves a
 * half-written file. Records hold no credentials: revision, transport, time.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { EraStore } from "@mcpx/client";
import type { EraRecord } from "@mcpx/core";

export interface StoredEra extends EraRecord {
  fingerprint: string;
}

/** Read-modify-write queues by file: every FileEraStore of one file in this process takes turns. */
const queues = new Map<string, Promise<unknown>>();

export class FileEraStore implements EraStore {
  readonly file: string;

  constructor(readonly stateDir: string) {
    this.file = join(stateDir, "eras.json");
  }

  /** Every record; a damaged file (or a damaged record in it) is as good as none. */
  async all(): Promise<Record<string, StoredEra>> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(this.file, "utf8"));
    } catch {
      // Missing or not JSON: the next probe writes a good one.
      return {};
    }
    const eras = isObject(parsed) ? parsed.eras : undefined;
    const out: Record<string, StoredEra> = {};
    if (!isObject(eras)) return out;
    for (const [name, e] of Object.entries(eras)) {
      if (
        isObject(e) &&
        typeof e.revision === "string" &&
        typeof e.transport === "string" &&
        typeof e.fingerprint === "string" &&
        typeof e.probedAt === "string"
      ) {
        out[name] = {
          revision: e.revision,
          transport: e.transport as StoredEra["transport"],
          probedAt: e.probedAt,
          fingerprint: e.fingerprint,
        };
      }
    }
    return out;
  }

  async get(upstream: string, fingerprint: string): Promise<EraRecord | undefined> {
    const e = (await this.all())[upstream];
    if (!e || e.fingerprint !== fingerprint) return undefined;
    return { revision: e.revision, transport: e.transport, probedAt: e.probedAt };
  }

  set(upstream: string, fingerprint: string, record: EraRecord): Promise<void> {
    return this.#update((eras) => {
      eras[upstream] = { ...record, fingerprint };
    });
  }

  delete(upstream: string): Promise<void> {
    return this.#update((eras) => {
      delete eras[upstream];
    });
  }

  /** Forgets every record. */
  clear(): Promise<void> {
    return this.#update((eras) => {
      for (const k of Object.keys(eras)) delete eras[k];
    });
  }

  /**
   * Read-modify-write, one at a time per file within this process. The temporary file has a name
   * of its own (pid and random bytes), so writers in other processes never share one either; a
   * failed write removes it.
   */
  #update(change: (eras: Record<string, StoredEra>) => void): Promise<void> {
    const run = (queues.get(this.file) ?? Promise.resolve()).then(async () => {
      const eras = await this.all();
      change(eras);
      await mkdir(this.stateDir, { recursive: true });
      const tmp = `${this.file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await writeFile(tmp, `${JSON.stringify({ eras }, null, 2)}\n`, { mode: 0o600 });
        await rename(tmp, this.file);
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    });
    const settled = run.catch(() => {});
    queues.set(this.file, settled);
    void settled.then(() => {
      if (queues.get(this.file) === settled) queues.delete(this.file);
    });
    return run;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
