/**
 * Health and readiness for load balancers and orchestrators: GET /.mcpx/health (the process answers)
 * and GET /.mcpx/ready (200 while the readiness rule holds, 503 otherwise). A balancer carries no
 * bearer token and may probe from its own address, so these two need neither, unlike the rest of
 * /.mcpx/; they still take the Origin and Host checks (no web page reads them by DNS rebinding).
 * They answer upstream names and states only: never an error text, a URL, a command or any config.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ReadinessRule } from "@mcpx/config";
import { CONTROL_PREFIX, ErrorCode } from "@mcpx/core";
import type { Gateway } from "../gateway.js";
import type { UpstreamState } from "../pool.js";
import { HttpRefusal, refuse, sendJson } from "../server/http/reply.js";
import { Gatekeeper, type SecurityOptions } from "../server/http/security.js";

export interface HealthOptions extends Omit<SecurityOptions, "token"> {
  /** Read on every probe: a reload may change it. */
  rule: () => ReadinessRule;
}

export interface Readiness {
  ready: boolean;
  /** Every enabled upstream: its name, its status, and whether the rule requires it. */
  upstreams: { name: string; status: string; required: boolean }[];
}

/** Whether the rule holds over these upstream states. */
export function readiness(states: readonly UpstreamState[], rule: ReadinessRule): Readiness {
  const required = (name: string) => rule === "all" || (Array.isArray(rule) && rule.includes(name));
  const upstreams = states.map((s) => ({ name: s.name, status: s.status, required: required(s.name) }));
  const connected = (name: string) => states.some((s) => s.name === name && s.status === "connected");
  const ready =
    rule === "any"
      ? states.length === 0 || states.some((s) => s.status === "connected")
      : rule === "all"
        ? states.every((s) => s.status === "connected")
        : // A required name no upstream has (disabled by a reload) is not ready.
          rule.every(connected);
  return { ready, upstreams };
}

const HEALTH = `${CONTROL_PREFIX}health`;
const READY = `${CONTROL_PREFIX}ready`;

export function createHealthHandler(gateway: Gateway, options: HealthOptions) {
  const { rule, ...security } = options;
  const gate = new Gatekeeper(security);
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== HEALTH && path !== READY) return false;
    try {
      gate.check(req);
      if (req.method !== "GET" && req.method !== "HEAD") {
        throw new HttpRefusal(
          405,
          ErrorCode.InvalidRequest,
          `${req.method} is not allowed: ${path} is GET only`,
          {
            headers: { allow: "GET, HEAD" },
          },
        );
      }
      const headers = { "cache-control": "no-store" };
      if (path === HEALTH) {
        sendJson(res, 200, { status: "ok" }, headers);
        return true;
      }
      const answer = readiness(gateway.pool.states(), rule());
      sendJson(res, answer.ready ? 200 : 503, answer, headers);
    } catch (err) {
      if (err instanceof HttpRefusal) refuse(res, err);
      else throw err;
    }
    return true;
  };
}
