#!/usr/bin/env node
// The process a hostile stdio upstream runs as. Plain JS, so `node` runs it from the sources and
// from the build alike (as bin/relay.mjs does for the scripted servers). The test decides every
// byte: it gets each line read from stdin and tells this process what to write, over a local
// socket, as JSON lines. Unlike the relay it writes raw bytes (not only lines), repeats a line at
// full speed, writes without end, and can exit before reading anything.
//   child -> test: {"env": {...}} (first) | {"line": "<a line from stdin>"} | {"eof": true}
//   test -> child: {"write": "<base64>"} | {"repeat": "<base64>", "times": n}
//                  | {"endless": "<base64 start>"} | {"stderr": "<text>"} | {"exit": <code>}
// Arguments: <socket-path> [--exit-at-start=<code>]
import { connect } from "node:net";
import { createInterface } from "node:readline";

const [socketPath, ...flags] = process.argv.slice(2);
if (!socketPath) {
  process.stderr.write("usage: stdio-main <socket-path> [--exit-at-start=<code>]\n");
  process.exit(64);
}
const exitAtStart = flags.find((f) => f.startsWith("--exit-at-start="));

const socket = connect(socketPath);
socket.setEncoding("utf8");
const send = (obj) => socket.write(`${JSON.stringify(obj)}\n`);
send({ env: process.env });

if (exitAtStart) {
  // Reported first so the test can count the starts; stdin is never read.
  const code = Number(exitAtStart.slice("--exit-at-start=".length)) || 0;
  socket.end(() => process.exit(code));
} else {
  createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })
    .on("line", (line) => send({ line }))
    .on("close", () => {
      send({ eof: true });
      socket.end(() => process.exit(0));
    });
}

// Writes go through one queue, in order, each waiting for stdout to drain: a flood goes as fast as
// the reader takes it and no faster, so this process's memory stays flat whatever it is told.
const queue = [];
let writing = false;
let stopped = false;
let endlessRunning = false;

function enqueue(job) {
  queue.push(job);
  if (!writing) void drain();
}

async function drain() {
  writing = true;
  while (queue.length > 0 && !stopped) await queue.shift()();
  writing = false;
}

function write(buf) {
  return new Promise((resolve) => {
    if (process.stdout.write(buf)) resolve();
    else process.stdout.once("drain", resolve);
  });
}

async function repeat(buf, times) {
  // Batches of copies, so a flood of short lines is not one syscall per line.
  const per = Math.max(1, Math.floor(65536 / buf.length));
  const batch = Buffer.concat(Array.from({ length: per }, () => buf));
  let left = times;
  while (left >= per && !stopped) {
    await write(batch);
    left -= per;
  }
  if (left > 0 && !stopped) await write(Buffer.concat(Array.from({ length: left }, () => buf)));
}

async function endless(start) {
  endlessRunning = true;
  await write(start);
  const filler = Buffer.alloc(65536, "x");
  while (!stopped) await write(filler);
}

let buffer = "";
socket.on("data", (chunk) => {
  buffer += chunk;
  let nl = buffer.indexOf("\n");
  while (nl !== -1) {
    const cmd = JSON.parse(buffer.slice(0, nl));
    buffer = buffer.slice(nl + 1);
    if (typeof cmd.write === "string") {
      const buf = Buffer.from(cmd.write, "base64");
      enqueue(() => write(buf));
    }
    if (typeof cmd.repeat === "string") {
      const buf = Buffer.from(cmd.repeat, "base64");
      enqueue(() => repeat(buf, cmd.times));
    }
    if (typeof cmd.endless === "string") {
      const buf = Buffer.from(cmd.endless, "base64");
      // Nothing after it will ever be written: the line does not end.
      enqueue(() => endless(buf));
    }
    if (typeof cmd.stderr === "string") process.stderr.write(`${cmd.stderr}\n`);
    if (typeof cmd.exit === "number") {
      const code = cmd.exit;
      // Mid-call: what was queued before it is written first, nothing after (an endless line
      // never finishes, so it is cut short).
      if (endlessRunning) process.exit(code);
      enqueue(async () => {
        stopped = true;
        process.exit(code);
      });
    }
    nl = buffer.indexOf("\n");
  }
});
socket.on("close", () => process.exit(0));
socket.on("error", (err) => {
  process.stderr.write(`hostile stdio: ${err.message}\n`);
  process.exit(70);
});
