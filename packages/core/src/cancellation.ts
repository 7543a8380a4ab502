/**
 * A cancellation that may never come, made for every request a gateway serves. Node builds each
 * AbortSignal as an EventTarget (several microseconds, 3 to 5 % of a call's CPU in mcpx's profile),
 * and almost no request is ever cancelled: this one is a flag and a list, and makes a real
 * AbortSignal (`signal`) only for a consumer that needs one (AbortSignal.any, timers, fetch).
 */
export class Cancellation {
  #aborted = false;
  #reason: unknown;
  #listeners: ((reason: unknown) => void)[] | undefined;
  #controller: AbortController | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  /** Why it was cancelled (an AbortError DOMException when no reason was given, as AbortSignal). */
  get reason(): unknown {
    return this.#reason;
  }

  /** A real AbortSignal that follows this cancellation, made on first read. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /**
   * Calls `listener` once, when cancelled (at once, synchronously, if it already is); returns what
   * removes it. Listeners run in the order they were added, before the signal's own listeners.
   */
  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.#aborted) {
      listener(this.#reason);
      return noop;
    }
    if (this.#listeners) this.#listeners.push(listener);
    else this.#listeners = [listener];
    return () => {
      const list = this.#listeners;
      const at = list ? list.indexOf(listener) : -1;
      if (at >= 0) list?.splice(at, 1);
    };
  }

  /** Cancels, once: a second call changes nothing. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason =
      reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners) {
      for (const listener of listeners) {
        try {
          listener(this.#reason);
        } catch (err) {
          // As an EventTarget does: the others still run, and the error is not swallowed.
          queueMicrotask(() => {
            throw err;
          });
        }
      }
    }
    this.#controller?.abort(this.#reason);
  }
}

const noop = (): void => {};
