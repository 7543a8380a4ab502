/**
 * Which literal values in a host's `env` and `headers` look like credentials. A host file that holds
 * one keeps it (the import must not break the server), but the user is told, with the `${env:…}`
 * reference to write instead. A guess from the name and a few well-known token prefixes: a false
 * alarm costs a line of output, a miss costs nothing that the host file did not already risk.
 */

const SECRET_NAME =
  /token|secret|passw|pwd|api[-_]?key|access[-_]?key|private[-_]?key|credential|auth|cookie|session|bearer|signature|(^|[-_])pat($|[-_])|(^|[-_])key$/i;
// GitHub, OpenAI/Anthropic/Stripe-style, Slack, GitLab, AWS access key ids.
const SECRET_VALUE = /^(gh[pousr]_|github_pat_|sk-|sk_(live|test)_|xox[abposr]-|glpat-|AKIA[0-9A-Z]{12})/;
// A URL with a password in it (postgresql://user:password@host/db).
const URL_CREDENTIALS = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;
// Flags and small numbers are settings, whatever their name says (AUTH_ENABLED=true), and a path or
// a URL names where a secret is (GDRIVE_CREDENTIALS_PATH=/…/credentials.json), unless it holds one.
const PLAIN_SETTING = /^(true|false|yes|no|on|off|none|\d{1,6}|~?\.{0,2}\/.*|[A-Za-z]:\\.*)$/i;
const URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/** True when `value` is written literally (no `${env:…}` in it) and looks like a credential. */
export function isLiteralSecret(name: string, value: string): boolean {
  if (value === "" || value.includes("${env:") || PLAIN_SETTING.test(value)) return false;
  if (URL.test(value)) return URL_CREDENTIALS.test(value);
  return SECRET_NAME.test(name) || SECRET_VALUE.test(value.replace(/^(Bearer|token)\s+/i, ""));
}

/** An environment variable name for a value now written literally: `X-Api-Key` → `X_API_KEY`. */
export function envNameFor(...parts: string[]): string {
  const name = parts
    .join("_")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
  return /^[A-Z_]/.test(name) ? name : `_${name}`;
}
