#!/usr/bin/env node
// The process a scripted stdio server runs as: it relays its stdin and stdout to the test that
// scripts it, over a local socket, as JSON lines. The test decides every answer; the relay only
// carries lines, writes to stderr and exits on cue.
//   relay -> test: {"env": {<its environment>}} (once, first) | {"line": "<a line read from stdin>"} | {"eof": true}
//   test -> relay: {"line": "<write to stdout>"} | {"stderr": "<write to stderr>"} | {"exit": <code>}
import { connect } from "node:net";
import { createInterface } from "node:readline";

const socketPath = process.argv[2];
if (!socketPath) {
  process.stderr.write("usage: relay <socket-path>\n");
  process.exit(64);
}
const socket = connect(socketPath);
socket.setEncoding("utf8");
const send = (obj) => socket.write(`${JSON.stringify(obj)}\n`);
// What the client started it with: a test checks the environment an auth scheme gave the child.
send({ env: process.env });

createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })
  .on("line", (line) => send({ line }))
  .on("close", () => {
    send({ eof: true });
    socket.end(() => process.exit(0));
  });

let buffer = "";
socket.on("data", (chunk) => {
  buffer += chunk;
  let nl = buffer.indexOf("\n");
  while (nl !== -1) {
    const cmd = JSON.parse(buffer.slice(0, nl));
    buffer = buffer.slice(nl + 1);
    if (typeof cmd.line === "string") process.stdout.write(`${cmd.line}\n`);
    if (typeof cmd.stderr === "string") process.stderr.write(`${cmd.stderr}\n`);
    if (typeof cmd.exit === "number") process.stdout.write("", () => process.exit(cmd.exit));
    nl = buffer.indexOf("\n");
  }
});
socket.on("close", () => process.exit(0));
socket.on("error", (err) => {
  process.stderr.write(`relay: ${err.message}\n`);
  process.exit(70);
});
