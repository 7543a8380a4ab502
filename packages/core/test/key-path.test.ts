import { describe, expect, it } from "vitest";
import { formatKeyPath } from "../src/index.js";

describe("key paths", () => {
  it("schema-errors/key-paths", () => {
    expect(formatKeyPath(["servers", "fs", "args", 0])).toBe("servers.fs.args[0]");
    expect(formatKeyPath(["servers", "my server", "env", "A_B"])).toBe('servers["my server"].env.A_B');
    expect(formatKeyPath(["auth", "token"], 'servers["my api"]')).toBe('servers["my api"].auth.token');
  });
});
