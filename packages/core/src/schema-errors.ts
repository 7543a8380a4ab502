import type { ErrorObject } from "ajv";

/**
 * One line per ajv error, naming the key path and the rule: `servers.fs.command: must be string`.
 * `root` prefixes every path (e.g. "plugins[0].options").
 */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined, root = ""): string[] {
  if (!errors) return [];
  const lines = new Set<string>();
  for (const e of errors) {
    let path = root + jsonPointerToPath(e.instancePath);
    let rule = e.message ?? "is invalid";
    if (e.keyword === "additionalProperties") {
      const extra = (e.params as { additionalProperty?: string }).additionalProperty;
      path = joinPath(path, extra ?? "");
      rule = "is not a known key";
    } else if (e.keyword === "required") {
      const missing = (e.params as { missingProperty?: string }).missingProperty;
      path = joinPath(path, missing ?? "");
      rule = "is required";
    } else if (e.keyword === "enum") {
      const allowed = (e.params as { allowedValues?: unknown[] }).allowedValues;
      if (allowed) rule = `must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}`;
    }
    lines.add(`${path || "(root)"}: ${rule}`);
  }
  return [...lines];
}

function jsonPointerToPath(pointer: string): string {
  if (!pointer) return "";
  return pointer
    .split("/")
    .slice(1)
    .map((seg) => seg.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((acc, seg) => joinPath(acc, seg), "");
}

function joinPath(base: string, seg: string): string {
  if (seg === "") return base;
  if (/^\d+$/.test(seg)) return `${base}[${seg}]`;
  if (!/^[A-Za-z_$][\w$-]*$/.test(seg)) return `${base}[${JSON.stringify(seg)}]`;
  return base ? `${base}.${seg}` : seg;
}
