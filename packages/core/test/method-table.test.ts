/** The method-table helpers: who may send what, and the keys a client of another revision is not sent. */
import { describe, expect, it } from "vitest";
import { foreignKeys, type MethodTable, notificationOf, requestOf, withoutKeys } from "../src/index.js";

const legacy: MethodTable = {
  requests: { ping: { from: "both" }, "tools/call": { from: "client", names: "name" } },
  notifications: { "notifications/message": { from: "server" } },
  ownKeys: { result: [], meta: [] },
};
const modern: MethodTable = {
  requests: { "server/discover": { from: "client" } },
  notifications: {},
  ownKeys: { result: ["resultType", "ttlMs"], meta: ["serverInfo"] },
};

describe("method table", () => {
  it("revision-plugin/a-method-is-the-revisions-when-its-table-has-it-for-that-sender", () => {
    expect(requestOf(legacy, "ping", "server")).toEqual({ from: "both" });
    expect(requestOf(legacy, "tools/call", "server")).toBeUndefined();
    expect(requestOf(legacy, "tools/call", "client")?.names).toBe("name");
    expect(requestOf(legacy, "server/discover", "client")).toBeUndefined();
    expect(requestOf(legacy, "toString", "client")).toBeUndefined();
    expect(notificationOf(legacy, "notifications/message", "server")).toBeDefined();
    expect(notificationOf(legacy, "notifications/message", "client")).toBeUndefined();
  });

  it("revision-plugin/foreign-keys-are-the-other-revisions-own-less-ones-own", () => {
    expect(foreignKeys(legacy, [modern])).toEqual({ result: ["resultType", "ttlMs"], meta: ["serverInfo"] });
    expect(foreignKeys(modern, [legacy])).toEqual({ result: [], meta: [] });
    const foreign = foreignKeys(legacy, [modern]);
    const plain = { content: [] };
    // nothing foreign: the very object, nothing copied
    expect(withoutKeys(plain, foreign)).toBe(plain);
    expect(
      withoutKeys({ content: [], resultType: "complete", _meta: { serverInfo: {}, k: 1 } }, foreign),
    ).toEqual({
      content: [],
      _meta: { k: 1 },
    });
    // an emptied _meta goes
    expect(withoutKeys({ ttlMs: 0, _meta: { serverInfo: {} } }, foreign)).toEqual({});
  });
});
