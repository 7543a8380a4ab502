/**
 * The auth scheme "oauth": `{ "type": "oauth" }` on an HTTP upstream authorizes it with OAuth 2.1
 * as the MCP revisions define it (basic/authorization of 2025-03-26 through 2026-07-28). Its effect
 * is live credentials (core AuthEffect.live): no header until the upstream asks, then discovery,
 * registration, the user's authorization (or client credentials), refresh and step-up, each time the
 * upstream refuses a request. Tokens live in a TokenStore, by default files in the state directory.
 *
 * The default export is the plugin an app applies without a way to reach a user: an upstream that
 * needs a login fails with AuthorizationRequiredError naming `mcpx auth login <name>`. An app that
 * can show the user a browser applies createOAuthPlugin({ authorizer }) in its place.
 */
import {
  type AuthEffect,
  type AuthScheme,
  type AuthTarget,
  definePlugin,
  type JSONObject,
  type Logger,
  type Plugin,
  type StateStore,
  silentLogger,
} from "@mcpx/core";
import type { Authorizer } from "./authorizer.js";
import { checkOptions, optionsSchema } from "./options.js";
import { OAuthSession } from "./session.js";
import { FileTokenStore, MemoryTokenStore, StateStoreTokenStore, type TokenStore } from "./token-store.js";

export type { AuthorizationRequest, Authorizer } from "./authorizer.js";
export { type BearerChallenge, bearerChallenge, parseChallenges } from "./challenge.js";
export { resourceCovers } from "./discovery.js";
export { type LoopbackListener, listenForRedirect } from "./loopback.js";
export { DEFAULT_REDIRECT_URI, type OAuthOptions, optionsSchema } from "./options.js";
export { EXPIRY_MARGIN_MS, OAuthSession, STEP_UP_LIMIT } from "./session.js";
export {
  type ClientRecord,
  FileTokenStore,
  MemoryTokenStore,
  OAUTH_SPACE,
  StateStoreTokenStore,
  type StoredGrant,
  type TokenStore,
} from "./token-store.js";

export const PLUGIN_NAME = "@mcpx/auth-oauth";

export interface OAuthPluginOptions {
  /**
   * Who has the user authorize (opens the URL, hears the redirect back). Without one, an upstream
   * that needs a user's login fails with AuthorizationRequiredError naming the command to run.
   */
  authorizer?: Authorizer;
  /** Where tokens live: by default files under the state directory, or memory where there is none. */
  store?: TokenStore;
}

/**
 * The scheme, with its sessions: one per upstream, URL and options, kept across reconnections so
 * that a token obtained once serves every connection of the upstream.
 */
export function createOAuthScheme(
  plugin: OAuthPluginOptions = {},
  log: Logger = silentLogger,
  /** The host's state store of the moment (PluginHost.store): grants go there when it is shared. */
  stateStore?: () => StateStore,
): AuthScheme {
  const sessions = new Map<string, OAuthSession>();
  const sharedStores = new WeakMap<StateStore, StateStoreTokenStore>();
  const fileStores = new Map<string, FileTokenStore>();
  let memory: MemoryTokenStore | undefined;
  const storeFor = (target: AuthTarget): TokenStore => {
    if (plugin.store) return plugin.store;
    // Read when a target is applied, not at apply time: the daemon selects its store after plugins.
    const shared = stateStore?.();
    if (shared?.shared) {
      let tokens = sharedStores.get(shared);
      if (!tokens) {
        tokens = new StateStoreTokenStore(shared);
        sharedStores.set(shared, tokens);
      }
      return tokens;
    }
    if (target.stateDir === undefined) {
      memory ??= new MemoryTokenStore();
      return memory;
    }
    const known = fileStores.get(target.stateDir);
    if (known) return known;
    const store = new FileTokenStore(target.stateDir);
    fileStores.set(target.stateDir, store);
    return store;
  };
  return {
    type: "oauth",
    optionsSchema,
    apply(options: JSONObject, target: AuthTarget): AuthEffect {
      const checked = checkOptions(options, target);
      const key = JSON.stringify([target.name, target.url, target.stateDir ?? null, options]);
      let session = sessions.get(key);
      if (!session) {
        session = new OAuthSession({
          upstream: target.name,
          server: new URL(target.url as string),
          options: checked,
          store: storeFor(target),
          authorizer: plugin.authorizer,
          log: log.child({ upstream: target.name }),
        });
        sessions.set(key, session);
      }
      return { live: session };
    },
  };
}

/** The plugin, with an authorizer or a store of the app's choosing. */
export function createOAuthPlugin(options: OAuthPluginOptions = {}): Plugin {
  return definePlugin({
    name: PLUGIN_NAME,
    apiVersion: 1,
    apply(host) {
      host.registerAuthScheme(createOAuthScheme(options, host.log, () => host.store()));
    },
  });
}

export default createOAuthPlugin();
