import { formatKeyPath } from "@mcpx/core";
import type { ErrorObject } from "ajv";

/**
 * One line per ajv error, naming the key path and the rule: `servers.fs.command: must be string`.
 * `root` prefixes every path (e.g. "plugins[0].options").
 *
 * A failed `oneOf`/`anyOf` is one line, not one per branch: when every branch only requires one
 * property (and ajv ran with `verbose: true`, so the branches are known) it reads
 * `servers.fs: must have exactly one of "command" or "url"`; otherwise the branch errors are kept
 * when they all concern the value itself (`must be string or array`), or ajv's message is used.
 * A value of the wrong type gets only its type error.
 */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined, root = ""): string[] {
  if (!errors) return [];
  const combinators = errors.filter((e) => e.keyword === "oneOf" || e.keyword === "anyOf");
  const branchOf = (e: ErrorObject) =>
    combinators.find((c) => c !== e && e.schemaPath.startsWith(`${c.schemaPath}/`));
  // A value of the wrong type: its type is the problem, whatever else its schema says about it.
  const mistyped = new Set(
    errors.filter((e) => e.keyword === "type" && !branchOf(e)).map((e) => e.instancePath),
  );
  const lines = new Set<string>();
  for (const e of errors) {
    if (branchOf(e)) continue;
    if (e.keyword !== "type" && mistyped.has(e.instancePath)) continue;
    let path = jsonPointerToPath(e.instancePath, root);
    let rule = e.message ?? "is invalid";
    if (e.keyword === "additionalProperties") {
      const extra = (e.params as { additionalProperty?: string }).additionalProperty;
      path = joinPath(path, extra ?? "");
      rule = "is not a known key";
    } else if (e.keyword === "required") {
      const missing = (e.params as { missingProperty?: string }).missingProperty;
      path = joinPath(path, missing ?? "");
      rule = "is required";
    } else if (e.keyword === "dependencies" || e.keyword === "dependentRequired") {
      const p = e.params as { property?: string; missingProperty?: string };
      path = joinPath(path, p.property ?? "");
      rule = `is only allowed with ${JSON.stringify(p.missingProperty)}`;
    } else if (e.keyword === "enum") {
      const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
      if (allowed) rule = `must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}`;
    } else if (e.keyword === "type") {
      const type = (e.params as { type?: string | string[] }).type;
      const types = Array.isArray(type) ? type : String(type ?? "").split(",");
      if (types.length > 1) rule = `must be ${orList(types)}`;
    } else if (e.keyword === "oneOf" || e.keyword === "anyOf") {
      rule =
        describeCombinator(
          e,
          errors.filter((b) => branchOf(b) === e),
        ) ?? rule;
    }
    lines.add(`${path || "(root)"}: ${rule}`);
  }
  return [...lines];
}

function describeCombinator(e: ErrorObject, branchErrors: readonly ErrorObject[]): string | undefined {
  const exactly = e.keyword === "oneOf";
  // With verbose, the branches are known: "one of these keys" reads better than "match a schema".
  const branches = Array.isArray(e.schema) ? (e.schema as unknown[]) : undefined;
  const keys = branches?.map((b) => {
    const s = b as { required?: unknown } | null;
    const required = s && typeof s === "object" && Object.keys(s).length === 1 ? s.required : undefined;
    return Array.isArray(required) && required.length === 1 ? String(required[0]) : undefined;
  });
  if (keys && keys.length > 1 && keys.every((k) => k !== undefined)) {
    return `must have ${exactly ? "exactly" : "at least"} one of ${orList(keys.map((k) => JSON.stringify(k)))}`;
  }
  // Every branch failed on the value's type: say which types would do.
  if (
    branchErrors.length > 0 &&
    branchErrors.every((b) => b.keyword === "type" && b.instancePath === e.instancePath)
  ) {
    const types = branchErrors.flatMap((b) => {
      const t = (b.params as { type?: string | string[] }).type;
      return Array.isArray(t) ? t : String(t ?? "").split(",");
    });
    return `must be ${orList([...new Set(types)])}`;
  }
  return undefined;
}

function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

function jsonPointerToPath(pointer: string, root = ""): string {
  if (!pointer) return root;
  const segments = pointer
    .split("/")
    .slice(1)
    .map((seg) => seg.replace(/~1/g, "/").replace(/~0/g, "~"));
  return formatKeyPath(segments, root);
}

/** A key under `base` (ajv's params name a missing or extra key apart from the path). */
function joinPath(base: string, key: string): string {
  return formatKeyPath([key], base);
}
