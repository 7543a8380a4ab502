import { describe, expect, it } from "vitest";
import {
  authHeaderNameProblem,
  authHeaderValueProblem,
  envNameProblem,
  envValueProblem,
} from "../src/index.js";

describe("auth effect rules", () => {
  it("auth-effect/header-names", () => {
    expect(authHeaderNameProblem("Authorization")).toBeUndefined();
    expect(authHeaderNameProblem("X-Api-Key")).toBeUndefined();
    expect(authHeaderNameProblem("X Api")).toMatch(/^must be a header name/);
    expect(authHeaderNameProblem("")).toMatch(/^must be a header name/);
    expect(authHeaderNameProblem("host")).toBe("host is set by HTTP itself; credentials cannot go there");
    for (const name of ["Content-Length", "TRANSFER-ENCODING", "Connection"]) {
      expect(authHeaderNameProblem(name)).toMatch(/is set by HTTP itself/);
    }
    for (const name of ["MCP-Protocol-Version", "mcp-session-id", "Mcp-Method", "Mcp-Name", "mcp-param-x"]) {
      expect(authHeaderNameProblem(name)).toMatch(/is an MCP protocol header/);
    }
    expect(authHeaderNameProblem("Mcp-Names")).toBeUndefined();
  });

  it("auth-effect/header-values", () => {
    expect(authHeaderValueProblem("Bearer abc.def")).toBeUndefined();
    expect(authHeaderValueProblem("")).toBeUndefined();
    expect(authHeaderValueProblem("caf\u00e9")).toBeUndefined();
    for (const bad of ["a\r\nb", "a\nb", "a\u0000", " a", "a\t", "\u20ac"]) {
      expect(authHeaderValueProblem(bad)).toMatch(/^must be a header value/);
    }
  });

  it("auth-effect/env", () => {
    expect(envNameProblem("API_KEY")).toBeUndefined();
    expect(envNameProblem("")).toMatch(/^must be an environment variable name/);
    expect(envNameProblem("A=B")).toMatch(/^must be an environment variable name/);
    expect(envValueProblem("a b=c")).toBeUndefined();
    expect(envValueProblem("a\u0000")).toBe("must not contain a NUL character");
  });
});
