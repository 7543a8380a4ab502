/**
 * Raw HTTP for the hostile-client tests: bytes written to a socket exactly as meant (node:http and
 * fetch refuse to send a CR in a header, a duplicated header, a Host of their choosing), the answer
 * read back as status, headers and JSON body, and the call a well-behaved client makes afterwards.
 */
import { connect, type Socket } from "node:net";
import type { JSONObject } from "@mcpx/core";
import { expect } from "vitest";
import { afterThisTest } from "../src/index.js";
import { mirrored, modernBody, post } from "./gateway-http.helpers.js";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON, when it is. */
  json: { id?: unknown; error?: { code: number; message: string; data?: unknown } } & JSONObject;
}

export function parseAnswer(raw: string): RawAnswer {
  const end = raw.indexOf("\r\n\r\n");
  const head = end < 0 ? raw : raw.slice(0, end);
  const text = end < 0 ? "" : raw.slice(end + 4);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let json = {} as RawAnswer["json"];
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: the test says what it expected
  }
  return { status: Number(statusLine.split(" ")[1] ?? 0), headers, text, json };
}

/** An open connection to mcpx: write to it, and wait for everything mcpx sent until it closed. */
export function rawSocket(port: number) {
  const socket: Socket = connect(port, "127.0.0.1");
  socket.on("error", () => {});
  afterThisTest(async () => void socket.destroy());
  let received = "";
  socket.setEncoding("latin1");
  socket.on("data", (d: string) => {
    received += d;
  });
  const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(received)));
  return {
    socket,
    write: (bytes: string | Buffer) => socket.write(bytes),
    get closed() {
      return socket.destroyed;
    },
    /** Resolves once mcpx closed the connection, with what it answered. */
    answer: async () => parseAnswer(await closed),
    /** Writes `text` one byte at a time, every `ms`, until mcpx closes the connection. */
    drip(text: string, ms = 20) {
      let i = 0;
      const timer = setInterval(() => {
        if (socket.destroyed || i >= text.length) clearInterval(timer);
        else socket.write(text[i++] as string);
      }, ms);
      socket.once("close", () => clearInterval(timer));
    },
  };
}

/** One request sent raw, on a connection of its own (closed by mcpx after the answer). */
export async function rawRequest(port: number, head: string, body: string | Buffer = ""): Promise<RawAnswer> {
  const s = rawSocket(port);
  s.write(Buffer.concat([Buffer.from(head, "latin1"), Buffer.from(body)]));
  return s.answer();
}

/**
 * A request head: the request line and headers as given, in order, duplicates and all (Host is
 * 127.0.0.1 unless given).
 */
export function head(method: string, path: string, headers: [string, string][]): string {
  const lines = [`${method} ${path} HTTP/1.1`, "connection: close"];
  if (!headers.some(([k]) => k.toLowerCase() === "host")) lines.push("host: 127.0.0.1");
  for (const [k, v] of headers) lines.push(`${k}: ${v}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/** The headers of a 2026-07-28 POST, as [name, value] pairs, with the body's length. */
export function modernHead(method: string, body: string, name?: string): [string, string][] {
  return [...Object.entries(mirrored(method, name)), ["content-length", String(Buffer.byteLength(body))]];
}

/** Expects a refusal: this status, and a JSON-RPC error whose message names `named`. */
export function expectRefusal(
  answer: { status: number; json: RawAnswer["json"] },
  status: number,
  named: string | RegExp,
  code = -32600,
): void {
  expect(answer.status, JSON.stringify(answer.json)).toBe(status);
  expect(answer.json.jsonrpc).toBe("2.0");
  expect(answer.json.error?.code).toBe(code);
  if (typeof named === "string") expect(answer.json.error?.message).toContain(named);
  else expect(answer.json.error?.message).toMatch(named);
}

/** What fetch answered, read the same way. */
export async function answerOf(res: Response): Promise<{ status: number; json: RawAnswer["json"] }> {
  const text = await res.text();
  let json = {} as RawAnswer["json"];
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, json };
}

/** A well-behaved 2026-07-28 client's call of `a__echo`: answered, as ever. */
export async function stillServes(url: string, headers: Record<string, string> = {}): Promise<void> {
  const text = `still there ${Math.random()}`;
  const res = await post(url, modernBody("tools/call", { name: "a__echo", arguments: { text } }), {
    ...mirrored("tools/call", "a__echo"),
    ...headers,
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { result?: { content?: { text: string }[] } };
  expect(body.result?.content?.[0]?.text).toContain(text);
}
