/** What a scripted server answers when the test did not say otherwise, per revision. */
import { MODERN, metaVersion } from "./frame-revision.js";
import { openListen } from "./listen.js";
import {
  type Answer,
  type Frame,
  type Handler,
  type HandlerContext,
  type JSONObject,
  NO_ANSWER,
  type ScriptedServer,
} from "./server.js";

const LIST_KEYS: Record<string, { key: string; source: keyof ListSources }> = {
  "tools/list": { key: "tools", source: "tools" },
  "prompts/list": { key: "prompts", source: "prompts" },
  "resources/list": { key: "resources", source: "resources" },
  "resources/templates/list": { key: "resourceTemplates", source: "resourceTemplates" },
};

interface ListSources {
  tools?: JSONObject[];
  prompts?: JSONObject[];
  resources?: JSONObject[];
  resourceTemplates?: JSONObject[];
}

function methodNotFound(method: string): Answer {
  return { error: { code: -32601, message: `Method not found: ${method}` } };
}

/** A modern request must carry a version this server speaks; the answer when it does not. */
function modernGate(server: ScriptedServer, req: Frame, ctx: HandlerContext): Answer | undefined {
  if (server.negotiated) return undefined;
  const version = metaVersion(req.params);
  if (version === undefined) {
    if (!server.modern) return undefined;
    return {
      error: {
        code: -32602,
        message: "Invalid params: _meta.io.modelcontextprotocol/protocolVersion is required",
      },
    };
  }
  const err = server.versionError(version);
  if (err) return err;
  void ctx;
  return undefined;
}

function paged(server: ScriptedServer, req: Frame, items: JSONObject[], key: string): JSONObject {
  const size = server.options.pageSize;
  if (!size) return server.complete({ [key]: items }, true);
  const cursor = req.params?.cursor;
  const start = typeof cursor === "string" && cursor.startsWith("c") ? Number(cursor.slice(1)) : 0;
  const page: JSONObject = { [key]: items.slice(start, start + size) };
  if (start + size < items.length) page.nextCursor = `c${start + size}`;
  return server.complete(page, true);
}

export function defaultHandler(method: string): Handler {
  return (req, ctx) => {
    const server = ctx.server;
    const o = server.options;
    if (method === "initialize") {
      const legacy = o.versions.filter((v) => !MODERN.includes(v));
      if (legacy.length === 0) {
        return {
          error: {
            code: -32022,
            message: "This server speaks only modern revisions",
            data: { supported: o.versions, requested: req.params?.protocolVersion ?? null },
          },
        };
      }
      const offered = req.params?.protocolVersion;
      const version =
        o.answerVersion ?? (typeof offered === "string" && legacy.includes(offered) ? offered : legacy[0]);
      server.negotiated = version;
      const result: JSONObject = {
        protocolVersion: version,
        capabilities: o.capabilities ?? { tools: {}, prompts: {}, resources: {}, logging: {} },
        serverInfo: o.serverInfo ?? { name: "scripted", version: "1.0.0" },
      };
      if (o.instructions) result.instructions = o.instructions;
      return result;
    }
    if (method === "server/discover") {
      if (!server.modern) return methodNotFound(method);
      const gate = modernGate(server, req, ctx);
      if (gate) return gate;
      return {
        resultType: "complete",
        supportedVersions: o.versions,
        capabilities: o.capabilities ?? { tools: {}, prompts: {}, resources: {} },
        _meta: {
          "io.modelcontextprotocol/serverInfo": o.serverInfo ?? { name: "scripted", version: "1.0.0" },
        },
        ttlMs: 0,
        cacheScope: "public",
        ...(o.instructions ? { instructions: o.instructions } : {}),
      };
    }
    const gate = modernGate(server, req, ctx);
    if (gate) return gate;
    const list = LIST_KEYS[method];
    if (list) return paged(server, req, (o[list.source] as JSONObject[] | undefined) ?? [], list.key);
    switch (method) {
      case "ping":
        return server.modern && !server.negotiated ? methodNotFound(method) : {};
      case "logging/setLevel":
        return server.modern && !server.negotiated ? methodNotFound(method) : {};
      case "tools/call": {
        const name = req.params?.name;
        const tool = (o.tools ?? []).find((t) => t.name === name);
        if (!tool) return { error: { code: -32602, message: `Unknown tool: ${String(name)}` } };
        return server.complete({
          content: [{ type: "text", text: JSON.stringify(req.params?.arguments ?? {}) }],
        });
      }
      case "prompts/get": {
        const name = req.params?.name;
        const prompt = (o.prompts ?? []).find((p) => p.name === name);
        if (!prompt) return { error: { code: -32602, message: `Unknown prompt: ${String(name)}` } };
        return server.complete({
          messages: [{ role: "user", content: { type: "text", text: `prompt ${String(name)}` } }],
        });
      }
      case "resources/read": {
        const uri = req.params?.uri;
        const resource = (o.resources ?? []).find((r) => r.uri === uri);
        if (!resource) {
          const code = server.modern && !server.negotiated ? -32602 : -32002;
          return { error: { code, message: `Resource not found: ${String(uri)}`, data: { uri } } };
        }
        return server.complete(
          { contents: [{ uri, mimeType: "text/plain", text: `contents of ${String(uri)}` }] },
          true,
        );
      }
      case "resources/subscribe":
      case "resources/unsubscribe":
        return {};
      case "subscriptions/listen":
        if (!server.modern || server.negotiated) return methodNotFound(method);
        server.listens.push(openListen(req, ctx, o.honour ?? ((f) => f)));
        return NO_ANSWER;
      case "completion/complete":
        return server.complete({ completion: { values: [], hasMore: false } });
      default:
        return methodNotFound(method);
    }
  };
}
