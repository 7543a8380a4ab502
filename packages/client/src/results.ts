/**
 * resultType, in every revision: absent is complete (legacy servers send none), complete and
 * input_required are understood, anything else is an InvalidResultError and never reaches a caller
 * as if it were a finished answer.
 */
import { InvalidResultError, type Result } from "@mcpx/core";

export type ResultKind = "complete" | "input_required";

export function resultKind(method: string, result: Result): ResultKind {
  const t = result.resultType;
  if (t === undefined || t === "complete") return "complete";
  if (t === "input_required") return "input_required";
  throw new InvalidResultError(`${method} returned a result of unknown resultType ${JSON.stringify(t)}`, {
    resultType: t,
  });
}
