/**
 * A form generated from a JSON Schema object (an elicitation's requestedSchema, a tool's
 * inputSchema): one labelled field per property, its default filled in, an enum as a choice,
 * required and range rules as the browser's own validation. Values are typed on submit; an empty
 * optional field is left out. Anything nested is a JSON text field.
 */
import { useState } from "preact/hooks";
import type { JsonSchema } from "./api";

type Values = Record<string, unknown>;

interface Choice {
  value: unknown;
  label: string;
}

function choices(s: JsonSchema): Choice[] | undefined {
  if (s.enum) return s.enum.map((v, i) => ({ value: v, label: s.enumNames?.[i] ?? String(v) }));
  const alts = s.oneOf ?? s.anyOf;
  if (alts?.every((a) => "const" in a))
    return alts.map((a) => ({ value: a.const, label: a.title ?? String(a.const) }));
  return undefined;
}

function typeOf(s: JsonSchema): string {
  const t = Array.isArray(s.type) ? s.type.find((x) => x !== "null") : s.type;
  return t ?? (s.properties ? "object" : "string");
}

function initial(schema: JsonSchema): Values {
  const values: Values = {};
  for (const [key, s] of Object.entries(schema.properties ?? {})) {
    const t = typeOf(s);
    const choiceArray = t === "array" && s.items !== undefined && choices(s.items) !== undefined;
    if (s.default !== undefined) {
      values[key] = t === "object" || (t === "array" && !choiceArray) ? JSON.stringify(s.default) : s.default;
    } else if (t === "boolean") values[key] = false;
    else if (choiceArray) values[key] = [];
    else values[key] = "";
  }
  return values;
}

/** The form's values as the schema's types; throws naming the field when a JSON field is not JSON. */
function typed(schema: JsonSchema, values: Values): Values {
  const out: Values = {};
  const required = new Set(schema.required ?? []);
  for (const [key, s] of Object.entries(schema.properties ?? {})) {
    const v = values[key];
    const t = typeOf(s);
    if (v === "" || v === undefined) {
      if (required.has(key) && t === "string") out[key] = "";
      continue;
    }
    if (t === "number" || t === "integer") out[key] = Number(v);
    else if (t === "boolean") out[key] = Boolean(v);
    else if (t === "array" && Array.isArray(v)) out[key] = v;
    else if (t === "object" || t === "array") {
      try {
        out[key] = JSON.parse(String(v));
      } catch {
        throw new Error(`${key}: not valid JSON`);
      }
    } else {
      const c = choices(s);
      out[key] = c ? (c.find((x) => String(x.value) === String(v))?.value ?? v) : v;
    }
  }
  return out;
}

const INPUT_TYPES: Record<string, "email" | "url" | "date" | "datetime-local"> = {
  email: "email",
  uri: "url",
  date: "date",
  "date-time": "datetime-local",
};

export function SchemaForm(props: {
  schema: JsonSchema;
  idPrefix: string;
  submitLabel: string;
  onSubmit: (values: Values) => void | Promise<void>;
  busy?: boolean;
  children?: preact.ComponentChildren;
}) {
  const { schema, idPrefix } = props;
  const [values, setValues] = useState<Values>(() => initial(schema));
  const [error, setError] = useState<string>();
  const required = new Set(schema.required ?? []);
  const set = (key: string, v: unknown) => setValues((old) => ({ ...old, [key]: v }));

  const submit = (e: Event) => {
    e.preventDefault();
    try {
      setError(undefined);
      void props.onSubmit(typed(schema, values));
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <form class="schema-form" onSubmit={submit}>
      {Object.entries(schema.properties ?? {}).map(([key, s]) => {
        const id = `${idPrefix}-${key}`;
        const t = typeOf(s);
        const c = choices(s);
        const itemChoices = t === "array" && s.items ? choices(s.items) : undefined;
        const label = (
          <label for={id}>
            {s.title ?? key}
            {required.has(key) ? <span aria-hidden="true"> *</span> : null}
          </label>
        );
        const hint = s.description ? (
          <small id={`${id}-hint`} class="hint">
            {s.description}
          </small>
        ) : null;
        const described = s.description ? `${id}-hint` : undefined;
        let field: preact.JSX.Element;
        if (t === "boolean") {
          return (
            <div class="field check" key={key}>
              <input
                id={id}
                type="checkbox"
                checked={Boolean(values[key])}
                aria-describedby={described}
                onChange={(e) => set(key, (e.currentTarget as HTMLInputElement).checked)}
              />
              {label}
              {hint}
            </div>
          );
        }
        if (itemChoices) {
          const chosen = (values[key] as unknown[]) ?? [];
          return (
            <fieldset class="field" key={key} aria-describedby={described}>
              <legend>{s.title ?? key}</legend>
              {itemChoices.map((ch, i) => (
                <label class="check" key={String(ch.value)} for={`${id}-${i}`}>
                  <input
                    id={`${id}-${i}`}
                    type="checkbox"
                    checked={chosen.includes(ch.value)}
                    onChange={(e) =>
                      set(
                        key,
                        (e.currentTarget as HTMLInputElement).checked
                          ? [...chosen, ch.value]
                          : chosen.filter((x) => x !== ch.value),
                      )
                    }
                  />
                  {ch.label}
                </label>
              ))}
              {hint}
            </fieldset>
          );
        }
        if (c) {
          field = (
            <select
              id={id}
              required={required.has(key)}
              value={String(values[key] ?? "")}
              aria-describedby={described}
              onChange={(e) => set(key, (e.currentTarget as HTMLSelectElement).value)}
            >
              {required.has(key) && values[key] !== "" ? null : <option value="">—</option>}
              {c.map((ch) => (
                <option key={String(ch.value)} value={String(ch.value)}>
                  {ch.label}
                </option>
              ))}
            </select>
          );
        } else if (t === "object" || t === "array") {
          field = (
            <textarea
              id={id}
              rows={3}
              required={required.has(key)}
              value={String(values[key] ?? "")}
              placeholder={t === "array" ? "[ … ] (JSON)" : "{ … } (JSON)"}
              aria-describedby={described}
              onInput={(e) => set(key, (e.currentTarget as HTMLTextAreaElement).value)}
            />
          );
        } else {
          const numeric = t === "number" || t === "integer";
          field = (
            <input
              id={id}
              // Preact's types tie each input type to its own attributes; these all take the ones used here.
              type={(numeric ? "number" : (INPUT_TYPES[s.format ?? ""] ?? "text")) as "text"}
              step={t === "integer" ? 1 : numeric ? "any" : undefined}
              min={s.minimum}
              max={s.maximum}
              minLength={s.minLength}
              maxLength={s.maxLength}
              pattern={s.pattern}
              required={required.has(key)}
              value={String(values[key] ?? "")}
              aria-describedby={described}
              onInput={(e) => set(key, (e.currentTarget as HTMLInputElement).value)}
            />
          );
        }
        return (
          <div class="field" key={key}>
            {label}
            {field}
            {hint}
          </div>
        );
      })}
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      <div class="actions">
        <button type="submit" disabled={props.busy}>
          {props.submitLabel}
        </button>
        {props.children}
      </div>
    </form>
  );
}
