/**
 * The tasks extension (SEP-2663) through the gateway. A downstream request that declared the
 * extension has its tools/call go upstream declaring it too, so the upstream may answer with a
 * CreateTaskResult; mcpx hands the client that task under an id of its own (task-routes.ts). The
 * client's tasks/get, tasks/update and tasks/cancel go to the upstream that owns the task, under the
 * upstream's id, and tasks/get's answer comes back under mcpx's. A request that did not declare the
 * extension is never sent a task (the upstream is not told mcpx could take one) and its tasks/*
 * requests are refused with -32021 naming the extension.
 */
import { type FollowTaskOptions, followTask, type TaskPoller, type UpstreamClient } from "@mcpx/client";
import {
  declaresTasks,
  InvalidParamsError,
  isCreateTaskResult,
  type JSONObject,
  MissingRequiredClientCapabilityError,
  type Result,
  TASK_METHODS,
  TASKS_EXTENSION,
  TASKS_REQUIRED_DATA,
  type Task,
  UpstreamUnavailableError,
} from "@mcpx/core";
import type { CallContext } from "./server/peer.js";
import { TaskRoutes } from "./task-routes.js";

export class TaskRelay {
  readonly routes: TaskRoutes;
  readonly #client: (server: string) => UpstreamClient | undefined;

  constructor(client: (server: string) => UpstreamClient | undefined, routes = new TaskRoutes()) {
    this.#client = client;
    this.routes = routes;
  }

  /** Whether the method is one of the extension's requests. */
  static handles(method: string): boolean {
    return Object.hasOwn(TASK_METHODS, method);
  }

  /**
   * Whether this request may be answered with a task: it declared the extension, and its client
   * declares per request (a modern one) or is in-process (the CLI, which follows the task itself).
   */
  accepts(ctx: CallContext): boolean {
    const revision = ctx.peer.revision;
    return (revision === undefined || !revision.features.initialize) && declaresTasks(ctx.peer.capabilities);
  }

  /** An upstream's answer to a call: a CreateTaskResult gets mcpx's id for the task, routed to `server`. */
  created(server: string, result: Result, ctx: CallContext): Result {
    if (!isCreateTaskResult(result)) return result;
    const id = this.routes.add(server, result.taskId, ctx.peer.authContext, result.ttlMs);
    return { ...result, taskId: id };
  }

  /**
   * Follows a task this relay handed an in-process caller (the CLI) to its result: polled through
   * the relay, its input requests answered by the owning upstream connection's handlers (as that
   * connection answers an input_required round), cancelled when the caller's signal aborts.
   */
  follow(
    created: Task,
    ctx: CallContext,
    opts: Omit<FollowTaskOptions, "signal" | "answer"> = {},
  ): Promise<Result> {
    // The cancellation must go out after the caller's signal has aborted.
    // Without the caller's cancellation, which the spread would carry and the dispatcher prefers.
    const { cancellation: _callers, ...rest } = ctx;
    const cancelCtx: CallContext = { ...rest, signal: new AbortController().signal };
    const poller: TaskPoller = {
      get: (taskId) => this.handle("tasks/get", { taskId }, ctx),
      update: (taskId, inputResponses) => this.handle("tasks/update", { taskId, inputResponses }, ctx),
      cancel: (taskId) => this.handle("tasks/cancel", { taskId }, cancelCtx),
    };
    return followTask(poller, created, {
      ...opts,
      signal: ctx.signal,
      answer: (inputRequests) => {
        const route = this.routes.get(created.taskId, ctx.peer.authContext);
        const client = route ? this.#client(route.server) : undefined;
        if (!route || !client) {
          throw new UpstreamUnavailableError(
            route?.server ?? "",
            `the upstream of task ${created.taskId} is not connected`,
          );
        }
        return client.answerInputRequests(
          inputRequests,
          { method: "tools/call" },
          { signal: ctx.signal, context: ctx },
        );
      },
    });
  }

  /** tasks/get, tasks/update or tasks/cancel of a downstream client, relayed to the task's owner. */
  async handle(method: string, params: JSONObject, ctx: CallContext): Promise<Result> {
    if (!this.accepts(ctx)) {
      throw new MissingRequiredClientCapabilityError(
        `${method} needs the ${TASKS_EXTENSION} extension declared in the request's client capabilities`,
        TASKS_REQUIRED_DATA,
      );
    }
    const taskId = params.taskId;
    if (typeof taskId !== "string") throw new InvalidParamsError(`${method}: params.taskId must be a string`);
    const route = this.routes.get(taskId, ctx.peer.authContext);
    if (!route) {
      // tasks/update is acknowledged even for a task that is not one (SEP-2663 §Task Input Requests).
      if (method === "tasks/update") return {};
      throw new InvalidParamsError(`${method}: unknown taskId ${JSON.stringify(taskId)}`, { taskId });
    }
    const client = this.#client(route.server);
    if (!client) {
      throw new UpstreamUnavailableError(
        route.server,
        `upstream ${route.server}, which owns task ${taskId}, is not connected`,
        {
          upstream: route.server,
        },
      );
    }
    const upstream: JSONObject = { taskId: route.upstreamId };
    if (method === "tasks/update") upstream.inputResponses = params.inputResponses ?? {};
    // An upstream's own requestState (an earlier draft of the SEP) goes back to it as it came.
    if (typeof params.requestState === "string") upstream.requestState = params.requestState;
    const result = await client.request(method, upstream, {
      signal: ctx.signal,
      authContext: ctx.peer.authContext,
      context: ctx,
      tasks: true,
    });
    if (method !== "tasks/get") return {};
    return { ...result, taskId };
  }
}
