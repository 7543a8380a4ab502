/**
 * The engine asks a transport what it can do (its declared capabilities), never what kind it is: a
 * transport of a new kind that declares what stdio declares behaves as stdio, one that declares what
 * HTTP declares behaves as HTTP, and one that declares nothing behaves conservatively, whatever its
 * kind says. The revision here cancels as 2026-07-28 does: by closing the stream unless told stdio.
 */
import {
  type CancelAction,
  Cancellation,
  DEFAULT_UPSTREAM_SETTINGS,
  type JSONRPCMessage,
  type Revision,
  type SendOptions,
  silentLogger,
  type Transport,
  type TransportCapabilities,
  type TransportKind,
} from "@mcpx/core";
import { createHost } from "@mcpx/host";
import { describe, expect, it } from "vitest";
import { RequestEngine } from "../src/engine.js";

const STDIO_LIKE: TransportCapabilities = {
  headers: false,
  abortableSends: false,
  perRequestStreams: false,
  sessions: false,
};
const HTTP_LIKE: TransportCapabilities = {
  headers: true,
  abortableSends: true,
  perRequestStreams: true,
  sessions: true,
};

interface Sent {
  msg: JSONRPCMessage;
  opts: SendOptions | undefined;
}

function engineOver(kind: TransportKind, capabilities: TransportCapabilities | undefined) {
  const sent: Sent[] = [];
  const transport = {
    kind,
    ...(capabilities ? { capabilities } : {}),
    open: async () => {},
    send: async (msg: JSONRPCMessage, opts?: SendOptions) => {
      sent.push({ msg, opts });
    },
    negotiated: () => {},
    close: async () => {},
  } as Transport;
  const revision = {
    version: "2026-07-28",
    era: "modern",
    shapeRequest: (m: unknown) => m,
    headers: (msg: JSONRPCMessage) => ("method" in msg ? { "Mcp-Method": msg.method } : undefined),
    cancel: (): CancelAction => "close-stream",
  } as unknown as Revision;
  const engine = new RequestEngine(
    {
      upstream: "fake",
      transport,
      hooks: createHost({ log: silentLogger }).hooks,
      log: silentLogger,
      settings: { ...DEFAULT_UPSTREAM_SETTINGS },
    },
    { version: "2026-07-28" } as never,
  );
  engine.revision = revision;
  return { engine, sent };
}

/** Sends one call and cancels it: what went out, and whether the call's signal was aborted. */
async function callAndCancel(kind: TransportKind, capabilities: TransportCapabilities | undefined) {
  const { engine, sent } = engineOver(kind, capabilities);
  const call = engine.request("tools/call", { name: "slow" }).catch((e: unknown) => e);
  await Promise.resolve();
  const first = sent[0];
  engine.cancel(engine.inFlight()[0] ?? -1, "stop");
  await call;
  await new Promise((r) => setImmediate(r));
  return {
    opts: first?.opts,
    aborted: first?.opts?.signal?.aborted,
    after: sent.slice(1).map((s) => ("method" in s.msg ? s.msg.method : "response")),
  };
}

describe("engine and transports", () => {
  it("engine/no-transport-kind-tests", async () => {
    // A new kind declaring stdio's capabilities: no headers, no signal, no era; cancelled by notification.
    const stdioLike = await callAndCancel("carrier-pigeon", STDIO_LIKE);
    expect(stdioLike.opts).toEqual({});
    expect(stdioLike.after).toEqual(["notifications/cancelled"]);
    // The same for stdio itself.
    expect(await callAndCancel("stdio", STDIO_LIKE)).toEqual(stdioLike);

    // A new kind declaring HTTP's: the revision's headers, a signal that cancelling aborts (closing
    // the stream is the cancellation, so nothing is sent), and the frame's era.
    const httpLike = await callAndCancel("carrier-pigeon", HTTP_LIKE);
    expect(httpLike.opts?.headers).toEqual({ "Mcp-Method": "tools/call" });
    expect(httpLike.opts?.era).toBe("modern");
    expect(httpLike.aborted).toBe(true);
    expect(httpLike.after).toEqual([]);
    // Even one of kind "stdio": it is what a transport declares that counts.
    const declaredHttp = await callAndCancel("stdio", HTTP_LIKE);
    expect(declaredHttp.opts?.headers).toEqual({ "Mcp-Method": "tools/call" });
    expect(declaredHttp.aborted).toBe(true);

    // Declaring nothing is not inheriting HTTP: a transport of kind "streamable-http" without
    // capabilities gets the conservative behaviour.
    expect(await callAndCancel("streamable-http", undefined)).toEqual(stdioLike);
  });

  it("engine/cancellation-cancels-by-the-revision-rule", async () => {
    const { engine, sent } = engineOver("stdio", STDIO_LIKE);
    const cancellation = new Cancellation();
    const call = engine.request("tools/call", { name: "slow" }, { cancellation }).catch((e: Error) => e);
    await Promise.resolve();
    cancellation.abort("the client closed the response stream");
    const err = await call;
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toMatch(/the client closed the response stream/);
    await new Promise((r) => setImmediate(r));
    const cancelled = sent.find((s) => "method" in s.msg && s.msg.method === "notifications/cancelled");
    const id = (sent[0]?.msg as { id?: number } | undefined)?.id ?? -1;
    expect(cancelled?.msg).toMatchObject({ params: { requestId: id } });
    expect(engine.pendingCount).toBe(0);
  });

  it("engine/cancellation-let-go-of-once-answered", async () => {
    const { engine, sent } = engineOver("stdio", STDIO_LIKE);
    const cancellation = new Cancellation();
    const call = engine.request("tools/call", { name: "quick" }, { cancellation });
    await Promise.resolve();
    const id = (sent[0]?.msg as { id?: number } | undefined)?.id ?? -1;
    engine.handleResponse({ jsonrpc: "2.0", id, result: { content: [] } });
    expect(await call).toEqual({ content: [] });
    // Its listener is gone: a late abort cancels nothing and sends nothing.
    cancellation.abort();
    await new Promise((r) => setImmediate(r));
    expect(sent.map((s) => ("method" in s.msg ? s.msg.method : "response"))).toEqual(["tools/call"]);
  });

  it("engine/cancellation-already-cancelled-cancels-at-once", async () => {
    const { engine } = engineOver("stdio", STDIO_LIKE);
    const cancellation = new Cancellation();
    cancellation.abort("gone before it was sent");
    const err = await engine.request("tools/call", { name: "any" }, { cancellation }).catch((e: Error) => e);
    expect(String((err as Error).message)).toMatch(/gone before it was sent/);
    expect(engine.pendingCount).toBe(0);
  });
});
