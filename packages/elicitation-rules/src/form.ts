/**
 * A form answer, as a person gives it: fields from the command line (`name=Ada`, typed by the
 * requested schema), defaults filled in for what was left out (never over what was given), and the
 * whole checked with ajv against the requested schema before it is sent (client/elicitation.mdx
 * "Form Mode Security": clients SHOULD validate all responses against the provided schema). Shared by
 * every handler: the broker (which checks every answer it is handed), the terminal (which checks each
 * field as it is typed) and the CLI (which checks before it sends one).
 */

import { createRequire } from "node:module";
import { InvalidParamsError, type JSONObject } from "@mcpx/core";
import { describeSchemaErrors } from "@mcpx/host";
import type { Ajv, ValidateFunction } from "ajv";
import type ajvFormats from "ajv-formats";

// Loaded with the first form answered, not with mcpx (both are CommonJS, so require loads them on
// demand): a daemon that never sees a form never holds them. ajv-formats' callable plugin is typed
// as its `.default`, which its module.exports also carries.
const require = createRequire(import.meta.url);

let ajv: Ajv | undefined;

/** The properties of a form's requested schema (flat primitives, per the elicitation page). */
export function formFields(schema: JSONObject | undefined): Record<string, JSONObject> {
  const props = schema?.properties;
  if (typeof props !== "object" || props === null || Array.isArray(props)) return {};
  return props as Record<string, JSONObject>;
}

export function requiredFields(schema: JSONObject | undefined): string[] {
  const required = schema?.required;
  return Array.isArray(required) ? required.filter((r): r is string => typeof r === "string") : [];
}

/** `key=value` pairs, each value typed by the field's schema (a string field keeps "123" a string). */
export function parseFields(pairs: readonly string[], schema: JSONObject | undefined): JSONObject {
  const fields = formFields(schema);
  const out: JSONObject = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new InvalidParamsError(`--field ${JSON.stringify(pair)} is not name=value`);
    const name = pair.slice(0, eq);
    out[name] = coerce(pair.slice(eq + 1), fields[name]);
  }
  return out;
}

function coerce(raw: string, prop: JSONObject | undefined): unknown {
  const type = prop?.type;
  switch (type) {
    case "string":
      return raw;
    case "number":
    case "integer": {
      const n = Number(raw);
      return raw.trim() === "" || Number.isNaN(n) ? raw : n;
    }
    case "boolean": {
      const v = raw.trim().toLowerCase();
      if (["true", "yes", "y", "1", "on"].includes(v)) return true;
      if (["false", "no", "n", "0", "off"].includes(v)) return false;
      return raw;
    }
    case "array":
      if (raw.trim().startsWith("[")) return parseJson(raw) ?? raw;
      return raw === "" ? [] : raw.split(",").map((s) => s.trim());
    default:
      return parseJson(raw) ?? raw;
  }
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** The answer with each missing field set to its schema default; a field the answerer set is kept. */
export function withDefaults(content: JSONObject, schema: JSONObject | undefined): JSONObject {
  const out: JSONObject = { ...content };
  for (const [key, prop] of Object.entries(formFields(schema))) {
    if (out[key] === undefined && "default" in prop) out[key] = prop.default;
  }
  return out;
}

/**
 * Problems with a form answer, one line each naming the field and the rule (`age: must be >= 18`);
 * empty when it may be sent. Defaults are applied first (a required field with a default is not
 * missing), and a field the form does not have is a problem.
 */
export function checkFormAnswer(content: JSONObject, schema: JSONObject | undefined): string[] {
  const fields = formFields(schema);
  const known = Object.keys(fields);
  const problems: string[] = [];
  for (const key of Object.keys(content)) {
    if (!(key in fields)) {
      problems.push(
        `${key}: is not a field of this form (${known.length ? `fields: ${known.join(", ")}` : "it has none"})`,
      );
    }
  }
  if (!schema) return problems;
  const problemsOfSchema = validate(withDefaults(content, schema), schema);
  return [...problems, ...problemsOfSchema];
}

/** Throws InvalidParamsError listing every problem; returns the content with defaults filled. */
export function acceptedContent(content: JSONObject, schema: JSONObject | undefined): JSONObject {
  const problems = checkFormAnswer(content, schema);
  if (problems.length > 0) {
    throw new InvalidParamsError(`the answer does not fit the form: ${problems.join("; ")}`, { problems });
  }
  return withDefaults(content, schema);
}

/** Problems with one field's value, as it is typed (empty when it fits). */
export function fieldProblems(key: string, schema: JSONObject, value: unknown): string[] {
  return validate({ [key]: value }, { type: "object", properties: { [key]: schema } });
}

/** Checks `value` against a form's schema. Each form's schema is compiled, used and dropped again. */
function validate(value: JSONObject, schema: JSONObject): string[] {
  if (!ajv) {
    ajv = new (require("ajv") as typeof import("ajv")).Ajv({ allErrors: true, strict: false, verbose: true });
    (require("ajv-formats") as typeof ajvFormats).default(ajv, ["email", "uri", "date", "date-time"]);
  }
  // The form's own schema, without a $schema or $id that would tie it to anything else.
  const { $schema: _s, $id: _i, ...body } = schema;
  let check: ValidateFunction;
  try {
    check = ajv.compile(body);
  } catch (err) {
    return [`(the requested schema): cannot be checked: ${(err as Error).message}`];
  }
  try {
    return check(value) ? [] : describeSchemaErrors(check.errors);
  } finally {
    // A daemon sees many forms: ajv's cache would keep every one.
    ajv.removeSchema(body);
  }
}
