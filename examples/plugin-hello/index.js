/**
 * An mcpx plugin written the way a third party would: a package whose default export is a Plugin,
 * listed in mcpx.json by name or path, with nothing imported from mcpx at runtime (the types come
 * from @mcpx/core, its peer dependency).
 *
 * It adds the auth scheme "example-static", which sends one fixed header to an HTTP upstream:
 *
 *   "auth": { "type": "example-static", "header": "X-Api-Key", "value": "${env:API_KEY}" }
 *
 * and logs a greeting whenever an upstream connects.
 */

const NAME = "@mcpx/example-plugin";

/** @typedef {{ greeting: string }} Options */
/** @typedef {{ type: "example-static", header: string, value: string }} StaticAuth */

/** @type {import("@mcpx/core").Plugin<Options>} */
const plugin = {
  name: NAME,
  version: "0.1.0",
  apiVersion: 1,
  optionsSchema: {
    type: "object",
    properties: { greeting: { type: "string", default: "hello" } },
    additionalProperties: false,
  },
  apply(host, options) {
    host.hooks.lifecycle.tap(NAME, (event) => {
      if (event.type === "upstream.connected") {
        host.log.info(`${options.greeting}, ${event.upstream}`, {
          revision: event.revision,
          transport: event.transport,
        });
      }
    });

    host.registerAuthScheme({
      type: "example-static",
      optionsSchema: {
        type: "object",
        properties: {
          type: { const: "example-static" },
          header: { type: "string", pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" },
          value: { type: "string" },
        },
        required: ["header", "value"],
        additionalProperties: false,
      },
      apply(auth, target) {
        const { header, value } = /** @type {StaticAuth} */ (/** @type {unknown} */ (auth));
        if (!target.url) return {}; // headers mean nothing to a stdio child
        return { headers: { [header]: value } };
      },
    });
  },
};

export default plugin;
