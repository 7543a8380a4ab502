/**
 * Era records on disk: `<stateDir>/eras.json`, one record per upstream with the fingerprint of its
 * target, written atomically (a temporary file renamed over the old one) so a crash never leaves a
 * half-written file. Records hold no credentials: revision, transport, time.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { EraStore } from "@mcpx/client";
import type { EraRecord } from "@mcpx/core";

export interface StoredEra extends EraRecord {
  fingerprint: string;
}

export class FileEraStore implements EraStore {
  readonly file: string;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(readonly stateDir: string) {
    this.file = join(stateDir, "eras.json");
  }

  async all(): Promise<Record<string, StoredEra>> {
    try {
      const parsed = JSON.parse(await readFile(this.file, "utf8")) as { eras?: Record<string, StoredEra> };
      return parsed.eras ?? {};
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
      // A damaged file is as good as none: the next probe writes a good one.
      return {};
    }
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

  /** Read-modify-write, one at a time within this process. */
  #update(change: (eras: Record<string, StoredEra>) => void): Promise<void> {
    const run = this.#queue.then(async () => {
      const eras = await this.all();
      change(eras);
      await mkdir(this.stateDir, { recursive: true });
      const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, `${JSON.stringify({ eras }, null, 2)}\n`, { mode: 0o600 });
      await rename(tmp, this.file);
    });
    this.#queue = run.catch(() => {});
    return run;
  }
}
