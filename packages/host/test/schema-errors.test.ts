import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { describeSchemaErrors } from "../src/index.js";

const check = (schema: object, data: unknown, verbose = true) => {
  const validate = new Ajv({ allErrors: true, verbose, allowUnionTypes: true }).compile(schema);
  validate(data);
  return describeSchemaErrors(validate.errors);
};

describe("schema errors", () => {
  const server = {
    type: "object",
    properties: { command: { type: "string" }, url: { type: "string" }, args: { type: "array" } },
    oneOf: [{ required: ["command"] }, { required: ["url"] }],
    dependencies: { args: ["command"] },
  };

  it("schema-errors/one-of-required-keys-named", () => {
    expect(check(server, {})).toEqual(['(root): must have exactly one of "command" or "url"']);
    expect(check(server, { command: "a", url: "b" })).toEqual([
      '(root): must have exactly one of "command" or "url"',
    ]);
    // Without verbose the branches are unknown: ajv's own words, but still one line.
    expect(check(server, {}, false)).toEqual(["(root): must match exactly one schema in oneOf"]);
  });

  it("schema-errors/union-types-read-as-words", () => {
    expect(check({ type: ["string", "array"] }, 1)).toEqual(["(root): must be string or array"]);
    expect(check({ oneOf: [{ type: "string" }, { type: "integer" }] }, true)).toEqual([
      "(root): must be string or integer",
    ]);
  });

  it("schema-errors/wrong-type-only-type", () => {
    expect(check(server, [])).toEqual(["(root): must be object"]);
    expect(check({ type: "object", properties: { s: server } }, { s: "x" })).toEqual(["s: must be object"]);
  });

  it("schema-errors/dependency-names-both-keys", () => {
    expect(check(server, { url: "u", args: [] })).toEqual(['args: is only allowed with "command"']);
  });

  it("schema-errors/root-joins-key-paths", () => {
    const validate = new Ajv({ allErrors: true, verbose: true }).compile({
      type: "object",
      properties: {
        token: { type: "string" },
        env: { type: "object", additionalProperties: { type: "string" } },
      },
      additionalProperties: false,
    });
    validate({ token: 1, env: { "A B": 2 }, extra: true });
    expect(describeSchemaErrors(validate.errors, "servers.api.auth").sort()).toEqual([
      'servers.api.auth.env["A B"]: must be string',
      "servers.api.auth.extra: is not a known key",
      "servers.api.auth.token: must be string",
    ]);
    expect(describeSchemaErrors(validate.errors, 'servers["my api"].auth')).toContain(
      'servers["my api"].auth.token: must be string',
    );
  });
});
