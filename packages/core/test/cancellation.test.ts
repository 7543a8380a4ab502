import { describe, expect, it } from "vitest";
import { Cancellation } from "../src/cancellation.js";

describe("Cancellation", () => {
  it("cancellation/listeners-run-once-in-order-with-the-reason", () => {
    const c = new Cancellation();
    const seen: string[] = [];
    c.onAbort((r) => seen.push(`a:${String(r)}`));
    c.onAbort((r) => seen.push(`b:${String(r)}`));
    expect(c.aborted).toBe(false);
    c.abort("closed");
    c.abort("again");
    expect(seen).toEqual(["a:closed", "b:closed"]);
    expect(c.aborted).toBe(true);
    expect(c.reason).toBe("closed");
  });

  it("cancellation/a-removed-listener-is-not-called", () => {
    const c = new Cancellation();
    const seen: string[] = [];
    const off = c.onAbort(() => seen.push("removed"));
    c.onAbort(() => seen.push("kept"));
    off();
    off();
    c.abort();
    expect(seen).toEqual(["kept"]);
  });

  it("cancellation/listener-added-after-the-abort-runs-at-once", () => {
    const c = new Cancellation();
    c.abort("late");
    let got: unknown;
    c.onAbort((r) => {
      got = r;
    });
    expect(got).toBe("late");
  });

  it("cancellation/no-reason-is-an-abort-error-as-abortsignal-gives", () => {
    const c = new Cancellation();
    c.abort();
    const signal = AbortSignal.abort();
    expect(c.reason).toBeInstanceOf(DOMException);
    expect((c.reason as DOMException).name).toBe(signal.reason.name);
  });

  it("cancellation/signal-made-before-the-abort-follows-it", () => {
    const c = new Cancellation();
    const signal = c.signal;
    expect(c.signal).toBe(signal);
    const order: string[] = [];
    signal.addEventListener("abort", () => order.push("signal"));
    c.onAbort(() => order.push("listener"));
    expect(signal.aborted).toBe(false);
    c.abort("stop");
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe("stop");
    expect(order).toEqual(["listener", "signal"]);
  });

  it("cancellation/signal-made-after-the-abort-is-already-aborted", () => {
    const c = new Cancellation();
    c.abort("gone");
    expect(c.signal.aborted).toBe(true);
    expect(c.signal.reason).toBe("gone");
    // Usable where only a real AbortSignal will do.
    expect(AbortSignal.any([c.signal]).aborted).toBe(true);
  });

  it("cancellation/a-throwing-listener-does-not-stop-the-others", async () => {
    const c = new Cancellation();
    const seen: string[] = [];
    const thrown: unknown[] = [];
    const onError = (err: unknown) => thrown.push(err);
    process.prependListener("uncaughtException", onError);
    try {
      c.onAbort(() => {
        throw new Error("listener broke");
      });
      c.onAbort(() => seen.push("second"));
      const signal = c.signal;
      c.abort();
      expect(seen).toEqual(["second"]);
      expect(signal.aborted).toBe(true);
      await new Promise((r) => setTimeout(r, 0));
    } finally {
      process.removeListener("uncaughtException", onError);
    }
    expect(thrown.map((e) => (e as Error).message)).toEqual(["listener broke"]);
  });
});
