/**
 * The JSON Schema of mcpx.json. It is the one description of the file: ajv checks configs against
 * it, and the build writes it to schemas/mcpx.schema.json for editors (`"$schema"` in a config).
 * Defaults are here for editors to show; loading applies them in code (see load.ts).
 */

/**
 * What a revision pin looks like: a date. Which dates exist is the registry's to say, once the
 * plugins are in (pins.ts), so a third-party revision plugin's date can be pinned.
 */
export const REVISION_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";

/** What a transport pin looks like; which transports exist is the registry's to say (pins.ts). */
export const TRANSPORT_PATTERN = "^[A-Za-z0-9][A-Za-z0-9+._-]*$";

/**
 * The `type` key of the common MCP host format, and the transport each one means: the host format's
 * own words (a documented mapping), onto the names of mcpx's built-in transports.
 */
export const HOST_FORMAT_TYPES: Readonly<Record<"stdio" | "http" | "streamable-http" | "sse", string>> = {
  stdio: "stdio",
  http: "streamable-http",
  "streamable-http": "streamable-http",
  sse: "http+sse",
};

/** What each host-format `type` is: a program to run or an endpoint. */
export const HOST_FORMAT_NEEDS: Readonly<Record<keyof typeof HOST_FORMAT_TYPES, "command" | "url">> = {
  stdio: "command",
  http: "url",
  "streamable-http": "url",
  sse: "url",
};

export const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;

/**
 * A namespace (and a server key used as one): letters, digits, `_` and `-`, never `__` (it separates
 * a namespace from a name) and never a `_` at the end, which would run into the separator: `a_` and
 * `x` would make `a___x`, which splits at the first `__` as `a` and `_x`.
 */
export const NAMESPACE_PATTERN = "^(?!.*__)[A-Za-z0-9_-]*[A-Za-z0-9-]$";

const ms = (description: string, def: number, minimum = 0) =>
  ({ type: "integer", minimum, default: def, description: `${description} (milliseconds)` }) as const;

const timeouts = {
  type: "object",
  additionalProperties: false,
  properties: {
    request: ms("Per-request timeout; a progress notification starts it again", 60_000, 1),
    maxTotal: ms("The most a request may take whatever progress it reports", 600_000, 1),
    handshake: ms("Timeout of the handshake (initialize or server/discover)", 30_000, 1),
    probe: ms(
      "How long the era probe waits for server/discover before taking silence for a legacy server",
      10_000,
      1,
    ),
    closeGrace: ms("How long a stdio child gets to exit after stdin closes, and again after SIGTERM", 2000),
    ready: ms(
      "How long lists and calls wait, once mcpx starts, for an upstream's first connection attempt; past it they go on without it (and clients hear list_changed when it comes)",
      5000,
    ),
  },
} as const;

const stringArray = { type: "array", items: { type: "string" } } as const;

const server = {
  type: "object",
  description: 'One upstream MCP server: a program to run ("command") or an endpoint ("url").',
  additionalProperties: false,
  properties: {
    command: { type: "string", minLength: 1, description: "The program to run (stdio)" },
    args: { ...stringArray, description: "Its arguments" },
    cwd: { type: "string", description: "Its working directory, relative to the config file" },
    env: {
      type: "object",
      additionalProperties: { type: "string" },
      description: "Added to its environment",
    },
    url: {
      type: "string",
      pattern: "^https?://[^\\s]+$",
      description: "The endpoint (Streamable HTTP or HTTP+SSE)",
    },
    auth: {
      type: "object",
      required: ["type"],
      properties: { type: { type: "string", minLength: 1, description: "The auth scheme" } },
      description: "Credentials, applied by the auth scheme named by `type`; the other keys are the scheme's",
    },
    namespace: {
      type: "string",
      pattern: NAMESPACE_PATTERN,
      description:
        "Prefix of its tools and prompts, and host of its resource URIs (default: the server's key)",
    },
    namespacing: { type: "boolean", default: true, description: "Whether names are namespaced at all" },
    revision: {
      type: "string",
      pattern: REVISION_PATTERN,
      description:
        "Pin a protocol revision (skips the probe): the date (YYYY-MM-DD) of one an installed revision plugin provides",
    },
    transport: {
      type: "string",
      pattern: TRANSPORT_PATTERN,
      description:
        "Pin a transport (skips the probe): the name of one an installed transport plugin provides (built in: stdio, streamable-http, http+sse)",
    },
    type: {
      enum: Object.keys(HOST_FORMAT_TYPES),
      description: 'The common MCP host format\'s key; "http" and "sse" mean the transports of those names',
    },
    tools: {
      type: "object",
      additionalProperties: false,
      properties: {
        include: { ...stringArray, description: "Globs of the tool names to serve (default: all)" },
        exclude: { ...stringArray, description: "Globs of the tool names not to serve" },
      },
    },
    timeouts: { ...timeouts, description: "Overrides of upstream.timeouts for this server" },
    disabled: { type: "boolean", default: false, description: "Keep the entry but do not connect" },
  },
  oneOf: [{ required: ["command"] }, { required: ["url"] }],
  dependencies: { args: ["command"], cwd: ["command"], env: ["command"] },
} as const;

const servers = {
  type: "object",
  additionalProperties: { $ref: "#/definitions/server" },
  description: "The upstream servers, by name",
} as const;

export const configSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "mcpx config",
  description: "The config of mcpx, the MCP gateway (mcpx.json)",
  type: "object",
  additionalProperties: false,
  definitions: { server },
  properties: {
    $schema: { type: "string" },
    listen: {
      type: "object",
      additionalProperties: false,
      description: "Where mcpx serves its own clients",
      properties: {
        host: { type: "string", minLength: 1, default: "127.0.0.1" },
        port: { type: "integer", minimum: 0, maximum: 65535, default: 7333 },
        path: { type: "string", pattern: "^/", default: "/mcp" },
        token: { type: "string", minLength: 1, description: "Bearer token mcpx's clients must send" },
        allowedOrigins: { ...stringArray, description: "Origins allowed besides loopback ones" },
        maxBodyBytes: { type: "integer", minimum: 1, default: 4 * 1024 * 1024 },
        headersTimeout: ms(
          "How long a client may take to send a request's headers; a slower one gets 408 and its connection is closed (slowloris)",
          5_000,
          1,
        ),
        requestTimeout: ms(
          "How long a client may take to send a whole request, body included (never the answer: streams stay open); a slower one gets 408",
          30_000,
          1,
        ),
        maxConnections: {
          type: "integer",
          minimum: 1,
          default: 1000,
          description:
            "HTTP connections held at once, open streams included; one more is closed unanswered until one ends",
        },
        sessions: {
          type: "object",
          additionalProperties: false,
          description:
            "Bounds on legacy clients' sessions (Streamable HTTP before the modern era, and HTTP+SSE)",
          properties: {
            max: {
              type: "integer",
              minimum: 1,
              default: 1000,
              description:
                "Sessions held at once; at the bound the least recently used idle one is evicted (never-initialized first), and a new one is refused (503) only when every one is in use",
            },
            perClient: {
              type: "integer",
              minimum: 1,
              default: 100,
              description:
                "Sessions held at once for one client address, the same way (every local client is 127.0.0.1)",
            },
            idleTimeout: ms(
              "How long a session with no request in flight and no open stream lives",
              1_800_000,
              1,
            ),
            handshakeTimeout: ms(
              "How long a session that has not sent notifications/initialized lives unused (HTTP+SSE: from GET /sse)",
              10_000,
              1,
            ),
          },
        },
      },
    },
    upstream: {
      type: "object",
      additionalProperties: false,
      description: "How mcpx behaves towards every upstream",
      properties: {
        versionAttempts: {
          type: "integer",
          minimum: 1,
          default: 2,
          description: "How many times one protocol version may be sent during version retry",
        },
        listenReopenDelay: ms("Wait before reopening a subscriptions/listen stream", 1000),
        sseReconnectDelay: ms("Wait before resuming an SSE stream when the server sent no retry", 1000),
        sseReconnectAttempts: {
          type: "integer",
          minimum: 0,
          default: 3,
          description: "How many times one SSE stream is resumed",
        },
        maxInputRounds: {
          type: "integer",
          minimum: 1,
          default: 8,
          description: "Bound on input_required rounds for one request",
        },
        maxFrameBytes: {
          type: "integer",
          minimum: 1024,
          default: 64 * 1024 * 1024,
          description:
            "The largest frame an upstream may send (a stdio line, a JSON body, one SSE event); a larger one fails its request with an error naming this limit",
        },
        maxNameLength: {
          type: "integer",
          minimum: 1,
          default: 256,
          description:
            "The longest tool, prompt or resource name mcpx serves from an upstream; a longer entry is left out with a server.warning",
        },
        timeouts,
      },
    },
    servers,
    mcpServers: { ...servers, description: "The same as servers (the common format of MCP hosts)" },
    plugins: {
      type: "array",
      description: 'Plugins to apply: a package name or a path relative to this file, or ["name", {options}]',
      items: {
        type: ["string", "array"],
        minLength: 1,
        minItems: 1,
        maxItems: 2,
        items: [{ type: "string", minLength: 1 }, { type: "object" }],
        additionalItems: false,
      },
    },
    roots: {
      type: "array",
      description: "Roots offered to upstreams that ask",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["uri"],
        properties: { uri: { type: "string", pattern: "^file://" }, name: { type: "string" } },
      },
    },
    store: {
      type: "object",
      description:
        'Where state shared between replicas lives (era records, OAuth grants, sessions): { "type": "redis", "url": "rediss://…" }, the options being the store plugin\'s. Absent: the embedded store (memory and the state directory), for one process',
      required: ["type"],
      properties: {
        type: { type: "string", minLength: 1, description: 'The store plugin\'s type ("redis")' },
      },
      additionalProperties: true,
    },
    replica: {
      type: "object",
      additionalProperties: false,
      description:
        "This mcpx as one of several replicas behind a balancer on a shared store: which replica holds which legacy session is recorded there, and a request for a session another replica holds is proxied to it",
      properties: {
        id: {
          type: "string",
          minLength: 1,
          description: "This replica's name in session records and errors (default <hostname>:<listen.port>)",
        },
        url: {
          type: "string",
          pattern: "^https?://",
          description:
            "Where the other replicas reach this one, origin only (default http://<listen.host>:<listen.port>)",
        },
        ttl: ms(
          "How long this replica's liveness entry and session records outlive their last renewal (renewed every third of it): a replica that died is known dead after this long",
          15_000,
          1_000,
        ),
      },
    },
    stateDir: {
      type: "string",
      minLength: 1,
      description:
        "Where mcpx keeps its state (era records), relative to this file (default $XDG_STATE_HOME/mcpx, else ~/.local/state/mcpx)",
    },
    console: {
      type: "boolean",
      default: true,
      description:
        "Serve the web console at / of the listen address (same checks as the MCP endpoint); false turns it off",
    },
    reload: {
      type: "object",
      additionalProperties: false,
      description:
        "How `mcpx serve` takes a changed config without a restart (on SIGHUP, `mcpx reload`, POST /.mcpx/reload, and when the file changes)",
      properties: {
        watch: { type: "boolean", default: true, description: "Reload when the config file changes" },
        debounce: ms(
          "How long the file must stay unchanged before it is reloaded (editors write in steps)",
          200,
        ),
        grace: ms(
          "How long the calls in flight of a removed or changed upstream get to finish before they fail and its connection closes",
          10_000,
        ),
      },
    },
    readiness: {
      type: "object",
      additionalProperties: false,
      description: "When GET /.mcpx/ready answers 200 (503 otherwise)",
      properties: {
        require: {
          description:
            '"all" enabled upstreams connected (the default), "any" one of them, or the names of those that must be',
          oneOf: [
            { enum: ["all", "any"] },
            { type: "array", items: { type: "string", minLength: 1 }, minItems: 1 },
          ],
          default: "all",
        },
      },
    },
    telemetry: {
      type: "object",
      additionalProperties: false,
      description:
        "OpenTelemetry traces and metrics (@mcpx/telemetry-otel). Off by default; the OTEL_* environment variables turn it on as the SDK defines them, and keys given here win over them",
      properties: {
        enabled: {
          type: "boolean",
          description: "true: on; false: off whatever OTEL_* say; absent: on when OTEL_* ask for an exporter",
        },
        serviceName: {
          type: "string",
          minLength: 1,
          description: "service.name (default OTEL_SERVICE_NAME, else mcpx)",
        },
        traces: {
          type: "object",
          additionalProperties: false,
          properties: {
            exporter: { enum: ["otlp", "console", "none"] },
            endpoint: { type: "string", minLength: 1, description: "OTLP/HTTP traces URL (…/v1/traces)" },
          },
        },
        metrics: {
          type: "object",
          additionalProperties: false,
          properties: {
            exporter: {
              enum: ["otlp", "prometheus", "none"],
              description: "prometheus: served at GET /.mcpx/metrics on the listen address",
            },
            endpoint: { type: "string", minLength: 1, description: "OTLP/HTTP metrics URL (…/v1/metrics)" },
            intervalMs: {
              type: "integer",
              minimum: 100,
              description: "OTLP export interval (default 60000)",
            },
          },
        },
        sampleRatio: { type: "number", minimum: 0, maximum: 1, description: "Share of root traces sampled" },
      },
    },
    log: {
      type: "object",
      additionalProperties: false,
      properties: {
        level: { enum: [...LOG_LEVELS], default: "info" },
        json: { type: "boolean", default: false },
      },
    },
  },
  oneOf: [{ required: ["servers"] }, { required: ["mcpServers"] }],
} as const;
