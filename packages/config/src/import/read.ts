/** What every host reader shares: the context of one import, and typed reading of host values. */
import { convertPlaceholders, type PlaceholderRules } from "./placeholders.js";
import type { KeyPath, Report } from "./report.js";
import type { HostFormat, HostServer } from "./types.js";

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export interface ReadContext {
  report: Report;
  rules: PlaceholderRules;
  /** What a relative `cwd` is relative to (the workspace folder, else the host file's folder). */
  baseDir?: string;
}

/** One host: how to find and read its servers. */
export interface HostDefinition {
  format: HostFormat;
  /** For people: "Claude Desktop", "VS Code"… */
  label: string;
  /** Whether `${NAME}` (without `env:`) reads the environment in this host's files. */
  bareEnv: boolean;
  /** Its servers, or undefined when the document has none of its server keys. */
  read(doc: unknown, ctx: ReadContext): HostServer[] | undefined;
}

/** A string value, placeholders converted; anything else is a warning. */
export function text(value: unknown, at: KeyPath, ctx: ReadContext): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") {
    ctx.report.warn(at, "is not a string; left out");
    return undefined;
  }
  return convertPlaceholders(value, ctx.rules, ctx.report, at);
}

export function strings(value: unknown, at: KeyPath, ctx: ReadContext): string[] {
  if (!Array.isArray(value)) {
    ctx.report.warn(at, "is not an array; left out");
    return [];
  }
  const out: string[] = [];
  value.forEach((v, i) => {
    // Hosts pass numbers as arguments as they are written; so does mcpx, as text.
    const s = typeof v === "number" || typeof v === "boolean" ? String(v) : text(v, [...at, i], ctx);
    if (s !== undefined) out.push(s);
  });
  return out;
}

export function stringMap(value: unknown, at: KeyPath, ctx: ReadContext): Record<string, string> {
  if (!isObject(value)) {
    ctx.report.warn(at, "is not an object; left out");
    return {};
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    const s = typeof v === "number" || typeof v === "boolean" ? String(v) : text(v, [...at, k], ctx);
    if (s !== undefined) out[k] = s;
  }
  return out;
}
