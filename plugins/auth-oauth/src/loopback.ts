/**
 * The loopback listener an app that signs a user in (`mcpx auth login`) puts on the redirect URI
 * (RFC 8252 §7.3, a native client's redirect): it answers the browser with a page saying it can be
 * closed, and hands the redirect's query (code, state, iss; or error) to the authorizer, whose
 * caller, the flow, checks it. A busy port is an error naming it.
 */

import { createServer, type Server } from "node:http";
import { AuthorizationFailedError } from "@mcpx/core";

export interface LoopbackListener {
  /** The redirect URI it listens on, as configured. */
  readonly redirectUri: string;
  /** The query of the next redirect to the listener's path; fails after `timeoutMs`. */
  next(timeoutMs: number): Promise<URLSearchParams>;
  close(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Listens on the redirect URI's host and port; a busy port is an error naming it. */
/** `server`: the upstream's name, for the page and the errors. */
export async function listenForRedirect(redirectUri: string, server: string): Promise<LoopbackListener> {
  const url = new URL(redirectUri);
  if (url.protocol !== "http:" || !LOOPBACK.has(url.hostname) || url.port === "") {
    throw new AuthorizationFailedError(
      server,
      `the redirect URI ${redirectUri} of ${server} is not an http URL with a port on a loopback address, where a sign-in can listen`,
    );
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = Number(url.port);
  const waiting: ((params: URLSearchParams) => void)[] = [];
  const http: Server = createServer((req, res) => {
    const got = new URL(req.url ?? "/", redirectUri);
    const answer = waiting.shift();
    if (req.method !== "GET" || got.pathname !== url.pathname || !answer) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found\n");
      return;
    }
    const failed = got.searchParams.get("error");
    const text = failed
      ? `The sign-in to ${server} did not complete (${failed}). You can close this window.`
      : `mcpx received the sign-in to ${server}. You can close this window and return to the terminal.`;
    res
      .writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" })
      .end(`<!doctype html><meta charset="utf-8"><title>mcpx</title><p>${escapeHtml(text)}</p>\n`);
    answer(got.searchParams);
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", (err: NodeJS.ErrnoException) => {
      const why =
        err.code === "EADDRINUSE" ? "is in use" : `cannot be listened on (${err.code ?? err.message})`;
      const fix =
        err.code === "EADDRINUSE"
          ? `; end what listens there, or set servers.${server}.auth.redirectUri to another loopback port`
          : "";
      reject(
        new AuthorizationFailedError(
          server,
          `port ${port} on ${host} ${why}: the sign-in to ${server} listens there for the redirect (${redirectUri})${fix}`,
        ),
      );
    });
    http.listen(port, host, () => resolve());
  });
  return {
    redirectUri,
    next(timeoutMs) {
      return new Promise<URLSearchParams>((resolve, reject) => {
        const timer = setTimeout(() => {
          const at = waiting.indexOf(done);
          if (at !== -1) waiting.splice(at, 1);
          reject(
            new AuthorizationFailedError(
              server,
              `no sign-in to ${server} came back within ${Math.round(timeoutMs / 1000)} s`,
            ),
          );
        }, timeoutMs);
        const done = (params: URLSearchParams) => {
          clearTimeout(timer);
          resolve(params);
        };
        waiting.push(done);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );
}
