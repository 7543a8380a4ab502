import { describe, expect, it } from "vitest";
import { withKey } from "../src/index.js";

describe("withKey", () => {
  it("objects/with-key-is-spread", () => {
    const source = JSON.parse('{"name":"echo","arguments":{"a":1}}');
    const out = withKey(source, "_meta", { progressToken: 1 });
    expect(out).toEqual({ ...source, _meta: { progressToken: 1 } });
    expect(source).toEqual({ name: "echo", arguments: { a: 1 } }); // a copy: the source is untouched
    // a key the source has is replaced, as the spread's last key would be
    expect(withKey(source, "name", "other")).toEqual({ name: "other", arguments: { a: 1 } });
    // no source: just the key
    expect(withKey(undefined as { a?: number } | undefined, "a", 2)).toEqual({ a: 2 });
    // undefined stays as the spread keeps it (JSON.stringify drops it either way)
    expect(JSON.stringify(withKey(source, "x", undefined))).toBe(JSON.stringify(source));
  });

  it("objects/with-key-keeps-hostile-keys-as-data", () => {
    // JSON.parse makes "__proto__" an own key; copying must not turn it into the copy's prototype.
    const hostile = JSON.parse('{"__proto__":{"polluted":true},"ok":1}');
    const out = withKey(hostile, "k", 1) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.polluted).toBeUndefined();
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(JSON.parse(JSON.stringify(out))).toEqual(
      JSON.parse('{"k":1,"__proto__":{"polluted":true},"ok":1}'),
    );
  });
});
