import { type MethodKind, methodCatalog, type Sender } from "./catalog.js";
import { describeAjvErrors, displayPath, joinPath } from "./paths.js";
import type { RevisionSchema } from "./revision-schema.js";
import { isRecord, type SchemaNode } from "./schema-node.js";
import { errorEnvelope, hasBatches, messageNodes, resultEnvelope, resultNodes } from "./shapes.js";
import { type Side, strictWalk } from "./strict-walk.js";
import type { Findings } from "./verdict.js";

export interface FrameContext {
  /** For a result: the method of the request it answers (results do not say what they answer). */
  readonly forMethod?: string;
}

/** Everything a check needs: the revision in use, the others to compare with, and who sent the frame. */
export interface CheckScope {
  readonly here: RevisionSchema;
  readonly others: readonly RevisionSchema[];
  readonly sender: Sender;
}

/** Checks one frame (a message, or a batch where the revision has batches) into `out`. */
export function checkFrame(scope: CheckScope, frame: unknown, ctx: FrameContext, out: Findings): void {
  if (!Array.isArray(frame)) {
    checkMessage(scope, frame, ctx, "", out);
    return;
  }
  if (!hasBatches(scope.here)) {
    out.notInRevision = true;
    out.errors.push(`(root): JSON-RPC batches are not in revision ${scope.here.revision}`);
    return;
  }
  if (frame.length === 0) out.errors.push("(root): a batch must not be empty");
  frame.forEach((msg, i) => {
    checkMessage(scope, msg, ctx, joinPath("", i), out);
  });
}

function checkMessage(scope: CheckScope, msg: unknown, ctx: FrameContext, root: string, out: Findings): void {
  if (!isRecord(msg)) {
    out.errors.push(`${displayPath(root)}: a JSON-RPC message must be an object`);
  } else if (typeof msg.method === "string") {
    checkMethodMessage(scope, msg, msg.method, "id" in msg ? "request" : "notification", root, out);
  } else if ("result" in msg) {
    checkResult(scope, msg, ctx.forMethod, root, out);
  } else if ("error" in msg) {
    const name = errorEnvelope(scope.here);
    validate(scope.here, name, msg, root, out);
    const side = (rs: RevisionSchema): Side => ({ rs, nodes: nodes(rs, [errorEnvelope(rs)]) });
    strictWalk(msg, side(scope.here), scope.others.map(side), root, out.errors);
  } else {
    out.errors.push(`${displayPath(root)}: not a JSON-RPC request, notification, result or error`);
  }
}

function checkMethodMessage(
  scope: CheckScope,
  msg: Record<string, unknown>,
  method: string,
  kind: MethodKind,
  root: string,
  out: Findings,
): void {
  const { here, sender } = scope;
  const definition = methodCatalog(here).lookup(sender, kind, method);
  if (definition === undefined) {
    out.notInRevision = true;
    out.errors.push(`${displayPath(root)}: ${notInRevision(here, method, sender, kind)}`);
    return;
  }
  validate(here, kind === "request" ? "JSONRPCRequest" : "JSONRPCNotification", msg, root, out);
  validate(here, definition, msg, root, out);
  const side = (rs: RevisionSchema, name: string | undefined): Side => ({
    rs,
    nodes: messageNodes(rs, kind, name),
  });
  const theirs = scope.others.map((rs) => {
    const catalog = methodCatalog(rs);
    return side(rs, catalog.lookup(sender, kind, method) ?? catalog.anyDefinition(method));
  });
  strictWalk(msg, side(here, definition), theirs, root, out.errors);
}

function checkResult(
  scope: CheckScope,
  msg: Record<string, unknown>,
  forMethod: string | undefined,
  root: string,
  out: Findings,
): void {
  const { here, sender } = scope;
  // A result answers a request the other side sent.
  const answered: Sender = sender === "client" ? "server" : "client";
  const union = answered === "client" ? "ServerResult" : "ClientResult";
  if (forMethod !== undefined && methodCatalog(here).lookup(answered, "request", forMethod) === undefined) {
    out.notInRevision = true;
    out.errors.push(`${displayPath(root)}: ${notInRevision(here, forMethod, answered, "request")}`);
    return;
  }
  const resultPath = joinPath(root, "result");
  const definitionIn = (rs: RevisionSchema): string | undefined => {
    if (forMethod === undefined) return rs.defs[union] ? union : undefined;
    const catalog = methodCatalog(rs);
    return catalog.anyDefinition(forMethod) ? catalog.resultDefinition(forMethod, msg.result) : undefined;
  };
  const definition = definitionIn(here) ?? "Result";
  validate(here, resultEnvelope(here), msg, root, out);
  validate(here, definition, msg.result, resultPath, out);
  const side = (rs: RevisionSchema, name: string | undefined): Side => ({ rs, nodes: resultNodes(rs, name) });
  const theirs = scope.others.map((rs) => side(rs, definitionIn(rs)));
  strictWalk(msg.result, side(here, definition), theirs, resultPath, out.errors);
}

/** Schema validation of `value` against one named definition; errors name the revision and definition. */
export function validate(
  rs: RevisionSchema,
  name: string,
  value: unknown,
  root: string,
  out: Findings,
): void {
  const node = rs.def(name);
  if (!node?.ptr) throw new Error(`${rs.revision} has no definition ${name}`);
  const check = rs.validatorAt(node.ptr);
  if (!check(value)) out.errors.push(...describeAjvErrors(check.errors, `${rs.revision} ${name}`, root));
}

function notInRevision(rs: RevisionSchema, method: string, sender: Sender, kind: MethodKind): string {
  const catalog = methodCatalog(rs);
  const elsewhere = (["client", "server"] as const).some((s) =>
    (["request", "notification"] as const).some((k) => catalog.lookup(s, k, method) !== undefined),
  );
  const as = elsewhere ? ` as a ${sender} ${kind}` : "";
  return `method ${method} is not in revision ${rs.revision}${as}`;
}

function nodes(rs: RevisionSchema, names: readonly string[]): SchemaNode[] {
  return names.flatMap((name) => rs.def(name) ?? []);
}
