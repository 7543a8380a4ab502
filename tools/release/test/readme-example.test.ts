/**
 * The "Use it on its own" example of packages/client/README.md is the code client-example-check.mjs
 * runs as it is: a user's code (package names, no internals), with a revision and a transport plugin,
 * and the output it promises.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { readmeExample } from "../src/readme-example.mjs";
import { REPO } from "../src/workspace.mjs";

describe("the client README's example", () => {
  it("release/client-readme-example-is-what-the-check-runs", () => {
    const { code, expected, imports } = readmeExample(
      readFileSync(path.join(REPO, "packages/client/README.md"), "utf8"),
    );
    expect(imports).toContain("@mcpx/client");
    expect(imports.some((i: string) => /^@mcpx\/revision-/.test(i))).toBe(true);
    expect(imports.some((i: string) => /^@mcpx\/transport-/.test(i))).toBe(true);
    for (const i of imports) expect(i).toMatch(/^@mcpx\/[a-z0-9-]+$/);
    expect(code).toContain("await client.callTool(");
    expect(expected).toBe("Echo: hello");
  });

  it("release/client-readme-example-missing-is-an-error", () => {
    expect(() => readmeExample("# @mcpx/client\n```js\nconsole.log(1);\n```\n")).toThrow(
      "no ```js block between <!-- client-example:start --> and <!-- client-example:end -->",
    );
  });
});
