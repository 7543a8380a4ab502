/**
 * The web console's static files (apps/console's build) at / of the daemon's address, for the
 * browser on this machine: loopback callers only and the Origin and Host checks, as the control API
 * the page then calls. No token: a browser's navigation cannot carry one and the files hold no
 * secret; every request the page makes to /.mcpx/ carries it. Each answer forbids inline script and
 * style, framing and any other origin (Content-Security-Policy), and sniffing of its type.
 */
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import * as path from "node:path";
import { ErrorCode } from "@mcpx/core";
import { HttpRefusal, refuse } from "../server/http/reply.js";
import { Gatekeeper, type SecurityOptions } from "../server/http/security.js";

export interface ConsoleOptions extends Omit<SecurityOptions, "token"> {
  /** The built console: index.html and assets/. */
  dir: string;
}

/** data: for images and audio a tool returns (base64 in its result); nothing else from elsewhere. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "media-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

/** What a path names: the page, or one file of assets/ (a plain name: no way out of the folder). */
function fileOf(pathname: string): string | undefined {
  if (pathname === "/" || pathname === "/index.html") return "index.html";
  const m = /^\/assets\/([\w-]+(?:\.[\w-]+)+)$/.exec(pathname);
  return m ? `assets/${m[1]}` : undefined;
}

export function createConsoleHandler(options: ConsoleOptions) {
  const { dir, ...security } = options;
  const gate = new Gatekeeper(security);
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    let pathname: string;
    try {
      pathname = new URL(req.url ?? "/", "http://console.invalid").pathname;
    } catch {
      return false;
    }
    const file = fileOf(pathname);
    if (!file) return false;
    try {
      gate.checkLocal(req, "the console");
      if (req.method !== "GET" && req.method !== "HEAD") {
        throw new HttpRefusal(
          405,
          ErrorCode.InvalidRequest,
          `${req.method} is not allowed: the console is GET only`,
          {
            headers: { allow: "GET, HEAD" },
          },
        );
      }
      let body: Buffer;
      try {
        body = await readFile(path.join(dir, file));
      } catch {
        return false; // not in this build: the server's 404
      }
      res.writeHead(200, {
        "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
        "content-length": body.length,
        "content-security-policy": CONSOLE_CSP,
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        // The page is small and changes with mcpx; assets carry their content's hash in their name.
        "cache-control": file === "index.html" ? "no-cache" : "public, max-age=31536000, immutable",
      });
      res.end(req.method === "HEAD" ? undefined : body);
    } catch (err) {
      if (err instanceof HttpRefusal) refuse(res, err);
      else throw err;
    }
    return true;
  };
}
