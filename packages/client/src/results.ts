/**
 * resultType, in every revision: absent is complete (legacy servers send none), complete and
 * input_required are understood, and "task" (a CreateTaskResult) where the request declared the
 * tasks extension; anything else is an InvalidResultError and never reaches a caller as if it were
 * a finished answer.
 */
import { InvalidResultError, type Result } from "@mcpx/core";

export type ResultKind = "complete" | "input_required" | "task";

/** @param tasks whether the request declared the tasks extension (only then is "task" an answer). */
export function resultKind(method: string, result: Result, tasks = false): ResultKind {
  const t = result.resultType;
  if (t === undefined || t === "complete") return "complete";
  if (t === "input_required") return "input_required";
  if (t === "task" && tasks) {
    if (typeof result.taskId !== "string" || result.taskId === "") {
      throw new InvalidResultError(`${method} returned a CreateTaskResult without a taskId`, {
        resultType: t,
      });
    }
    return "task";
  }
  throw new InvalidResultError(`${method} returned a result of unknown resultType ${JSON.stringify(t)}`, {
    resultType: t,
  });
}
