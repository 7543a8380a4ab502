/**
 * `mcpx elicit list | answer | watch`: the questions upstreams asked a running daemon (the
 * elicitation broker's control routes), and a person's answers.
 *
 *   mcpx elicit list [--wait [seconds]]        what is pending (and recently settled)
 *   mcpx elicit watch                          attaches: prints each question as it arrives
 *   mcpx elicit answer <id> --field name=Ada   a form, field by field (typed by the form's schema)
 *   mcpx elicit answer <id> --json '{...}'     a form, as JSON
 *   mcpx elicit answer <id>                    a URL: accept (you will open it yourself)
 *   mcpx elicit answer <id> --decline | --cancel
 *
 * A form answer is checked against the requested schema (ajv) before it is sent; a problem names the
 * field and the rule, and the command exits 2 without sending anything.
 */
import type { JSONObject } from "@mcpx/core";
import type { BrokerEvent, PendingElicitation, SettledElicitation } from "@mcpx/elicitation-broker";
import {
  checkFormAnswer,
  formFields,
  parseFields,
  requiredFields,
  withDefaults,
} from "@mcpx/elicitation-rules";
import { DaemonClient } from "../daemon-client.js";
import type { MainIO } from "../io.js";
import { type CommonOptions, printJson } from "../one-shot.js";
import { forTerminal } from "../render.js";

/** The answer did not fit the form (nothing was sent). */
const EXIT_INVALID = 2;

interface Listing {
  pending: PendingElicitation[];
  settled: SettledElicitation[];
  watchers: number;
}

async function daemonFor(opts: CommonOptions, io: MainIO): Promise<DaemonClient | undefined> {
  const daemon = await DaemonClient.forConfig(opts, io);
  if (await daemon.reachable(2000)) return daemon;
  io.stderr(
    `mcpx: no daemon answers at ${daemon.base} (elicitations are held by a running daemon: mcpx serve)\n`,
  );
  return undefined;
}

export async function elicitList(
  opts: CommonOptions & { wait?: boolean | string },
  io: MainIO,
): Promise<number> {
  const daemon = await daemonFor(opts, io);
  if (!daemon) return 1;
  if (opts.wait !== undefined && opts.wait !== false) {
    const seconds = opts.wait === true ? undefined : Number(opts.wait);
    await waitForPending(daemon, seconds);
  }
  const listing = await daemon.get<Listing>("elicitations");
  if (opts.json) printJson(io, listing);
  else io.stdout(renderListing(listing));
  return 0;
}

/** Attaches until something is pending (or `seconds` pass). */
async function waitForPending(daemon: DaemonClient, seconds: number | undefined): Promise<void> {
  const abort = new AbortController();
  const timer =
    seconds !== undefined && Number.isFinite(seconds)
      ? setTimeout(() => abort.abort(), seconds * 1000)
      : undefined;
  try {
    for await (const e of daemon.stream<BrokerEvent>("elicitations/watch", abort.signal)) {
      if ((e.event === "snapshot" && e.pending.length > 0) || e.event === "pending") break;
    }
  } finally {
    if (timer) clearTimeout(timer);
    abort.abort();
  }
}

export async function elicitWatch(opts: CommonOptions, io: MainIO): Promise<number> {
  const daemon = await daemonFor(opts, io);
  if (!daemon) return 1;
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  if (!opts.json) io.stdout(`watching for elicitations at ${daemon.base} (Ctrl-C to stop)\n`);
  try {
    for await (const e of daemon.stream<BrokerEvent>("elicitations/watch", abort.signal)) {
      if (opts.json) {
        io.stdout(`${JSON.stringify(e)}\n`);
        continue;
      }
      if (e.event === "snapshot") {
        for (const p of e.pending) io.stdout(`\n${renderPending(p)}`);
      } else if (e.event === "pending") {
        io.stdout(
          `\n${e.elicitation.state === "accepted" ? "accepted, waiting for completion:\n" : ""}${renderPending(e.elicitation)}`,
        );
      } else {
        io.stdout(`${renderSettled(e.elicitation)}\n`);
      }
    }
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  return 0;
}

export interface AnswerOptions extends CommonOptions {
  field?: string[];
  /** A JSON object of field values (`--json '{…}'` or `--content '{…}'`). */
  content?: string;
  decline?: boolean;
  cancel?: boolean;
}

export async function elicitAnswer(id: string, opts: AnswerOptions, io: MainIO): Promise<number> {
  if (opts.decline && opts.cancel) {
    io.stderr("mcpx: --decline and --cancel are two different answers: give one\n");
    return EXIT_INVALID;
  }
  const daemon = await daemonFor(opts, io);
  if (!daemon) return 1;
  const given = opts.content;
  let body: { action: string; content?: JSONObject };
  if (opts.decline || opts.cancel) {
    body = { action: opts.decline ? "decline" : "cancel" };
  } else {
    const pending = await daemon.get<PendingElicitation>(`elicitations/${encodeURIComponent(id)}`);
    if (pending.mode === "url") {
      if (given !== undefined || (opts.field?.length ?? 0) > 0) {
        io.stderr("mcpx: a URL elicitation takes no fields: accepting it means you will open the URL\n");
        return EXIT_INVALID;
      }
      body = { action: "accept" };
    } else {
      const content = formContent(given, opts.field ?? [], pending.requestedSchema, io);
      if (!content) return EXIT_INVALID;
      body = { action: "accept", content };
    }
  }
  const reply = await daemon.post<{ id: string; action: string; content?: JSONObject }>(
    `elicitations/${encodeURIComponent(id)}/answer`,
    body,
  );
  if (opts.json) printJson(io, reply);
  else {
    const content = reply.content ? ` ${JSON.stringify(reply.content)}` : "";
    io.stdout(`answered ${reply.id}: ${reply.action}${content}\n`);
  }
  return 0;
}

/** The form's answer from --json and --field, checked; undefined (problems printed) when it does not fit. */
function formContent(
  json: string | undefined,
  fields: readonly string[],
  schema: JSONObject | undefined,
  io: MainIO,
): JSONObject | undefined {
  let content: JSONObject = {};
  if (json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (err) {
      io.stderr(`mcpx: --json is not valid JSON: ${(err as Error).message}\n`);
      return undefined;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      io.stderr("mcpx: --json must be a JSON object of field values\n");
      return undefined;
    }
    content = parsed as JSONObject;
  }
  try {
    content = { ...content, ...parseFields(fields, schema) };
  } catch (err) {
    io.stderr(`mcpx: ${(err as Error).message}\n`);
    return undefined;
  }
  const problems = checkFormAnswer(content, schema);
  if (problems.length > 0) {
    for (const p of problems) io.stderr(`mcpx: ${p}\n`);
    io.stderr("mcpx: nothing was sent; the elicitation is still pending\n");
    return undefined;
  }
  return withDefaults(content, schema);
}

export function renderListing(listing: Listing): string {
  const out: string[] = [];
  const n = listing.pending.length;
  const attached = `${listing.watchers} watcher${listing.watchers === 1 ? "" : "s"} attached`;
  out.push(
    n === 0
      ? `No pending elicitations (${attached}).`
      : `${n} pending elicitation${n === 1 ? "" : "s"} (${attached}):`,
  );
  for (const p of listing.pending) out.push("", renderPending(p).trimEnd());
  if (listing.settled.length > 0) {
    out.push("", "Recently settled:");
    for (const s of listing.settled) out.push(renderSettled(s));
  }
  return `${out.join("\n")}\n`;
}

export function renderPending(p: PendingElicitation, now = Date.now()): string {
  const lines: string[] = [];
  const during = p.related ? `, during ${p.related}` : "";
  const left = Math.max(0, Date.parse(p.expiresAt) - now);
  lines.push(
    `  ${p.id}  ${p.mode}  from ${p.upstream}${during}, ${p.state === "accepted" ? "waiting for completion" : `expires in ${duration(left)}`}`,
  );
  lines.push(`    ${p.message}`);
  if (p.mode === "url") {
    lines.push(`    url:  ${p.url ?? "(none)"}`);
    lines.push(`    host: ${p.host ?? "?"}`);
    if (p.state === "pending") {
      lines.push(
        `    answer: mcpx elicit answer ${p.id}   (accept: you will open the URL)   or --decline / --cancel`,
      );
    }
  } else {
    const fields = formFields(p.requestedSchema);
    const required = new Set(requiredFields(p.requestedSchema));
    const names = Object.keys(fields);
    const rows = names.map((name) => {
      const f = fields[name] ?? {};
      const bits = [typeOf(f)];
      if (required.has(name)) bits.push("required");
      if ("default" in f) bits.push(`default ${JSON.stringify(f.default)}`);
      const about =
        typeof f.description === "string" ? f.description : typeof f.title === "string" ? f.title : "";
      return { name, what: bits.join(", "), about };
    });
    const width = Math.max(0, ...names.map((n) => n.length));
    const whatWidth = Math.max(0, ...rows.map((r) => r.what.length));
    for (const r of rows) {
      const about = r.about ? `  ${r.about}` : "";
      lines.push(`    ${r.name.padEnd(width)}  ${about ? r.what.padEnd(whatWidth) : r.what}${about}`);
    }
    if (names.length === 0) lines.push("    (no fields)");
    const example = names[0] ? ` --field ${names[0]}=…` : "";
    lines.push(`    answer: mcpx elicit answer ${p.id}${example}   or --decline / --cancel`);
  }
  // The message, URL and fields are the upstream's text: shown without control characters.
  return `${lines.map(forTerminal).join("\n")}\n`;
}

export function renderSettled(s: SettledElicitation): string {
  const why = s.reason ? ` (${s.reason})` : "";
  const url = s.url ? ` ${s.url}` : "";
  return forTerminal(`  ${s.id}  ${s.mode}  from ${s.upstream}: ${s.action}${why}${url}`);
}

function typeOf(prop: JSONObject): string {
  const type = typeof prop.type === "string" ? prop.type : "any";
  if (Array.isArray(prop.enum)) return `${type} (${prop.enum.map((v) => JSON.stringify(v)).join(" | ")})`;
  if (Array.isArray(prop.oneOf)) {
    const consts = (prop.oneOf as JSONObject[]).map((o) => JSON.stringify(o.const));
    return `${type} (${consts.join(" | ")})`;
  }
  if (typeof prop.format === "string") return `${type} (${prop.format})`;
  return type;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}
