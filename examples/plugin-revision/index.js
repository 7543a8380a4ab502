/**
 * A third-party revision plugin: the protocol revision "2099-01-01", which behaves exactly as
 * 2025-11-25 does, on both sides: mcpx offers and accepts it with upstreams, and serves it to its
 * own clients (initialize answered with it, its results and errors written as 2025-11-25 writes
 * them). Nothing is imported from mcpx at run time: the base revision comes from the host's
 * registry, and the new one is derived from it with its own version.
 *
 * A revision is mostly data (its features, its method table, what it declares as a server) and a
 * few rules that read the revision they are called on, so overriding `version` is enough for a
 * copy; override `features`, `methods` or `server` the same way for a revision that differs.
 */

const NAME = "@mcpx/example-plugin-revision";

/** @typedef {{ version: string, base: string }} Options */

/** @type {import("@mcpx/core").Plugin<Options>} */
const plugin = {
  name: NAME,
  version: "0.1.0",
  apiVersion: 1,
  optionsSchema: {
    type: "object",
    properties: {
      version: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$", default: "2099-01-01" },
      base: { type: "string", default: "2025-11-25" },
    },
    additionalProperties: false,
  },
  apply(host, options) {
    // The built-in revisions are applied before a config's plugins, so the base is registered.
    const base = host.registry.revision(options.base);
    if (!base) {
      const known = host.registry.revisions().map((r) => r.version);
      throw new Error(
        `revision ${options.base} is not registered (registered: ${known.join(", ") || "none"})`,
      );
    }
    host.registerRevision({ ...base, version: options.version });
  },
};

export default plugin;
