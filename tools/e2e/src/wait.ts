/**
 * Waiting in tests. A test waits for the state it asserts, never for a fixed time: a shared CI
 * machine can be slower than any sleep. The bound only limits how long a failure takes to show.
 */

/** Polls `cond` every 10 ms until it holds; fails after `ms`. */
export async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms: ${cond.toString()}`);
    await sleep(10);
  }
}

/** A pause, for a test that shows something does NOT happen (or lets a peer notice a close). */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
