/**
 * The fields of a form-mode question, read from its requested schema: flat primitives only, per the
 * elicitation page (spec 2025-11-25 and 2026-07-28, client/elicitation.mdx "Requested Schema"):
 * string (with format and length), number and integer (with bounds), boolean, single-select enum
 * (`enum`, titled by `oneOf` consts or 2025-06-18's `enumNames`) and multi-select enum (an array of
 * them). What a person types is read into the field's type here; whether it fits is schema.ts's.
 */
import { type JSONObject, oneLine } from "@mcpx/core";

export interface Choice {
  value: unknown;
  title: string;
}

export type FieldKind = "string" | "number" | "integer" | "boolean" | "choice" | "choices" | "json";

export interface Field {
  key: string;
  /** Its title, else its key, shown safely. */
  label: string;
  description: string | undefined;
  required: boolean;
  kind: FieldKind;
  /** The options of a choice (one) or of choices (several). */
  choices: Choice[];
  /** The property's own schema, which the answer is checked against. */
  schema: JSONObject;
  /** The schema's default, when it has one: taken on Enter. */
  default?: unknown;
}

/** The form's fields, in the order the schema lists them. */
export function formFields(requested: JSONObject | undefined): Field[] {
  const props = requested?.properties;
  if (typeof props !== "object" || props === null || Array.isArray(props)) return [];
  const required = Array.isArray(requested?.required) ? (requested.required as unknown[]) : [];
  return Object.entries(props as Record<string, unknown>).map(([key, raw]) => {
    const schema = (typeof raw === "object" && raw !== null ? raw : {}) as JSONObject;
    const choices = choicesOf(schema);
    const field: Field = {
      key,
      label: typeof schema.title === "string" && oneLine(schema.title) ? oneLine(schema.title) : oneLine(key),
      description: typeof schema.description === "string" ? oneLine(schema.description) : undefined,
      required: required.includes(key),
      kind: kindOf(schema, choices),
      choices,
      schema,
    };
    if ("default" in schema) field.default = schema.default;
    return field;
  });
}

function kindOf(schema: JSONObject, choices: Choice[]): FieldKind {
  if (schema.type === "array") return choices.length > 0 ? "choices" : "json";
  if (choices.length > 0) return "choice";
  switch (schema.type) {
    case "string":
    case "number":
    case "integer":
    case "boolean":
      return schema.type;
    default:
      return "json";
  }
}

/** The options of an enum: its values, titled by `oneOf`/`anyOf` consts or by `enumNames`. */
function choicesOf(schema: JSONObject): Choice[] {
  const of = schema.type === "array" ? asObject(schema.items) : schema;
  if (!of) return [];
  if (Array.isArray(of.enum)) {
    const names = Array.isArray(of.enumNames) ? (of.enumNames as unknown[]) : [];
    return (of.enum as unknown[]).map((value, i) => ({
      value,
      title: typeof names[i] === "string" ? oneLine(names[i] as string) : oneLine(String(value)),
    }));
  }
  const branches = Array.isArray(of.oneOf) ? of.oneOf : Array.isArray(of.anyOf) ? of.anyOf : undefined;
  if (!branches) return [];
  const out: Choice[] = [];
  for (const branch of branches as unknown[]) {
    const b = asObject(branch);
    if (!b || !("const" in b)) return [];
    out.push({ value: b.const, title: oneLine(typeof b.title === "string" ? b.title : String(b.const)) });
  }
  return out;
}

function asObject(value: unknown): JSONObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as JSONObject)
    : undefined;
}

/** What the prompt says about the field: its type and bounds, and whether it is required. */
export function hint(field: Field): string {
  const s = field.schema;
  const parts: string[] = [];
  switch (field.kind) {
    case "string": {
      parts.push(typeof s.format === "string" ? oneLine(s.format) : "text");
      const min = typeof s.minLength === "number" ? s.minLength : undefined;
      const max = typeof s.maxLength === "number" ? s.maxLength : undefined;
      if (min !== undefined && max !== undefined) parts.push(`${min} to ${max} characters`);
      else if (min !== undefined) parts.push(`at least ${min} character${min === 1 ? "" : "s"}`);
      else if (max !== undefined) parts.push(`at most ${max} characters`);
      break;
    }
    case "number":
    case "integer": {
      parts.push(field.kind === "integer" ? "whole number" : "number");
      const min = typeof s.minimum === "number" ? s.minimum : undefined;
      const max = typeof s.maximum === "number" ? s.maximum : undefined;
      if (min !== undefined && max !== undefined) parts.push(`${min} to ${max}`);
      else if (min !== undefined) parts.push(`${min} or more`);
      else if (max !== undefined) parts.push(`${max} or less`);
      break;
    }
    case "boolean":
      parts.push("y/n");
      break;
    case "choice":
      parts.push(`1-${field.choices.length}`);
      break;
    case "choices":
      parts.push(`one or more of 1-${field.choices.length}, separated by commas`);
      break;
    default:
      parts.push("JSON");
  }
  if (field.required) parts.push("required");
  return parts.join(", ");
}

/** A value as the prompt shows it (a default, an answer to review). */
export function shown(field: Field, value: unknown): string {
  if (field.kind === "boolean" && typeof value === "boolean") return value ? "yes" : "no";
  if (field.kind === "choice") return titleOf(field, value);
  if (field.kind === "choices" && Array.isArray(value)) return value.map((v) => titleOf(field, v)).join(", ");
  if (typeof value === "string") return oneLine(value);
  return oneLine(JSON.stringify(value) ?? String(value));
}

function titleOf(field: Field, value: unknown): string {
  const choice = field.choices.find((c) => c.value === value);
  return choice ? choice.title : oneLine(JSON.stringify(value) ?? String(value));
}

export type Reading = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * What a person typed, read as the field's type. Not empty (the caller deals with Enter: the default,
 * or nothing). Whether the value then fits the field's schema is checked against the schema itself.
 */
export function readAnswer(field: Field, typed: string): Reading {
  const text = typed.trim();
  switch (field.kind) {
    case "string":
      return { ok: true, value: typed };
    case "number":
    case "integer": {
      const n = Number(text);
      if (!Number.isFinite(n)) return { ok: false, problem: `must be a ${hint(field).split(",")[0]}` };
      return { ok: true, value: n };
    }
    case "boolean": {
      const v = text.toLowerCase();
      if (["y", "yes", "true", "1", "on"].includes(v)) return { ok: true, value: true };
      if (["n", "no", "false", "0", "off"].includes(v)) return { ok: true, value: false };
      return { ok: false, problem: "answer y or n" };
    }
    case "choice": {
      const choice = pick(field, text);
      return choice ? { ok: true, value: choice.value } : { ok: false, problem: notAChoice(field) };
    }
    case "choices": {
      const values: unknown[] = [];
      for (const part of text.split(",")) {
        const token = part.trim();
        if (token === "") continue;
        const choice = pick(field, token);
        if (!choice) return { ok: false, problem: `${JSON.stringify(token)}: ${notAChoice(field)}` };
        if (!values.includes(choice.value)) values.push(choice.value);
      }
      return { ok: true, value: values };
    }
    default:
      try {
        return { ok: true, value: JSON.parse(text) as unknown };
      } catch {
        return { ok: true, value: typed };
      }
  }
}

/** A choice by its number in the list, its value, or its title (case aside). */
function pick(field: Field, token: string): Choice | undefined {
  if (/^\d+$/.test(token)) {
    const byNumber = field.choices[Number(token) - 1];
    if (byNumber) return byNumber;
  }
  return (
    field.choices.find((c) => String(c.value) === token) ??
    field.choices.find((c) => c.title.toLowerCase() === token.toLowerCase())
  );
}

function notAChoice(field: Field): string {
  return `choose a number from 1 to ${field.choices.length}, or one of the names listed`;
}
