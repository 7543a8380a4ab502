/**
 * Checks a config (already JSON-parsed and env-expanded) and returns every problem, each as
 * `<key path>: <rule>`. The schema does most of it; a few rules that span keys are checked here.
 * Which revisions and transports exist is not known here: pins are checked once the plugins are in
 * (pins.ts).
 */
import { formatKeyPath } from "@mcpx/core";
import { describeSchemaErrors } from "@mcpx/host";
import type { ErrorObject } from "ajv";
// Generated from the schema at build time: loading a config compiles nothing (and loads no ajv).
import { validate } from "./generated/config-validator.js";
import {
  HOST_FORMAT_NEEDS,
  HOST_FORMAT_TYPES,
  NAMESPACE_PATTERN,
  REVISION_PATTERN,
  TRANSPORT_PATTERN,
} from "./schema.js";

/** Words for the schema's patterns, which read badly as regular expressions. */
const PATTERN_RULES: Record<string, string> = {
  "^https?://[^\\s]+$": "must be an http:// or https:// URL",
  [NAMESPACE_PATTERN]:
    'must contain only letters, digits, _ and - (and never "__", which separates a namespace from a name, nor end in "_")',
  "^/": 'must start with "/"',
  "^file://": "must be a file:// URI",
  [REVISION_PATTERN]: "must be a revision's date, YYYY-MM-DD",
  [TRANSPORT_PATTERN]: "must be a transport's name (letters, digits, +, ., _ and -)",
};

export function validateConfig(data: unknown): string[] {
  const problems: string[] = [];
  if (!validate(data)) {
    const errors = (validate.errors ?? []).map(
      (e): ErrorObject =>
        e.keyword === "pattern"
          ? { ...e, message: PATTERN_RULES[(e.params as { pattern: string }).pattern] ?? e.message }
          : e,
    );
    problems.push(...describeSchemaErrors(errors));
  }
  problems.push(...crossKeyProblems(data));
  return problems;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function crossKeyProblems(data: unknown): string[] {
  if (!isObject(data)) return [];
  const problems: string[] = [];
  const key = data.mcpServers !== undefined && data.servers === undefined ? "mcpServers" : "servers";
  const servers = data[key];
  if (!isObject(servers)) return [];
  const namespaces = new Map<string, string>();
  const namespaceRe = new RegExp(NAMESPACE_PATTERN);
  for (const [name, entry] of Object.entries(servers)) {
    if (!isObject(entry)) continue;
    const at = (...rest: string[]) => formatKeyPath([key, name, ...rest]);

    // The host format's `type` says what the entry is; a `transport` pin is checked against what its
    // plugin reaches once the plugins are in (pins.ts).
    const type =
      typeof entry.type === "string" && Object.hasOwn(HOST_FORMAT_TYPES, entry.type)
        ? (entry.type as keyof typeof HOST_FORMAT_TYPES)
        : undefined;
    if (type !== undefined) {
      const typed = HOST_FORMAT_TYPES[type];
      if (typeof entry.transport === "string" && entry.transport !== typed) {
        problems.push(
          `${at("type")}: ${JSON.stringify(type)} means transport ${JSON.stringify(typed)}, but "transport" is ${JSON.stringify(entry.transport)}`,
        );
      }
      const needs = HOST_FORMAT_NEEDS[type];
      const has = entry.command !== undefined ? "command" : entry.url !== undefined ? "url" : undefined;
      if (has !== undefined && has !== needs) {
        problems.push(`${at("type")}: ${JSON.stringify(type)} needs "${needs}", not "${has}"`);
      }
    }

    if (entry.namespacing === false || entry.disabled === true) continue;
    const namespace = typeof entry.namespace === "string" ? entry.namespace : name;
    if (entry.namespace === undefined && !namespaceRe.test(name)) {
      problems.push(
        `${at()}: the name is not a valid namespace (letters, digits, _ and -, not ending in _); rename it or set "namespace"`,
      );
      continue;
    }
    const prior = namespaces.get(namespace);
    if (prior !== undefined) {
      problems.push(
        `${at(entry.namespace === undefined ? "" : "namespace")}: namespace ${JSON.stringify(namespace)} is already used by ${formatKeyPath([key, prior])}`,
      );
    } else {
      namespaces.set(namespace, name);
    }
  }
  problems.push(...readinessProblems(data, servers));
  return problems;
}

/** A readiness rule that names a server the config does not have would never hold. */
function readinessProblems(data: Record<string, unknown>, servers: Record<string, unknown>): string[] {
  const rule = isObject(data.readiness) ? data.readiness.require : undefined;
  if (!Array.isArray(rule)) return [];
  return rule.flatMap((name, i) =>
    typeof name === "string" && !Object.hasOwn(servers, name)
      ? [
          `${formatKeyPath(["readiness", "require", String(i)])}: ${JSON.stringify(name)} is not a server of this config`,
        ]
      : [],
  );
}
