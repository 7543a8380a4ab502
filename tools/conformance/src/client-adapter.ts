/**
 * The client adapter the official conformance suite runs as `<command> <server-url>`: it connects
 * to the scenario's server through mcpx's own packages (a host with the built-in plugins, then
 * @mcpx/client's connectUpstream) and does what a user of mcpx would do for that scenario
 * (client-flows.ts). It holds no protocol logic: whatever goes on the wire is mcpx's.
 *
 * Environment: MCP_CONFORMANCE_SCENARIO (the flow), MCP_CONFORMANCE_PROTOCOL_VERSION (the revision
 * pin: dated versions through 2025-11-25 initialize, 2026-07-28 is stateless), MCP_CONFORMANCE_CONTEXT
 * (scenario data, JSON), MCPX_LOG (mcpx's log level on stderr, default warn), MCPX_CONFORMANCE_PROBE=1
 * (no pin: mcpx's era probe finds the era, as for an upstream configured without `revision`).
 * An auth/* scenario's server is configured with `"auth": { "type": "oauth", … }` (client-auth.ts).
 * Exit 0 when the flow completed, 1 with the reason on stderr when it did not.
 */
import { createOAuthPlugin, MemoryTokenStore } from "@mcpx/auth-oauth";
import { applyAuth, type ClientHandlers, connectUpstream } from "@mcpx/client";
import type { ElicitationHandler, JSONObject, LogLevel } from "@mcpx/core";
import { loadBuiltinPlugins } from "@mcpx/daemon";
import { createHost, createLogger } from "@mcpx/host";
import { authFor } from "./client-auth.js";
import { flowFor } from "./client-flows.js";
import { headlessAuthorizer } from "./headless-authorizer.js";

/** The user at the keyboard: accepts every form as it stands (mcpx fills in the schema's defaults). */
const acceptingUser: ElicitationHandler = {
  name: "conformance-user",
  modes: ["form"],
  handle: async () => ({ action: "accept", content: {} }),
};

const handlers: ClientHandlers = { elicitation: [acceptingUser], sampling: [], roots: () => [] };

async function main(): Promise<void> {
  const url = process.argv[2];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  if (!url || !scenario) {
    throw new Error("usage: MCP_CONFORMANCE_SCENARIO=<name> client-adapter <server-url>");
  }
  const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as JSONObject;
  const host = createHost({ log: createLogger({ level: (process.env.MCPX_LOG as LogLevel) ?? "warn" }) });
  // OAuth with a user who approves at once (the suite's authorization servers redirect straight
  // back), in place of the built-in that has nobody to ask; tokens live as long as the run.
  const oauth = createOAuthPlugin({ authorizer: headlessAuthorizer, store: new MemoryTokenStore() });
  for (const plugin of await loadBuiltinPlugins())
    await host.use(plugin.name === oauth.name ? oauth : plugin);
  const auth = authFor(scenario, context);
  const base = { name: "conformance", url };
  const { target } = auth
    ? await applyAuth(host.registry, { name: "conformance", auth }, base)
    : { target: base };
  const client = await connectUpstream({
    target,
    env: { registry: host.registry, hooks: host.hooks, log: host.log },
    handlers,
    ...(version && !process.env.MCPX_CONFORMANCE_PROBE ? { revision: version } : {}),
  });
  try {
    await flowFor(scenario)(client, context);
  } finally {
    await client.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "(no scenario)";
    process.stderr.write(
      `conformance client adapter: ${scenario}: ${(err as Error)?.stack ?? String(err)}\n`,
    );
    process.exit(1);
  },
);
