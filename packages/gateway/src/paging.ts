/**
 * Pages of the aggregated lists: mcpx's own opaque cursor (the offset, base64url) over the union,
 * so a downstream client pages through every upstream's items whatever the upstreams' cursors.
 */
import { InvalidParamsError, type JSONObject } from "@mcpx/core";

export function page(items: readonly JSONObject[], key: string, cursor: unknown, size: number): JSONObject {
  let start = 0;
  if (cursor !== undefined) {
    const n =
      typeof cursor === "string" ? Number(Buffer.from(cursor, "base64url").toString("utf8")) : Number.NaN;
    if (!Number.isInteger(n) || n < 0 || n > items.length) {
      throw new InvalidParamsError(`invalid cursor ${JSON.stringify(cursor)}`);
    }
    start = n;
  }
  const out: JSONObject = { [key]: items.slice(start, start + size) };
  if (start + size < items.length)
    out.nextCursor = Buffer.from(String(start + size), "utf8").toString("base64url");
  return out;
}
