/**
 * The lifecycle events a gateway has seen, for `mcpx events` and `mcpx status`: a bounded ring (the
 * oldest go first, memory stays flat) with a sequence number per event, so a reader can ask for
 * what came after the last one it saw, and live listeners.
 */
import type { LifecycleEvent } from "@mcpx/core";

export type NumberedEvent = LifecycleEvent & { seq: number; time: string };

export class EventLog {
  readonly #ring: NumberedEvent[] = [];
  readonly #listeners = new Set<(e: NumberedEvent) => void>();
  #seq = 0;

  constructor(readonly capacity = 1000) {}

  push(event: LifecycleEvent): void {
    const numbered = { ...event, seq: ++this.#seq, time: new Date().toISOString() } as NumberedEvent;
    this.#ring.push(numbered);
    if (this.#ring.length > this.capacity) this.#ring.shift();
    for (const fn of this.#listeners) fn(numbered);
  }

  /** The events after `seq` still held. */
  since(seq = 0): NumberedEvent[] {
    return this.#ring.filter((e) => e.seq > seq);
  }

  subscribe(listener: (e: NumberedEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
