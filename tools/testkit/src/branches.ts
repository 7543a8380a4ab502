import type { RevisionSchema } from "./revision-schema.js";
import { childNode, hasOwn, isRecord, jsonType, propertiesOf, type SchemaNode } from "./schema-node.js";

/**
 * The anyOf branches of `node` that describe `value`. First by what is cheap and decisive: the JSON type
 * and discriminating consts (`type: "text"`, `method: "tools/call"`). If several remain, by asking ajv
 * which of them accept the value. If none accepts it (the value may be invalid in this revision), all the
 * compatible branches are kept, so their keys still count.
 */
export function pickBranches(rs: RevisionSchema, node: SchemaNode, value: unknown): SchemaNode[] {
  const anyOf = node.schema.anyOf;
  if (!Array.isArray(anyOf)) return [];
  const branches: SchemaNode[] = [];
  anyOf.forEach((branch, i) => {
    const child = childNode(node, branch, "anyOf", String(i));
    if (child) branches.push(child);
  });
  const compatible = branches.filter((b) => fits(target(rs, b), value));
  if (compatible.length <= 1) return compatible;
  const accepted = compatible.filter((b) => accepts(rs, target(rs, b), value));
  return accepted.length > 0 ? accepted : compatible;
}

/** Follows `$ref`s to the schema that says something. */
function target(rs: RevisionSchema, node: SchemaNode): SchemaNode {
  let current = node;
  for (let hops = 0; hops < 16 && typeof current.schema.$ref === "string"; hops++) {
    const next = rs.resolve(current.schema.$ref);
    if (!next) break;
    current = next;
  }
  return current;
}

function fits(node: SchemaNode, value: unknown): boolean {
  const type = node.schema.type;
  const types = typeof type === "string" ? [type] : Array.isArray(type) ? type : undefined;
  const actual = jsonType(value);
  if (types && !types.includes(actual) && !(actual === "integer" && types.includes("number"))) return false;
  if (!isRecord(value)) return true;
  for (const [key, prop] of Object.entries(propertiesOf(node))) {
    if (isRecord(prop) && hasOwn(prop, "const") && hasOwn(value, key) && value[key] !== prop.const)
      return false;
  }
  return true;
}

function accepts(rs: RevisionSchema, node: SchemaNode, value: unknown): boolean {
  // A synthetic node has no place in the root for ajv to compile; it cannot be ruled out.
  if (node.ptr === undefined) return true;
  return rs.validatorAt(node.ptr)(value) === true;
}
