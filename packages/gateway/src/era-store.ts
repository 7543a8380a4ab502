/**
 * Era records on disk: `<stateDir>/eras.json`, one record per upstream with the fingerprint of its
 * target, written atomically (a temporary file renamed over the old one) so a crash never leaves a
 * half-written file. Records hold no credentials: revision, transport, time.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { EraStore } from "@mcpx/client";
import { type EraRecord, type StateStore, StoreUnavailableError } from "@mcpx/core";

export interface StoredEra extends EraRecord {
  fingerprint: string;
}

type Change = (eras: Record<string, StoredEra>) => void;

/** The changes that wait for the write in progress, made by the next write, all of them at once. */
interface Batch {
  changes: Change[];
  written: Promise<void>;
}

/**
 * Per file, in this process: the last write queued, and the batch still taking changes. Every
 * FileEraStore of one file takes turns; the changes made while one write runs are written together
 * by the next (100 upstreams connecting at once are a few writes, not 100 in a row, each of which
 * held the upstream's connection back until its turn came).
 */
const files = new Map<string, { tail: Promise<void>; waiting: Batch | undefined }>();

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
   * Read-modify-write, one at a time per file within this process, changes made meanwhile batched
   * into the next one. The temporary file has a name of its own (pid and random bytes), so writers
   * in other processes never share one either; a failed write removes it, and fails every change
   * it held.
   */
  #update(change: Change): Promise<void> {
    let state = files.get(this.file);
    if (!state) {
      state = { tail: Promise.resolve(), waiting: undefined };
      files.set(this.file, state);
    }
    const waiting = state.waiting;
    if (waiting) {
      waiting.changes.push(change);
      return waiting.written;
    }
    const file = state;
    const batch: Batch = { changes: [change], written: Promise.resolve() };
    file.waiting = batch;
    batch.written = file.tail.then(() => {
      // From here on, a change waits for the next write.
      if (file.waiting === batch) file.waiting = undefined;
      return this.#write(batch.changes);
    });
    const tail = batch.written.catch(() => {});
    file.tail = tail;
    void tail.then(() => {
      if (files.get(this.file) === file && file.tail === tail && !file.waiting) files.delete(this.file);
    });
    return batch.written;
  }

  async #write(changes: readonly Change[]): Promise<void> {
    const eras = await this.all();
    for (const change of changes) change(eras);
    await mkdir(this.stateDir, { recursive: true });
    const tmp = `${this.file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await writeFile(tmp, `${JSON.stringify({ eras }, null, 2)}\n`, { mode: 0o600 });
      await rename(tmp, this.file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The state store's space of era records, one entry per upstream. */
export const ERA_SPACE = "era";

/**
 * Era records in the state store (space "era", key the upstream's name): with a shared store
 * (Redis), every replica takes the era one of them probed instead of probing again. A store that
 * cannot be reached reads as no record (the upstream is probed); a write that fails throws.
 */
export class StoreEraStore implements EraStore {
  readonly #store: StateStore;

  constructor(store: StateStore) {
    this.#store = store;
  }

  /** Every well-formed record. */
  async all(): Promise<Record<string, StoredEra>> {
    const out: Record<string, StoredEra> = {};
    for (const [name, e] of await this.#store.entries(ERA_SPACE)) {
      const era = storedEra(e);
      if (era) out[name] = era;
    }
    return out;
  }

  async get(upstream: string, fingerprint: string): Promise<EraRecord | undefined> {
    let value: unknown;
    try {
      value = await this.#store.get(ERA_SPACE, upstream);
    } catch (err) {
      if (err instanceof StoreUnavailableError) return undefined;
      throw err;
    }
    const e = storedEra(value);
    if (!e || e.fingerprint !== fingerprint) return undefined;
    return { revision: e.revision, transport: e.transport, probedAt: e.probedAt };
  }

  async set(upstream: string, fingerprint: string, record: EraRecord): Promise<void> {
    const stored: StoredEra = { ...record, fingerprint };
    await this.#store.set(ERA_SPACE, upstream, stored);
  }

  async delete(upstream: string): Promise<void> {
    await this.#store.delete(ERA_SPACE, upstream);
  }
}

/** A record as stored, or undefined for anything else (another version wrote it, or nobody did). */
function storedEra(e: unknown): StoredEra | undefined {
  if (
    !isObject(e) ||
    typeof e.revision !== "string" ||
    typeof e.transport !== "string" ||
    typeof e.fingerprint !== "string" ||
    typeof e.probedAt !== "string"
  ) {
    return undefined;
  }
  return {
    revision: e.revision,
    transport: e.transport as StoredEra["transport"],
    probedAt: e.probedAt,
    fingerprint: e.fingerprint,
  };
}
