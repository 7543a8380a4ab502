import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import { schemaFileOf } from "./revisions.js";
import { isRecord, type SchemaNode, type SchemaObject } from "./schema-node.js";

/** One revision's schema.json, loaded once, with its ajv instance and a cache of compiled validators. */
export interface RevisionSchema {
  readonly revision: string;
  /** `definitions` (draft-07 revisions) or `$defs` (2020-12 revisions). */
  readonly defsKey: string;
  readonly defs: Readonly<Record<string, SchemaObject>>;
  /** The named definition as a node, or undefined when this revision does not have it. */
  def(name: string): SchemaNode | undefined;
  /** Follows a local `$ref` ("#/$defs/Tool") to its node. */
  resolve(ref: string): SchemaNode | undefined;
  /** The definition a local `$ref` names ("Tool"), when it points straight at one. */
  refName(ref: string): string | undefined;
  /** A compiled validator for the node at `ptr` (compiled on first use, then cached). */
  validatorAt(ptr: string): ValidateFunction;
}

// ajv-formats is CommonJS: under NodeNext its default import is `module.exports`, which is the plugin and
// also carries it as `.default`; only the latter is typed as callable.
const addFormats = ajvFormats.default;

const cache = new Map<string, RevisionSchema>();

/** The schema of a revision the testkit has a schema file for (see revisions.ts). */
export function revisionSchema(revision: string): RevisionSchema {
  let loaded = cache.get(revision);
  if (!loaded) {
    loaded = load(revision);
    cache.set(revision, loaded);
  }
  return loaded;
}

function load(revision: string): RevisionSchema {
  const file = schemaFileOf(revision);
  if (file === undefined) throw new Error(`the testkit has no schema for revision ${revision}`);
  const root: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (!isRecord(root)) throw new Error(`schema for ${revision} is not an object`);
  const defsKey = isRecord(root.$defs) ? "$defs" : "definitions";
  const rawDefs = root[defsKey];
  if (!isRecord(rawDefs)) throw new Error(`schema for ${revision} has no ${defsKey}`);
  mergeExtensions(revision, rawDefs);
  const defs: Record<string, SchemaObject> = {};
  for (const [name, schema] of Object.entries(rawDefs)) if (isRecord(schema)) defs[name] = schema;

  const options = { strict: false, allErrors: true, logger: false } as const;
  // 2025-11-25 onward are JSON Schema 2020-12; the older ones are draft-07.
  const ajv = defsKey === "$defs" ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv);
  const id = `mcp-${revision}.json`;
  ajv.addSchema(root, id);
  const validators = new Map<string, ValidateFunction>();
  const prefix = `#/${defsKey}/`;

  const def = (name: string): SchemaNode | undefined => {
    const schema = Object.hasOwn(defs, name) ? defs[name] : undefined;
    return schema ? { schema, ptr: `/${defsKey}/${escapePointer(name)}` } : undefined;
  };
  const refName = (ref: string): string | undefined =>
    ref.startsWith(prefix) && !ref.slice(prefix.length).includes("/")
      ? unescapePointer(ref.slice(prefix.length))
      : undefined;

  return {
    revision,
    defsKey,
    defs,
    def,
    refName,
    resolve(ref) {
      const name = refName(ref);
      return name === undefined ? undefined : def(name);
    },
    validatorAt(ptr) {
      let validate = validators.get(ptr);
      if (!validate) {
        validate = ajv.getSchema(`${id}#${ptr}`);
        if (!validate) throw new Error(`no schema at ${ptr} in ${revision}`);
        validators.set(ptr, validate);
      }
      return validate;
    },
  };
}

/**
 * The extensions mcpx relays, as schema fragments (schemas/extensions/*.json), merged into the
 * revisions whose wire carries them: those a fragment's `appliesTo` names or, without one, every
 * revision with extensions (its ServerCapabilities defines `extensions`). Their definitions join the
 * revision's and their client requests its ClientRequest union, so an extension's frames are checked
 * as strictly as the core's, and a revision without the extension still refuses them.
 */
const EXTENSIONS_DIR = fileURLToPath(new URL("../schemas/extensions/", import.meta.url));

function mergeExtensions(revision: string, defs: Record<string, unknown>): void {
  if (!existsSync(EXTENSIONS_DIR)) return;
  const caps = defs.ServerCapabilities;
  const hasExtensions = isRecord(caps) && isRecord(caps.properties) && "extensions" in caps.properties;
  for (const file of readdirSync(EXTENSIONS_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const ext: unknown = JSON.parse(readFileSync(path.join(EXTENSIONS_DIR, file), "utf8"));
    if (!isRecord(ext)) throw new Error(`extension schema ${file} is not an object`);
    const applies = Array.isArray(ext.appliesTo) ? ext.appliesTo.includes(revision) : hasExtensions;
    if (!applies) continue;
    if (!isRecord(ext.$defs)) throw new Error(`extension schema ${file} has no $defs`);
    for (const [name, schema] of Object.entries(ext.$defs)) {
      if (Object.hasOwn(defs, name)) throw new Error(`extension schema ${file} redefines ${name}`);
      defs[name] = schema;
    }
    const union = defs.ClientRequest;
    const members = isRecord(union) && Array.isArray(union.anyOf) ? union.anyOf : undefined;
    if (!members) throw new Error(`revision ${revision} has no ClientRequest union for ${file}`);
    const joined = Array.isArray(ext.clientRequests) ? ext.clientRequests : [];
    for (const name of joined) members.push({ $ref: `#/$defs/${String(name)}` });
  }
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}
