/**
 * Edits of an mcpx config file's text: servers merged in, added, removed. Each is a targeted edit
 * (jsonc-parser's modify), so the rest of the file keeps its layout; only the lines an edit touches
 * are laid out again, in the file's own indentation. The result is checked against the schema, and
 * an edit that would make the config invalid is refused (the file's own older problems aside).
 */
import { ConfigError, formatKeyPath } from "@mcpx/core";
import type { Edit, FormattingOptions } from "jsonc-parser";
import { JsonSyntaxError, parseJson } from "../json.js";
import type { ServerEntryFile } from "../types.js";
import { validateConfig } from "../validate.js";
import { jsoncParser } from "./lazy.js";
import { namespacesOf, settleNamespaces } from "./names.js";
import { isObject, type Json } from "./read.js";
import type { ImportWarning } from "./types.js";

export interface MergeOptions {
  /** What to do with a server whose name the config has already: refuse (default), replace, or skip it. */
  onClash?: "refuse" | "replace" | "skip";
  /** Names the config's file in errors. */
  label?: string;
}

export interface MergeResult {
  /** The new text of the config file. */
  text: string;
  added: string[];
  replaced: string[];
  /** Servers left out because the config has one of that name (onClash "skip"). */
  kept: string[];
  warnings: ImportWarning[];
}

/**
 * `servers` merged into the config `text` (undefined or empty: a new config with only them). Throws
 * ConfigError on a name clash (onClash "refuse"), on text that is not a JSON object, or when the
 * result would not be a valid config.
 */
export function mergeServers(
  text: string | undefined,
  servers: Record<string, ServerEntryFile>,
  options: MergeOptions = {},
): MergeResult {
  const label = options.label ?? "(config)";
  const base = text === undefined || text.trim() === "" ? "{}\n" : text;
  const doc = parseObject(base, label);
  const key = serversKey(doc);
  const existing = (isObject(doc[key]) ? doc[key] : {}) as Record<string, ServerEntryFile>;
  const onClash = options.onClash ?? "refuse";

  const clashes = Object.keys(servers).filter((name) => Object.hasOwn(existing, name));
  if (clashes.length > 0 && onClash === "refuse") {
    const problems = clashes.map(
      (name) =>
        `${formatKeyPath([key, name])}: the config has a server of this name already (force replaces it)`,
    );
    throw new ConfigError(`${label}: ${problems.join("; ")}`, problems);
  }
  const incoming: Record<string, ServerEntryFile> = {};
  const kept: string[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    if (clashes.includes(name) && onClash === "skip") kept.push(name);
    else incoming[name] = structuredClone(entry);
  }
  // Namespaces: the config's other servers keep theirs; an incoming one that would clash gets its own.
  const others = Object.fromEntries(
    Object.entries(existing).filter(([name]) => !Object.hasOwn(incoming, name)),
  );
  const warnings: ImportWarning[] = [];
  settleNamespaces(incoming, namespacesOf(others), (name, message) =>
    warnings.push({ server: name, at: formatKeyPath([key, name]), message }),
  );

  let out = base;
  const formatting = formattingOf(base);
  for (const [name, entry] of Object.entries(incoming)) {
    out = jsoncParser().applyEdits(out, setEdits(out, [key, name], entry, formatting));
  }
  if (text === undefined || text.trim() === "") out = `${JSON.stringify(JSON.parse(out), null, 2)}\n`;
  refuseNewProblems(base, out, label);
  return {
    text: out,
    added: Object.keys(incoming).filter((n) => !clashes.includes(n)),
    replaced: Object.keys(incoming).filter((n) => clashes.includes(n)),
    kept,
    warnings,
  };
}

/** The config `text` without server `name`, and the entry removed. Throws ConfigError if it has none. */
export function removeServer(
  text: string,
  name: string,
  options: { label?: string } = {},
): { text: string; removed: ServerEntryFile } {
  const label = options.label ?? "(config)";
  const doc = parseObject(text, label);
  const key = serversKey(doc);
  const existing = isObject(doc[key]) ? (doc[key] as Record<string, ServerEntryFile>) : {};
  if (!Object.hasOwn(existing, name)) {
    const names = Object.keys(existing);
    const problem = `${formatKeyPath([key, name])}: the config has no server of this name (it has ${
      names.length ? names.map((n) => JSON.stringify(n)).join(", ") : "none"
    })`;
    throw new ConfigError(`${label}: ${problem}`, [problem]);
  }
  // Unformatted: the removal takes the property and its comma, and leaves every other line as it was.
  const out = jsoncParser().applyEdits(text, jsoncParser().modify(text, [key, name], undefined, {}));
  return { text: out, removed: existing[name]! };
}

/** The servers a config text has (by name), under whichever key it uses. */
export function serversOf(text: string, label = "(config)"): Record<string, ServerEntryFile> {
  const doc = parseObject(text, label);
  const servers = doc[serversKey(doc)];
  return isObject(servers) ? (servers as Record<string, ServerEntryFile>) : {};
}

function parseObject(text: string, label: string): Json {
  let doc: unknown;
  try {
    doc = parseJson(text);
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    const problem = `invalid JSON at ${err.message}`;
    throw new ConfigError(`${label}: ${problem}`, [problem], { cause: err });
  }
  if (!isObject(doc)) throw new ConfigError(`${label}: is not a JSON object`, ["is not a JSON object"]);
  return doc;
}

/** The config's own key for its servers: `servers`, or `mcpServers` if that is what it uses. */
function serversKey(doc: Json): "servers" | "mcpServers" {
  return doc.servers === undefined && doc.mcpServers !== undefined ? "mcpServers" : "servers";
}

/**
 * The edits that set `path` to `value`, laid out in the file's indentation and touching no other
 * line. (jsonc-parser's own formatting lays out again every line an edit touches, such as the line of
 * the property before, which would rewrite a compact entry the user wrote on one line.)
 */
function setEdits(text: string, at: [string, string], value: unknown, fmt: FormattingOptions): Edit[] {
  const raw = jsoncParser().modify(text, at, value, {});
  const edit = raw[0];
  if (raw.length !== 1 || edit === undefined)
    return jsoncParser().modify(text, at, value, { formattingOptions: fmt });
  const unit = fmt.insertSpaces ? " ".repeat(fmt.tabSize ?? 2) : "\t";
  const eol = fmt.eol ?? "\n";
  const pad = (depth: number) => unit.repeat(depth);
  const pretty = (v: unknown, depth: number) =>
    JSON.stringify(v, null, unit)
      .split("\n")
      .join(eol + pad(depth));
  // Replacing a value: the property stays where it is.
  if (edit.length > 0) return [{ ...edit, content: pretty(value, at.length) }];
  // Inserting a property (`,"key": value`, or `"key": value` into an empty object), at the depth of
  // the server, or of the servers object itself when the config had none.
  const parent = JSON.parse(text) as Json;
  const depth = isObject(parent[at[0]]) ? at.length : 1;
  const comma = edit.content.startsWith(",");
  const rest = comma ? edit.content.slice(1) : edit.content;
  const keyText = /^"(?:[^"\\]|\\.)*"/.exec(rest)?.[0];
  if (keyText === undefined) return jsoncParser().modify(text, at, value, { formattingOptions: fmt });
  const property = `${keyText}: ${pretty(JSON.parse(rest.slice(keyText.length).replace(/^\s*:\s*/, "")), depth)}`;
  return [
    {
      ...edit,
      content: comma
        ? `,${eol}${pad(depth)}${property}`
        : `${eol}${pad(depth)}${property}${eol}${pad(depth - 1)}`,
    },
  ];
}

/** The file's indentation (the first indented line's) and line ends. */
function formattingOf(text: string): FormattingOptions {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? "  ";
  return {
    insertSpaces: !indent.startsWith("\t"),
    tabSize: indent.startsWith("\t") ? 1 : indent.length,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
  };
}

/**
 * Refuses a result with a schema problem the original did not have. A value that reads `${env:…}` is
 * checked as mcpx will after expanding it, which cannot be known here, so its own key is not judged.
 */
function refuseNewProblems(before: string, after: string, label: string): void {
  const old = new Set(problemsOf(before));
  const added = problemsOf(after).filter((p) => !old.has(p));
  if (added.length > 0) throw new ConfigError(`${label}: ${added.join("; ")}`, added);
}

function problemsOf(text: string): string[] {
  const doc = JSON.parse(text) as unknown;
  const unknowable: string[] = [];
  const walk = (v: unknown, at: (string | number)[]): void => {
    if (typeof v === "string" && v.includes("${env:")) unknowable.push(formatKeyPath(at));
    else if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, [...at, i]);
    } else if (isObject(v)) for (const [k, x] of Object.entries(v)) walk(x, [...at, k]);
  };
  walk(doc, []);
  return validateConfig(doc).filter((p) => !unknowable.some((at) => p.startsWith(`${at}: `)));
}
