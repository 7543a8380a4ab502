/** The rules every elicitation handler applies: form answers against the requested schema, and URLs. */
import { describe, expect, it } from "vitest";
import {
  checkElicitationUrl,
  checkFormAnswer,
  fieldProblems,
  parseFields,
  withDefaults,
} from "../src/index.js";

const schema = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 2 },
    age: { type: "integer", minimum: 18, default: 36 },
    email: { type: "string", format: "email" },
    subscribe: { type: "boolean", default: true },
    colour: { type: "string", enum: ["red", "green"] },
  },
  required: ["name", "age"],
};

describe("form answers", () => {
  it("elicitation-rules/fields-typed-by-the-schema", () => {
    expect(parseFields(["name=123", "age=40", "subscribe=no", "x=[1]"], schema)).toEqual({
      name: "123",
      age: 40,
      subscribe: false,
      x: [1],
    });
    expect(() => parseFields(["name"], schema)).toThrow(/not name=value/);
  });

  it("elicitation-rules/problems-name-the-field-and-the-rule-defaults-count", () => {
    expect(checkFormAnswer({ name: "Ada" }, schema)).toEqual([]);
    expect(withDefaults({ name: "Ada", subscribe: false }, schema)).toEqual({
      name: "Ada",
      age: 36,
      subscribe: false,
    });
    expect(checkFormAnswer({ age: "x", email: "nope", colour: "blue", bogus: 1 }, schema)).toEqual([
      "bogus: is not a field of this form (fields: name, age, email, subscribe, colour)",
      "name: is required",
      "age: must be integer",
      'email: must match format "email"',
      'colour: must be one of "red", "green"',
    ]);
    expect(checkFormAnswer({ name: "A", age: 12 }, schema)).toEqual([
      "name: must NOT have fewer than 2 characters",
      "age: must be >= 18",
    ]);
  });
});

describe("URLs", () => {
  it("elicitation-rules/urls-https-anywhere-http-only-to-loopback", () => {
    expect(checkElicitationUrl("https://example.com/a?b=1")).toEqual({
      ok: true,
      url: "https://example.com/a?b=1",
      host: "example.com",
    });
    for (const ok of ["http://127.0.0.1:8080/x", "http://localhost/x", "http://[::1]:9/x"]) {
      expect(checkElicitationUrl(ok).ok).toBe(true);
    }
    for (const bad of [
      "http://example.com/x",
      "http://10.0.0.1/x",
      "javascript:alert(1)",
      "file:///etc/passwd",
      "data:text/html,hi",
      "not a url",
      "https://user:pw@example.com/",
      "http://127.0.0.1.evil.example/",
    ]) {
      expect(checkElicitationUrl(bad).ok, bad).toBe(false);
    }
  });
});

describe("one field as it is typed", () => {
  it("elicitation-rules/one-field-checked-alone", () => {
    expect(fieldProblems("age", schema.properties.age, 40)).toEqual([]);
    expect(fieldProblems("age", schema.properties.age, 12)).toEqual(["age: must be >= 18"]);
    expect(fieldProblems("email", schema.properties.email, "nope")).toEqual([
      'email: must match format "email"',
    ]);
  });
});
