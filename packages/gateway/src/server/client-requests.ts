/**
 * Requests mcpx sends to a legacy downstream client on an upstream's behalf (elicitation/create,
 * sampling/createMessage): each gets a fresh id, goes out on the channel the transport gives, and
 * is settled by the client's response, matched by that id. Aborting the signal withdraws it
 * (notifications/cancelled to the client); the end of the session fails what is left.
 */
import {
  ConnectionClosedError,
  errorFromWire,
  type JSONObject,
  type JSONRPCMessage,
  type JSONRPCResponse,
  RequestCancelledError,
  type RequestId,
} from "@mcpx/core";

/** Writes one frame to the client; false when no channel took it. */
export type FrameWriter = (frame: JSONRPCMessage) => boolean;

interface Waiting {
  resolve: (result: JSONObject) => void;
  reject: (err: Error) => void;
  cleanup: () => void;
}

export class ClientRequests {
  readonly #prefix: string;
  readonly #waiting = new Map<RequestId, Waiting>();
  #next = 1;

  constructor(prefix = "mcpx-") {
    this.#prefix = prefix;
  }

  get size(): number {
    return this.#waiting.size;
  }

  /** Sends `method` to the client and resolves with its result (a JSON-RPC error rejects). */
  send(method: string, params: JSONObject, write: FrameWriter, signal?: AbortSignal): Promise<JSONObject> {
    if (signal?.aborted) return Promise.reject(new RequestCancelledError(`${method}: withdrawn`));
    const id = `${this.#prefix}${this.#next++}`;
    return new Promise<JSONObject>((resolve, reject) => {
      const onAbort = () => {
        if (!this.#waiting.delete(id)) return;
        write({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: id, reason: "withdrawn" },
        });
        reject(new RequestCancelledError(`${method}: withdrawn`));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.set(id, {
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener("abort", onAbort),
      });
      if (!write({ jsonrpc: "2.0", id, method, params })) {
        this.#take(id)?.reject(new ConnectionClosedError(`${method}: no channel to the client is open`));
      }
    });
  }

  /** A response from the client; false when it answers nothing mcpx asked. */
  settle(msg: JSONRPCResponse): boolean {
    if (msg.id === null || msg.id === undefined) return false;
    const waiting = this.#take(msg.id);
    if (!waiting) return false;
    if ("error" in msg) waiting.reject(errorFromWire(msg.error));
    else waiting.resolve((msg.result ?? {}) as JSONObject);
    return true;
  }

  /** The client went away: whatever it was asked fails. */
  closeAll(reason = "the client went away"): void {
    for (const id of [...this.#waiting.keys()]) this.#take(id)?.reject(new ConnectionClosedError(reason));
  }

  #take(id: RequestId): Waiting | undefined {
    const waiting = this.#waiting.get(id);
    if (!waiting) return undefined;
    this.#waiting.delete(id);
    waiting.cleanup();
    return waiting;
  }
}

/** Aborted when any of the signals is. */
export function anySignal(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const given = signals.filter((s): s is AbortSignal => s !== undefined);
  if (given.length <= 1) return given[0];
  return AbortSignal.any(given);
}
