/**
 * `${env:NAME}` and `${env:NAME:-default}` in every string value of the config (keys are left
 * alone). The default applies when NAME is unset or empty, as in the shell. Every value an expansion
 * produced is recorded, so callers can keep it out of logs.
 */
import { formatKeyPath } from "@mcpx/core";

const REFERENCE = /\$\{env:([^}]*)\}/g;
const NAME_AND_DEFAULT = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

export interface Expansion {
  /** The config with every reference replaced (references that failed are left as written). */
  value: unknown;
  /** One line per reference that could not be expanded, naming the key path and NAME. */
  problems: { path: string; message: string }[];
  /** Every value an expansion produced. */
  expanded: string[];
}

export function expandEnv(input: unknown, env: Readonly<Record<string, string | undefined>>): Expansion {
  const problems: Expansion["problems"] = [];
  const expanded: string[] = [];

  const expandString = (text: string, at: readonly (string | number)[]): string => {
    if (!text.includes("${env:")) return text;
    let failed = false;
    const out = text.replace(REFERENCE, (whole, inner: string) => {
      const path = formatKeyPath(at) || "(root)";
      const m = NAME_AND_DEFAULT.exec(inner);
      if (!m) {
        failed = true;
        problems.push({
          path,
          message: `${whole} is not a valid reference (write \${env:NAME} or \${env:NAME:-default})`,
        });
        return whole;
      }
      const [, name, fallback] = m as unknown as [string, string, string | undefined];
      const set = env[name];
      const value = set === undefined || (set === "" && fallback !== undefined) ? fallback : set;
      if (value === undefined) {
        failed = true;
        problems.push({ path, message: `environment variable ${name} is not set` });
        return whole;
      }
      expanded.push(value);
      return value;
    });
    return failed ? text : out;
  };

  const walk = (value: unknown, at: (string | number)[]): unknown => {
    if (typeof value === "string") return expandString(value, at);
    if (Array.isArray(value)) return value.map((v, i) => walk(v, [...at, i]));
    if (typeof value === "object" && value !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        // defineProperty, so that a "__proto__" key stays a key.
        Object.defineProperty(out, k, {
          value: walk(v, [...at, k]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return value;
  };

  return { value: walk(input, []), problems, expanded };
}
