/**
 * A POST's body and what it says about itself: Content-Type must be JSON (415), Accept must allow
 * an answer mcpx can give (406), and the body is read up to maxBodyBytes (413, without buffering
 * the rest: what follows is discarded and the connection closed).
 */
import type { IncomingMessage } from "node:http";
import { ErrorCode } from "@mcpx/core";
import { HttpRefusal } from "./reply.js";

/** Which answers the client takes, and which it would rather have. */
export interface Accepts {
  json: boolean;
  sse: boolean;
  /**
   * SSE is what the client prefers: it takes nothing else, or rates it above JSON (a higher q, or
   * the same q and listed first; RFC 9110 leaves ties open, and the order is the only preference
   * such a header states). Both without preference: JSON, the cheaper answer.
   */
  preferSse: boolean;
}

const ANY: Accepts = Object.freeze({ json: true, sse: true, preferSse: false });
const memo = new Map<string, Accepts>();

/** The Accept header, read: no header (or an empty one) takes anything (RFC 9110 §12.5.1). */
export function accepts(header: string | undefined): Accepts {
  if (!header) return ANY;
  let known = memo.get(header);
  if (known) return known;
  // The best q of each kind, and where it was first listed at that q.
  let json = { q: 0, at: Infinity };
  let sse = { q: 0, at: Infinity };
  const rate = (kind: { q: number; at: number }, q: number, at: number) => (q > kind.q ? { q, at } : kind);
  header.split(",").forEach((part, at) => {
    const [range = "", ...params] = part.split(";");
    const type = range.trim().toLowerCase();
    const qParam = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    const q = qParam === undefined || Number.isNaN(Number(qParam)) ? 1 : Number(qParam);
    // q=0 means "not acceptable".
    if (!(q > 0)) return;
    if (type === "*/*") {
      json = rate(json, q, at);
      sse = rate(sse, q, at);
    } else if (type === "application/json" || type === "application/*") json = rate(json, q, at);
    else if (type === "text/event-stream" || type === "text/*") sse = rate(sse, q, at);
  });
  known = Object.freeze({
    json: json.q > 0,
    sse: sse.q > 0,
    preferSse: sse.q > 0 && (sse.q > json.q || (sse.q === json.q && sse.at < json.at)),
  });
  if (memo.size >= 64) memo.clear();
  memo.set(header, known);
  return known;
}

export function notAcceptable(wanted: string, id?: string | number): HttpRefusal {
  return new HttpRefusal(
    406,
    ErrorCode.InvalidRequest,
    `Not Acceptable: the Accept header must allow ${wanted}`,
    id === undefined ? {} : { id },
  );
}

export function checkContentType(req: IncomingMessage): void {
  const type = req.headers["content-type"];
  const media = type?.split(";", 1)[0]?.trim().toLowerCase();
  if (media === "application/json") return;
  throw new HttpRefusal(
    415,
    ErrorCode.InvalidRequest,
    `Unsupported Media Type: a POST body must be application/json (got ${type === undefined ? "no Content-Type" : JSON.stringify(type)})`,
  );
}

function tooLarge(max: number): HttpRefusal {
  return new HttpRefusal(413, ErrorCode.InvalidRequest, `Payload Too Large: the body exceeds ${max} bytes`, {
    headers: { connection: "close" },
    data: { maxBodyBytes: max },
  });
}

/** Reads the body as UTF-8 text, refusing it (413) as soon as it is known to be larger than max. */
export function readBody(req: IncomingMessage, max: number): Promise<string> {
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > max) {
    discard(req);
    return Promise.reject(tooLarge(max));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        cleanup();
        chunks.length = 0;
        discard(req);
        reject(tooLarge(max));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(
        chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks).toString("utf8"),
      );
    };
    const onError = () => {
      cleanup();
      // The client left (or listen.requestTimeout closed it) mid-body: its mistake, not mcpx's
      // (nothing is logged as a failure), and there is nobody to read the answer.
      reject(
        new HttpRefusal(400, ErrorCode.InvalidRequest, "Bad Request: the body ended before it was complete"),
      );
    };
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/**
 * Drops the rest of a refused body: read and thrown away (so the client sees the answer rather than
 * a reset), and the connection ended soon in any case.
 */
function discard(req: IncomingMessage): void {
  req.resume();
  const timer = setTimeout(() => req.socket.destroy(), 2000);
  timer.unref();
  req.once("end", () => clearTimeout(timer));
  req.socket.once("close", () => clearTimeout(timer));
}
