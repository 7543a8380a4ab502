/**
 * A form-mode question on the terminal: one prompt per field of the requested schema (its default
 * shown, and taken on Enter; a required field insisted on; an answer that does not fit asked again,
 * saying why), then the whole answer shown for review before it is sent (the spec: clients MUST
 * "allow users to review and modify their responses before sending"). The person may send it, edit
 * it, decline, or cancel; Ctrl-C at any prompt cancels (dismissed without a choice).
 */
import { type ElicitResult, type JSONObject, oneLine } from "@mcpx/core";
import { checkFormAnswer, fieldProblems } from "@mcpx/elicitation-rules";
import { type Field, formFields, hint, readAnswer, shown } from "./fields.js";
import type { Prompter } from "./prompter.js";

export async function askForm(prompter: Prompter, requested: JSONObject | undefined): Promise<ElicitResult> {
  const fields = formFields(requested);
  let content: JSONObject = {};
  for (;;) {
    content = await askFields(prompter, fields, content);
    const problems = requested ? checkFormAnswer(content, requested) : [];
    if (problems.length > 0) {
      // Rules across fields (or a schema the prompts cannot express): said, then edited.
      for (const p of problems) prompter.say(`  ! ${oneLine(p)}`);
      continue;
    }
    if (fields.length > 0) prompter.say(`  Your answer: ${review(fields, content)}`);
    const choice = await confirm(prompter);
    if (choice === "edit") continue;
    if (choice === "accept") return { action: "accept", content };
    return { action: choice };
  }
}

/** Each field in turn; `previous` (an answer being edited) stands in for the defaults. */
async function askFields(prompter: Prompter, fields: Field[], previous: JSONObject): Promise<JSONObject> {
  const content: JSONObject = {};
  for (const field of fields) {
    const value = await askField(prompter, field, previous[field.key]);
    if (value !== undefined) content[field.key] = value;
  }
  return content;
}

async function askField(prompter: Prompter, field: Field, previous: unknown): Promise<unknown> {
  if (field.description) prompter.say(`  ${field.label}: ${field.description}`);
  if (field.choices.length > 0) {
    prompter.say(`    ${field.choices.map((c, i) => `${i + 1}) ${c.title}`).join("  ")}`);
  }
  const fallback = previous !== undefined ? previous : field.default;
  const offered = fallback !== undefined ? ` [${shown(field, fallback)}]` : "";
  const prompt = `  ${field.label} (${hint(field)})${offered}: `;
  for (;;) {
    const typed = await prompter.ask(prompt);
    let value: unknown;
    if (typed.trim() === "") {
      if (fallback !== undefined) value = fallback;
      else if (field.required) {
        prompter.say(`  ! ${oneLine(field.key)}: is required`);
        continue;
      } else return undefined;
    } else {
      const reading = readAnswer(field, typed);
      if (!reading.ok) {
        prompter.say(`  ! ${oneLine(field.key)}: ${reading.problem}`);
        continue;
      }
      value = reading.value;
    }
    const problems = fieldProblems(field.key, field.schema, value);
    if (problems.length === 0) return value;
    for (const p of problems) prompter.say(`  ! ${oneLine(p)}`);
  }
}

function review(fields: Field[], content: JSONObject): string {
  const parts = fields
    .filter((f) => content[f.key] !== undefined)
    .map((f) => `${f.label}: ${shown(f, content[f.key])}`);
  return parts.length ? parts.join(", ") : "(nothing)";
}

type Choice = "accept" | "edit" | "decline" | "cancel";

async function confirm(prompter: Prompter): Promise<Choice> {
  for (;;) {
    const typed = (await prompter.ask("  Send it? [Y]es, [n]o (cancel), [e]dit, [d]ecline: "))
      .trim()
      .toLowerCase();
    if (typed === "" || typed === "y" || typed === "yes") return "accept";
    if (typed === "n" || typed === "no" || typed === "cancel") return "cancel";
    if (typed === "e" || typed === "edit") return "edit";
    if (typed === "d" || typed === "decline") return "decline";
    prompter.say("  ! answer y (send), n (cancel), e (edit) or d (decline)");
  }
}
