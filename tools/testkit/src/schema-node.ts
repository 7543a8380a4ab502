/** A JSON Schema object as it appears in a revision's schema.json; read, never trusted to have any shape. */
export type SchemaObject = { readonly [key: string]: unknown };

/**
 * One position in one revision's schema. `ptr` is the JSON pointer inside the revision's root when the
 * node sits there (it lets ajv compile the node to test an anyOf branch); synthetic nodes have none.
 */
export interface SchemaNode {
  readonly schema: SchemaObject;
  readonly ptr: string | undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function hasOwn(obj: object, key: string): boolean {
  return Object.hasOwn(obj, key);
}

/** The `properties` map of a node, or an empty one. */
export function propertiesOf(node: SchemaNode): Record<string, unknown> {
  const props = node.schema.properties;
  return isRecord(props) ? props : {};
}

/** A subschema of `node` reached by `segments`, keeping the pointer when there is one. */
export function childNode(node: SchemaNode, schema: unknown, ...segments: string[]): SchemaNode | undefined {
  if (!isRecord(schema)) return undefined;
  const ptr = node.ptr === undefined ? undefined : [node.ptr, ...segments.map(escapePointer)].join("/");
  return { schema, ptr };
}

/** `{}` (bar annotations) constrains nothing, so it has no keys to compare across revisions. */
export function isEmptySchema(schema: SchemaObject): boolean {
  return Object.keys(schema).every((k) => k === "description" || k === "title" || k === "$comment");
}

/** The JSON type of a value, in JSON Schema's vocabulary. */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
