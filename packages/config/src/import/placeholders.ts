/**
 * Hosts' placeholders as mcpx's `${env:NAME}`, so that a secret the host read from elsewhere is read
 * from elsewhere by mcpx too and never lands in the mcpx config. What each host expands:
 * VS Code `${env:X}`, `${input:id}`, `${userHome}`, `${workspaceFolder}`…; Cursor `${env:X}`,
 * `${userHome}`, `${workspaceFolder}`…; Windsurf `${env:X}`; Claude (Code's `.mcp.json`) `${X}` and
 * `${X:-default}`. Anything mcpx cannot express is left as written, with a warning.
 */
import * as path from "node:path";
import type { KeyPath, Report } from "./report.js";
import { envNameFor } from "./secrets.js";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const BARE_REFERENCE = /^([A-Za-z_][A-Za-z0-9_]*)(:-(.*))?$/s;

/** A VS Code input (`inputs` entry), read by mcpx from an environment variable instead. */
export interface InputVariable {
  env: string;
  default?: string;
  password: boolean;
}

export interface PlaceholderRules {
  /** `${NAME}` and `${NAME:-default}` read the environment. */
  bareEnv: boolean;
  /** VS Code's inputs by id. */
  inputs?: ReadonlyMap<string, InputVariable>;
  /** The folder `${workspaceFolder}` stands for, when the file is a project's. */
  workspaceFolder?: string;
}

/** The environment variable a VS Code input id is read from: `github-token` → `GITHUB_TOKEN`. */
export function inputEnvName(id: string): string {
  return envNameFor(id);
}

/** `text` with every placeholder the host would expand written the mcpx way. */
export function convertPlaceholders(
  text: string,
  rules: PlaceholderRules,
  report: Report,
  at: KeyPath,
): string {
  if (!text.includes("${")) return text;
  return text.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    const converted = convertOne(inner, rules, report, at);
    if (converted !== undefined) return converted;
    report.warn(at, `${whole} has no mcpx equivalent; left as written`);
    return whole;
  });
}

function convertOne(inner: string, rules: PlaceholderRules, report: Report, at: KeyPath): string | undefined {
  const colon = inner.indexOf(":");
  const [kind, rest] = colon < 0 ? [inner, ""] : [inner.slice(0, colon), inner.slice(colon + 1)];
  switch (kind) {
    case "env": {
      const m = BARE_REFERENCE.exec(rest);
      return m ? `\${env:${rest}}` : undefined;
    }
    case "input":
      return input(rest, rules, report, at);
    case "userHome":
      // biome-ignore lint/suspicious/noTemplateCurlyInString: mcpx's own reference syntax
      return colon < 0 ? "${env:HOME}" : undefined;
    case "pathSeparator":
    case "/":
      return colon < 0 ? path.sep : undefined;
    case "workspaceFolder":
    case "workspaceFolderBasename": {
      if (colon >= 0) return undefined;
      if (rules.workspaceFolder === undefined) {
        report.warn(
          at,
          `\${${kind}} is only known inside the host's workspace (this file is not a project's); left as written`,
        );
        return `\${${kind}}`;
      }
      return kind === "workspaceFolder" ? rules.workspaceFolder : path.basename(rules.workspaceFolder);
    }
  }
  if (rules.bareEnv && BARE_REFERENCE.test(inner)) return `\${env:${inner}}`;
  return undefined;
}

function input(id: string, rules: PlaceholderRules, report: Report, at: KeyPath): string {
  const declared = rules.inputs?.get(id);
  const env = declared?.env ?? inputEnvName(id);
  if (!declared) report.warn(at, `\${input:${id}} is not declared in "inputs"; read from \${env:${env}}`);
  return declared?.default === undefined ? `\${env:${env}}` : `\${env:${env}:-${declared.default}}`;
}

/** Every `${env:NAME}` a string reads, for the list of variables to set. */
export function envReferences(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\$\{env:([^}:]*)(:-[^}]*)?\}/g)) {
    if (ENV_NAME.test(m[1]!) && m[2] === undefined) out.push(m[1]!);
  }
  return out;
}
