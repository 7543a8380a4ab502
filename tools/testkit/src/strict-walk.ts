import { pickBranches } from "./branches.js";
import { joinPath } from "./paths.js";
import type { RevisionSchema } from "./revision-schema.js";
import {
  childNode,
  hasOwn,
  isRecord,
  propertiesOf,
  type SchemaNode,
  type SchemaObject,
} from "./schema-node.js";

/** One revision's view of the current position: the schema nodes that all apply to the value there. */
export interface Side {
  readonly rs: RevisionSchema;
  readonly nodes: readonly SchemaNode[];
}

/**
 * Keys whose values are JSON Schema documents. Their keys are JSON Schema keywords, which revisions list
 * selectively (2026-07-28's Tool.inputSchema declares `$schema` and `type`, older ones `properties` and
 * `required`), so comparing them across revisions says nothing about MCP. ajv still validates them.
 */
const SCHEMA_DOCUMENTS = new Set(["inputSchema", "outputSchema"]);

/** Definitions standing for any JSON value: what sits there belongs to the user, not to the protocol. */
const FREE_DEFINITIONS = new Set(["JSONValue", "JSONObject", "JSONArray"]);

/**
 * The strict rule: walks `value` with `here` (the revision in use) and the same position in every other
 * revision, and reports each object key that some other revision defines there but `here` does not.
 * Keys `here` does not declare are not descended into (tool arguments, free `_meta` keys, ...).
 */
const ENVELOPE_KEYS = new Set(["jsonrpc", "id"]);

export function strictWalk(
  value: unknown,
  here: Side,
  others: readonly Side[],
  path: string,
  errors: string[],
): void {
  const mine = expand(here.rs, here.nodes, value);
  // Nothing in this revision describes the value (`{}`, JSONValue, a free map's value): nothing to compare.
  if (mine.objects.length === 0) return;
  const theirs: Side[] = others.map((side) => {
    let found = expand(side.rs, side.nodes, value);
    // No counterpart by position (e.g. clientCapabilities inside a 2026-07-28 `_meta` has none in older
    // revisions): the definition of the same name is the same concept, so line up with that.
    if (found.objects.length === 0) found = expand(side.rs, byName(side.rs, mine.names), value);
    return { rs: side.rs, nodes: found.objects };
  });

  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      const next = (side: Side): Side => ({ rs: side.rs, nodes: itemNodes(side.nodes) });
      strictWalk(
        item,
        next({ rs: here.rs, nodes: mine.objects }),
        theirs.map(next),
        joinPath(path, i),
        errors,
      );
    });
    return;
  }
  if (!isRecord(value)) return;

  for (const [key, child] of Object.entries(value)) {
    // The envelope's keys are JSON-RPC's, not any one revision's (2026-07-28's ListRootsRequest
    // example carries an id although the type travels inside inputRequests without one).
    if (path === "" && ENVELOPE_KEYS.has(key)) continue;
    const childPath = joinPath(path, key);
    if (!mine.objects.some((n) => hasOwn(propertiesOf(n), key))) {
      const definers = theirs.filter((s) => s.nodes.some((n) => hasOwn(propertiesOf(n), key)));
      if (definers.length > 0) {
        const revisions = definers.map((s) => s.rs.revision).join(", ");
        errors.push(`${childPath}: key defined by ${revisions}, not by ${here.rs.revision}`);
        continue;
      }
    }
    if (SCHEMA_DOCUMENTS.has(key)) continue;
    const next = (side: Side): Side => ({ rs: side.rs, nodes: propertyNodes(side.nodes, key) });
    strictWalk(child, next({ rs: here.rs, nodes: mine.objects }), theirs.map(next), childPath, errors);
  }
}

interface Expanded {
  /** Nodes that describe an object or an array (an object with no properties declares no keys). */
  readonly objects: SchemaNode[];
  /** The definitions passed through on the way (`$ref` targets), for lining up by name. */
  readonly names: Set<string>;
}

/** Resolves `$ref`, takes every allOf part and the anyOf branches that match `value`. */
function expand(rs: RevisionSchema, nodes: readonly SchemaNode[], value: unknown): Expanded {
  const objects: SchemaNode[] = [];
  const names = new Set<string>();
  const seen = new Set<SchemaObject>();
  const visit = (node: SchemaNode): void => {
    const s = node.schema;
    if (seen.has(s)) return;
    seen.add(s);
    if (typeof s.$ref === "string") {
      const name = rs.refName(s.$ref);
      if (name !== undefined) names.add(name);
      if (name !== undefined && FREE_DEFINITIONS.has(name)) return;
      const target = rs.resolve(s.$ref);
      if (target) visit(target);
    }
    if (Array.isArray(s.allOf)) {
      s.allOf.forEach((part, i) => {
        const child = childNode(node, part, "allOf", String(i));
        if (child) visit(child);
      });
    }
    if (Array.isArray(s.anyOf)) for (const branch of pickBranches(rs, node, value)) visit(branch);
    if ("properties" in s || "additionalProperties" in s || "items" in s || s.type === "object")
      objects.push(node);
  };
  nodes.forEach(visit);
  return { objects, names };
}

function byName(rs: RevisionSchema, names: ReadonlySet<string>): SchemaNode[] {
  const nodes: SchemaNode[] = [];
  for (const name of names) {
    const node = rs.def(name);
    if (node) nodes.push(node);
  }
  return nodes;
}

/** The schema for `key` in each node: its declared property, else its additionalProperties schema. */
function propertyNodes(nodes: readonly SchemaNode[], key: string): SchemaNode[] {
  const out: SchemaNode[] = [];
  for (const node of nodes) {
    const props = propertiesOf(node);
    const child = hasOwn(props, key)
      ? childNode(node, props[key], "properties", key)
      : childNode(node, node.schema.additionalProperties, "additionalProperties");
    if (child) out.push(child);
  }
  return out;
}

function itemNodes(nodes: readonly SchemaNode[]): SchemaNode[] {
  const out: SchemaNode[] = [];
  for (const node of nodes) {
    const child = childNode(node, node.schema.items, "items");
    if (child) out.push(child);
  }
  return out;
}
