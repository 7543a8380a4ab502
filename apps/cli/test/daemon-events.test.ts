/**
 * `mcpx events --follow` reads the daemon's event stream with @mcpx/http's SSE reader, as the SSE
 * spec defines the format (any line ending, comments, an event in as many chunks as the network
 * makes of it), not by splitting on "\n\n". The daemon here is a node:http server on 127.0.0.1 that
 * answers the control routes the command uses.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/main.js";

const TOKEN = "daemon-token";
const first = { seq: 1, time: "t1", type: "upstream.connected", upstream: "fs" };
const second = { seq: 2, time: "t2", type: "server.warning", upstream: "fs", message: "naïve ✓" };

describe("daemon events", () => {
  let dir: string;
  let server: Server;
  let config: string;
  const seen: { url: string; authorization: string | undefined }[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "mcpx-events-"));
    server = createServer((req, res) => {
      seen.push({ url: req.url ?? "", authorization: req.headers.authorization });
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return res.writeHead(401).end();
      if (req.url === "/.mcpx/status") {
        return res.writeHead(200, { "content-type": "application/json" }).end("{}");
      }
      if (req.url !== "/.mcpx/events?follow=1") return res.writeHead(404).end();
      res.writeHead(200, { "content-type": "text/event-stream" }).flushHeaders();
      // A comment, then an event with CRLF line ends, then one cut in three pieces: in its field
      // name, and inside a multi-byte character.
      const split = Buffer.from(`data: ${JSON.stringify(second)}\n\n`, "utf8");
      const inChar = split.indexOf(Buffer.from("✓", "utf8")) + 1;
      const pieces = [
        Buffer.from(`: keep-alive\n\nid: 1\r\ndata: ${JSON.stringify(first)}\r\n\r\nda`, "utf8"),
        split.subarray(2, inChar),
        split.subarray(inChar),
      ];
      const next = () => {
        const piece = pieces.shift();
        if (!piece) return res.end();
        res.write(piece);
        setTimeout(next, 20);
      };
      next();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    config = path.join(dir, "mcpx.json");
    await writeFile(config, JSON.stringify({ listen: { port, token: TOKEN }, servers: {} }));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it("cli/events-read-through-the-http-package", async () => {
    let stdout = "";
    let stderr = "";
    const code = await main(["events", "--follow", "--json", "--config", config], {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      cwd: dir,
      env: {},
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(
      stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([first, second]);
    // Every request carried the token, and the stream ended with the daemon's answer.
    expect(seen.map((s) => s.url)).toEqual(["/.mcpx/status", "/.mcpx/events?follow=1"]);
    expect(seen.every((s) => s.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });
});
