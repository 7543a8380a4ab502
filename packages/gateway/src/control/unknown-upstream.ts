/** A control route named an upstream the daemon does not run: 404, naming the ones it does. */
import { ErrorCode } from "@mcpx/core";
import { HttpRefusal } from "../server/http/reply.js";

export class UnknownUpstreamError extends HttpRefusal {
  readonly upstream: string;
  constructor(upstream: string, known: readonly string[]) {
    const list = known.length > 0 ? known.join(", ") : "none configured";
    super(
      404,
      ErrorCode.InvalidParams,
      `no upstream named ${JSON.stringify(upstream)} (upstreams: ${list})`,
      {
        data: { upstream },
      },
    );
    this.name = "UnknownUpstreamError";
    this.upstream = upstream;
  }
}
