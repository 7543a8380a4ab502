/**
 * npm as a user runs it on the tarballs, with one difference: the @mcpx scope points at a port
 * nothing listens on, so an @mcpx/* package that npm would have to fetch from a registry (rather
 * than take from a tarball given to it) fails the install at once, naming the package.
 */
import { run } from "./run.mjs";

const NO_REGISTRY = "http://127.0.0.1:9/";

/** The environment without what pnpm sets for its scripts (npm_config_*), which npm would obey. */
export function cleanEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

/**
 * `npm install <args>` with no @mcpx/* package allowed from a registry. Resolves to the @mcpx/*
 * names npm asked the registry about anyway: npm 11 looks up a dependency's range (`@mcpx/core@^0.1.0`)
 * even when a tarball given in the same command satisfies it, and installs the tarball; the refused
 * lookup is harmless, and short retry delays keep it from costing a minute.
 */
export async function npmInstall(args, { cwd, timeoutMs = 300_000 }) {
  const { stderr } = await run(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--loglevel=http",
      `--@mcpx:registry=${NO_REGISTRY}`,
      "--fetch-retry-mintimeout=500",
      "--fetch-retry-maxtimeout=2000",
      ...args,
    ],
    { cwd, env: cleanEnv(), timeoutMs },
  );
  const asked = new Set();
  for (const m of stderr.matchAll(/fetch GET \S*?(@mcpx%2f[^\s/]+)/g)) asked.add(decodeURIComponent(m[1]));
  return { askedRegistryAbout: [...asked] };
}
