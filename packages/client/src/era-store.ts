import type { EraRecord } from "@mcpx/core";

/** Where era records live between runs (the gateway keeps them in the state directory). */
export interface EraStore {
  /** The record for this upstream, if one was stored for the same target (`fingerprint`). */
  get(upstream: string, fingerprint: string): Promise<EraRecord | undefined>;
  set(upstream: string, fingerprint: string, record: EraRecord): Promise<void>;
  delete(upstream: string): Promise<void>;
}

/** An EraStore in memory (tests, and one-shot commands that keep nothing). */
export class MemoryEraStore implements EraStore {
  readonly #records = new Map<string, { fingerprint: string; record: EraRecord }>();

  async get(upstream: string, fingerprint: string) {
    const e = this.#records.get(upstream);
    return e && e.fingerprint === fingerprint ? e.record : undefined;
  }

  async set(upstream: string, fingerprint: string, record: EraRecord) {
    this.#records.set(upstream, { fingerprint, record });
  }

  async delete(upstream: string) {
    this.#records.delete(upstream);
  }
}
