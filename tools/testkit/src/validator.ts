import { methodCatalog } from "./catalog.js";
import { type CheckScope, checkFrame, type FrameContext, validate } from "./message-check.js";
import { type RevisionSchema, revisionSchema } from "./revision-schema.js";
import { INSTALLED, isRevision, REVISIONS } from "./revisions.js";
import { isRecord, propertiesOf, type SchemaNode } from "./schema-node.js";
import { strictWalk } from "./strict-walk.js";
import { assertOk, newFindings, toVerdict, type Verdict } from "./verdict.js";

/** Strict validation of what one side sends, against one revision (see README: schema + strict rule). */
export interface StrictValidator {
  /** The revision validated: the one asked for. */
  readonly revision: string;
  /** The revision whose schema checks it: itself, or the one given as `validateAs`. */
  readonly validatedAs: string;
  /** A frame a client sends: request, notification, a response to a server request (needs `forMethod`). */
  clientMessage(msg: unknown, ctx?: FrameContext): Verdict;
  /** A frame a server sends: request, notification, a result of a client request (needs `forMethod`). */
  serverMessage(msg: unknown, ctx?: FrameContext): Verdict;
  /** `value` against one named definition of the revision ("Tool", "CallToolResult", ...). */
  definition(name: string, value: unknown): Verdict;
  assertClientMessage(msg: unknown, ctx?: FrameContext): void;
  assertServerMessage(msg: unknown, ctx?: FrameContext): void;
  assertDefinition(name: string, value: unknown): void;
}

export interface ValidatorOptions {
  /**
   * Validate the revision as this one: for a revision derived from another (a third party's plugin
   * that copies a built-in revision under a date of its own), which has no schema of its own here.
   */
  readonly validateAs?: string;
}

const validators = new Map<string, StrictValidator>();

/**
 * The validator for `revision`, built once (its schemas compile lazily, once each, on first use).
 * Throws, saying why and what to do, for a revision the testkit has no schema for.
 */
export function validatorFor(revision: string, options: ValidatorOptions = {}): StrictValidator {
  const as = options.validateAs ?? revision;
  if (!isRevision(as)) throw new Error(noSchema(revision, options.validateAs));
  const key = `${revision} as ${as}`;
  let validator = validators.get(key);
  if (!validator) {
    validator = build(revision, as);
    validators.set(key, validator);
  }
  return validator;
}

/** Why a revision cannot be validated strictly, and what a test can do about it. */
function noSchema(revision: string, validateAs: string | undefined): string {
  const known = REVISIONS.join(", ");
  if (validateAs !== undefined) {
    return `cannot validate ${revision} as "${validateAs}": the testkit has no schema for "${validateAs}" (known: ${known})`;
  }
  const hint = `a revision derived from one of them is validated as that one: validatorFor("${revision}", { validateAs: "<its base>" })`;
  const installed = INSTALLED.some((r) => r.version === revision);
  return installed
    ? `MCP revision "${revision}" is installed, but the testkit has no schema for it (schemas/${revision}.json), so it cannot be validated strictly as itself (known: ${known}); ${hint}`
    : `unknown MCP revision "${revision}": no installed revision plugin provides it and the testkit has no schema for it (known: ${known}); ${hint}`;
}

function build(revision: string, as: string): StrictValidator {
  const label = as === revision ? revision : `${revision} (as ${as})`;
  const here = revisionSchema(as);
  const others = REVISIONS.filter((r) => r !== as).map(revisionSchema);
  const client: CheckScope = { here, others, sender: "client" };
  const server: CheckScope = { here, others, sender: "server" };
  const frame = (scope: CheckScope, msg: unknown, ctx: FrameContext = {}): Verdict => {
    const findings = newFindings();
    checkFrame(scope, msg, ctx, findings);
    return toVerdict(findings);
  };
  const definition = (name: string, value: unknown): Verdict => {
    const findings = newFindings();
    const node = here.def(name);
    if (!node) {
      findings.notInRevision = true;
      findings.errors.push(`(root): definition ${name} is not in revision ${as}`);
      return toVerdict(findings);
    }
    validate(here, name, value, "", findings);
    const theirs = others.map((rs) => ({ rs, nodes: counterpart(rs, name, node) }));
    strictWalk(value, { rs: here, nodes: [node] }, theirs, "", findings.errors);
    return toVerdict(findings);
  };
  return {
    revision,
    validatedAs: as,
    clientMessage: (msg, ctx) => frame(client, msg, ctx),
    serverMessage: (msg, ctx) => frame(server, msg, ctx),
    definition,
    assertClientMessage: (msg, ctx) => assertOk(frame(client, msg, ctx), `${label} client message`),
    assertServerMessage: (msg, ctx) => assertOk(frame(server, msg, ctx), `${label} server message`),
    assertDefinition: (name, value) => assertOk(definition(name, value), `${label} ${name}`),
  };
}

/** The same definition in another revision: by name, else (a renamed request) by its method. */
function counterpart(rs: RevisionSchema, name: string, node: SchemaNode): SchemaNode[] {
  const same = rs.def(name);
  if (same) return [same];
  const method = propertiesOf(node).method;
  const byMethod =
    isRecord(method) && typeof method.const === "string"
      ? methodCatalog(rs).anyDefinition(method.const)
      : undefined;
  const found = byMethod === undefined ? undefined : rs.def(byMethod);
  return found ? [found] : [];
}

export interface ClientFramesOptions extends ValidatorOptions {
  /**
   * The requests the server sent, so that a client's response can be checked against the result its
   * request calls for (matched by id). Without them a response is checked against ClientResult.
   */
  readonly serverRequests?: readonly unknown[];
}

/**
 * Every failure among the frames a client sent, each line headed by the frame's index and method:
 * `frames[2] tools/call: params.task: key defined by 2025-11-25, not by 2025-06-18`. Empty when all pass.
 */
export function checkClientFrames(
  revision: string,
  frames: readonly unknown[],
  options: ClientFramesOptions = {},
): string[] {
  const validator = validatorFor(revision, options);
  const methodById = new Map<unknown, string>();
  for (const req of options.serverRequests ?? []) {
    if (isRecord(req) && typeof req.method === "string" && "id" in req) methodById.set(req.id, req.method);
  }
  const failures: string[] = [];
  frames.forEach((frame, i) => {
    const forMethod = isRecord(frame) && !("method" in frame) ? methodById.get(frame.id) : undefined;
    const verdict = validator.clientMessage(frame, forMethod === undefined ? {} : { forMethod });
    if (verdict.ok) return;
    const label =
      isRecord(frame) && typeof frame.method === "string" ? frame.method : (forMethod ?? "response");
    for (const error of verdict.errors) failures.push(`frames[${i}] ${label}: ${error}`);
  });
  return failures;
}
