/**
 * The environment a child gets: a small safe subset of mcpx's own (as the official SDK does), so a
 * secret in mcpx's environment does not leak into every server, plus what config and auth add.
 */
const INHERITED = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "USER",
  "TMPDIR",
  "LANG",
  "LC_ALL",
  "SYSTEMROOT",
];

export function childEnv(extra: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED) {
    const value = process.env[key];
    // Shell functions exported into the environment ("() {...") are a known injection vector.
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  return { ...env, ...extra };
}
