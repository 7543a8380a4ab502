/**
 * RFC 6570 URI templates, levels 1 and 2 (what resource templates use): `{var}` expands to the value
 * with everything but unreserved characters percent-encoded, `{+var}` keeps reserved characters
 * (`/`, `:`, …) and `{#var}` does so after a `#`. A variable left empty expands to nothing.
 */
const EXPRESSION = /\{([+#]?)([^{}]+)\}/g;

/** The variables of a template, in order, once each. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const m of template.matchAll(EXPRESSION)) {
    for (const name of (m[2] ?? "").split(",")) {
      const n = name.trim();
      if (n && !names.includes(n)) names.push(n);
    }
  }
  return names;
}

/** Unreserved characters stay (RFC 3986 §2.3); `reserved` keeps the reserved ones and `%XX` too. */
function encode(value: string, reserved: boolean): string {
  if (!reserved)
    return encodeURIComponent(value).replace(
      /[!'()*]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
    );
  return encodeURI(value).replace(/%25([0-9A-Fa-f]{2})/g, "%$1");
}

export function expandTemplate(template: string, values: Record<string, string | undefined>): string {
  return template.replace(EXPRESSION, (_all, op: string, list: string) => {
    const parts = list
      .split(",")
      .map((n) => values[n.trim()])
      .filter((v): v is string => v !== undefined && v !== "")
      .map((v) => encode(v, op !== ""));
    if (parts.length === 0) return "";
    return (op === "#" ? "#" : "") + parts.join(",");
  });
}
