import type { ErrorObject } from "ajv";

/** Appends a key or index to a display path: `params._meta["io.modelcontextprotocol/protocolVersion"]`. */
export function joinPath(base: string, segment: string | number): string {
  if (typeof segment === "number" || /^\d+$/.test(segment)) return `${base}[${segment}]`;
  if (!/^[A-Za-z_$][\w$]*$/.test(segment)) return `${base}[${JSON.stringify(segment)}]`;
  return base ? `${base}.${segment}` : segment;
}

export function displayPath(path: string): string {
  return path || "(root)";
}

/**
 * One line per ajv error, naming the instance path and the rule, and which schema said so:
 * `params.protocolVersion: is required (2025-06-18 InitializeRequest)`. `root` prefixes every path.
 */
export function describeAjvErrors(
  errors: readonly ErrorObject[] | null | undefined,
  source: string,
  root = "",
): string[] {
  const lines = new Set<string>();
  for (const e of errors ?? []) {
    let path = pointerToPath(e.instancePath, root);
    let rule = e.message ?? "is invalid";
    const params: Record<string, unknown> = e.params;
    if (e.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
      path = joinPath(path, params.additionalProperty);
      rule = "is not allowed here";
    } else if (e.keyword === "required" && typeof params.missingProperty === "string") {
      path = joinPath(path, params.missingProperty);
      rule = "is required";
    } else if (e.keyword === "const") {
      rule = `must be ${JSON.stringify(params.allowedValue)}`;
    } else if (e.keyword === "enum" && Array.isArray(params.allowedValues)) {
      rule = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
    }
    lines.add(`${displayPath(path)}: ${rule} (${source})`);
  }
  return [...lines];
}

function pointerToPath(pointer: string, root: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((seg) => seg.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<string>((acc, seg) => joinPath(acc, seg), root);
}
