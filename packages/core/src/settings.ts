/** Per-upstream behaviour settings (config `upstream.*`, overridable per server). Times in ms. */
export interface UpstreamSettings {
  /** How many times one protocol version may be sent to server/discover during version retry. */
  versionAttempts: number;
  /** Wait before reopening a subscriptions/listen stream the server ended. */
  listenReopenDelay: number;
  /** Wait before resuming an SSE stream when the server sent no `retry`. */
  sseReconnectDelay: number;
  /** How many times one SSE stream is resumed before the request fails. */
  sseReconnectAttempts: number;
  /** Per-request timeout; a progress notification starts it again. */
  requestTimeout: number;
  /** The most a request may take whatever progress it reports. */
  maxTotalTimeout: number;
  /** Timeout for the handshake (initialize or server/discover). */
  handshakeTimeout: number;
  /** How long the era probe's server/discover waits before taking silence for a legacy server. */
  probeTimeout: number;
  /** How long a stdio child gets to exit after its stdin closes, and again after SIGTERM. */
  closeGrace: number;
  /**
   * How long the lists and calls mcpx is asked for, once it starts, wait for this upstream's first
   * connection attempt (a host lists tools right after initialize). Past it they go on without it.
   */
  ready: number;
  /** Bound on input_required rounds for one request. */
  maxInputRounds: number;
  /**
   * The largest frame an upstream may send: a stdio line, a JSON body, one SSE event. Past it the
   * bytes are dropped as they come (memory stays bounded) and the request fails naming the limit.
   */
  maxFrameBytes: number;
  /** The longest name (tool, prompt, resource) an upstream's list may hold; longer entries are left out. */
  maxNameLength: number;
}

export const DEFAULT_UPSTREAM_SETTINGS: Readonly<UpstreamSettings> = Object.freeze({
  versionAttempts: 2,
  listenReopenDelay: 1000,
  sseReconnectDelay: 1000,
  sseReconnectAttempts: 3,
  requestTimeout: 60_000,
  maxTotalTimeout: 600_000,
  handshakeTimeout: 30_000,
  probeTimeout: 10_000,
  closeGrace: 2000,
  // Most stdio servers are up in well under a second; `npx -y` fetching a package takes a few.
  ready: 5000,
  maxInputRounds: 8,
  maxFrameBytes: 64 * 1024 * 1024,
  maxNameLength: 256,
});
