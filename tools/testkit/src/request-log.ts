/**
 * What an HTTP front received, in order, and waiting for a request to come: shared by the scripted
 * HTTP front and the hostile HTTP server.
 */
export class RequestLog<R> {
  readonly requests: R[] = [];
  readonly #waiters: { match: (r: R) => boolean; resolve: (r: R) => void }[] = [];
  readonly #who: string;

  /** @param who names the front in a timeout's message. */
  constructor(who: string) {
    this.#who = who;
  }

  record(rec: R): void {
    this.requests.push(rec);
    for (const w of [...this.#waiters]) {
      if (w.match(rec)) {
        this.#waiters.splice(this.#waiters.indexOf(w), 1);
        w.resolve(rec);
      }
    }
  }

  /** The first request that matches, already received or yet to come. */
  waitFor(match: (r: R) => boolean, timeoutMs = 5000): Promise<R> {
    const seen = this.requests.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${this.#who}: timed out waiting for a request`)),
        timeoutMs,
      );
      this.#waiters.push({
        match,
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      });
    });
  }
}
