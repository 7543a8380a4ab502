/**
 * The upstream that mcpx fronts for the server leg of the official conformance suite: an MCP server
 * built with the official SDK (@modelcontextprotocol/server 2.4.0, over stdio) offering exactly the
 * fixtures the suite's server scenarios look for, under the names they look for (mcpx serves it with
 * `namespacing: false`). What the suite then checks is mcpx: its routing, its relaying of questions,
 * progress, log lines, subscriptions and list changes, and its own 2026-07-28 and legacy wires.
 *
 * The SDK serves either era on stdio (serveStdio finds it from the opening exchange). mcpx's probe
 * finds 2026-07-28, so the tools ask their questions as input_required results (multi round-trip);
 * on a 2025-era connection the same tools ask them as requests to the client.
 *
 *   node dist/fixture-server.js
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  completable,
  fromJsonSchema,
  type InputRequest,
  type InputRequiredResult,
  inputRequired,
  type JsonSchemaType,
  McpServer,
  PROTOCOL_VERSION_META_KEY,
  ResourceTemplate,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { StdioServerTransport, serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";
import { skills } from "./fixture-skills.js";
import { registerTasks, withTasks } from "./fixture-tasks.js";

/** A 1×1 red PNG and a minimal WAV, as the suite's scenarios describe them. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (t: string): CallToolResult => ({ content: [{ type: "text", text: t }] });
const noArgs = () => fromJsonSchema({ type: "object", properties: {} });

/** What lives across the per-connection server instances: the lists the trigger tools change. */
const state = { dynamicTool: false, dynamicPrompt: false };

// ---- requestState: integrity-protected (HMAC), bound to the tool, single process ----------------

const KEY = randomBytes(32);

function mintState(tool: string, step: number): string {
  const body = Buffer.from(JSON.stringify({ tool, step })).toString("base64url");
  return `${body}.${createHmac("sha256", KEY).update(body).digest("base64url")}`;
}

/** The step an echoed requestState names for this tool; throws -32602 when it fails verification. */
function verifyState(raw: unknown, tool: string): number {
  const [body, mac] = typeof raw === "string" ? raw.split(".") : [];
  const expected = body ? createHmac("sha256", KEY).update(body).digest() : undefined;
  const given = mac ? Buffer.from(mac, "base64url") : undefined;
  if (!body || !expected || !given || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw invalidParams("requestState failed its integrity check");
  }
  const decoded = JSON.parse(Buffer.from(body, "base64url").toString()) as { tool: string; step: number };
  if (decoded.tool !== tool) throw invalidParams("requestState was minted for another tool");
  return decoded.step;
}

function invalidParams(message: string): Error {
  return Object.assign(new Error(message), { code: -32602 });
}

// ---- questions for the client, in either era -----------------------------------------------------

/** The reserved `io.modelcontextprotocol/*` keys of the request's _meta (2026-07-28). */
function envelope(ctx: ServerContext): Record<string, unknown> {
  return (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
}

/** Whether the request came on a 2026-07-28 connection (per-request _meta envelope). */
function modern(ctx: ServerContext): boolean {
  return envelope(ctx)[PROTOCOL_VERSION_META_KEY] !== undefined;
}

function clientCapabilities(ctx: ServerContext, server: McpServer): ClientCapabilities {
  return modern(ctx)
    ? ((envelope(ctx)[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? {})
    : (server.server.getClientCapabilities() ?? {});
}

/** The responses a retry carried, by key; an entry that is not an object is no answer. */
function responses(ctx: ServerContext): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(ctx.mcpReq.inputResponses ?? {})) {
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      out[key] = value as Record<string, unknown>;
  }
  return out;
}

/**
 * The answers to `questions`: on a modern connection from the retry's inputResponses (an
 * input_required result asking for whatever is still missing), on a legacy one by asking the client.
 */
async function ask(
  ctx: ServerContext,
  questions: Record<string, InputRequest>,
  requestState?: string,
): Promise<Record<string, Record<string, unknown>> | InputRequiredResult> {
  if (modern(ctx)) {
    const given = responses(ctx);
    const missing = Object.entries(questions).filter(([key]) => given[key] === undefined);
    if (missing.length === 0) return given;
    return inputRequired({
      inputRequests: Object.fromEntries(missing),
      ...(requestState === undefined ? {} : { requestState }),
    });
  }
  const out: Record<string, Record<string, unknown>> = {};
  for (const [key, q] of Object.entries(questions)) {
    out[key] = (await ctx.mcpReq.send({ method: q.method, params: q.params } as never)) as Record<
      string,
      unknown
    >;
  }
  return out;
}

const isInputRequired = (v: unknown): v is InputRequiredResult =>
  (v as { resultType?: unknown }).resultType === "input_required";

function samplingText(answer: Record<string, unknown> | undefined): string {
  const content = answer?.content as { text?: unknown } | Array<{ text?: unknown }> | undefined;
  const first = Array.isArray(content) ? content[0] : content;
  return typeof first?.text === "string" ? first.text : "(no text)";
}

const nameSchema = {
  type: "object" as const,
  properties: { name: { type: "string" as const } },
  required: ["name"],
};

// ---- the server ----------------------------------------------------------------------------------

export function fixtureServer(): McpServer {
  const server = new McpServer(
    { name: "mcpx-conformance-fixture", version: "1.0.0" },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        logging: {},
        completions: {},
      },
    },
  );
  tools(server);
  questionTools(server);
  statelessTools(server);
  resources(server);
  prompts(server);
  registerTasks(server);
  skills(server);
  return server;
}

function tools(server: McpServer): void {
  // First in the list: the suite's header scenarios call the first tool with no arguments.
  server.registerTool(
    "test_simple_text",
    { description: "Returns simple text content", inputSchema: noArgs() },
    async () => text("This is a simple text response for testing."),
  );
  server.registerTool(
    "test_image_content",
    { description: "Returns image content", inputSchema: noArgs() },
    async () => ({ content: [{ type: "image", data: PNG, mimeType: "image/png" }] }),
  );
  server.registerTool(
    "test_audio_content",
    { description: "Returns audio content", inputSchema: noArgs() },
    async () => ({ content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] }),
  );
  server.registerTool(
    "test_embedded_resource",
    { description: "Returns an embedded resource", inputSchema: noArgs() },
    async () => ({
      content: [
        {
          type: "resource",
          resource: {
            uri: "test://embedded-resource",
            mimeType: "text/plain",
            text: "This is an embedded resource content.",
          },
        },
      ],
    }),
  );
  server.registerTool(
    "test_multiple_content_types",
    { description: "Returns text, image and resource content", inputSchema: noArgs() },
    async () => ({
      content: [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: PNG, mimeType: "image/png" },
        {
          type: "resource",
          resource: {
            uri: "test://mixed-content-resource",
            mimeType: "application/json",
            text: JSON.stringify({ test: "data", value: 123 }),
          },
        },
      ],
    }),
  );
  server.registerTool(
    "test_tool_with_logging",
    { description: "Sends three info log lines while it runs", inputSchema: noArgs() },
    async (_args, ctx) => {
      await ctx.mcpReq.log("info", "Tool execution started", "fixture");
      await sleep(50);
      await ctx.mcpReq.log("info", "Tool processing data", "fixture");
      await sleep(50);
      await ctx.mcpReq.log("info", "Tool execution completed", "fixture");
      return text("Tool with logging executed successfully");
    },
  );
  server.registerTool(
    "test_logging_tool",
    { description: "Sends one log line (only to a request that asked for log lines)", inputSchema: noArgs() },
    async (_args, ctx) => {
      await ctx.mcpReq.log("info", "test_logging_tool ran", "fixture");
      return text("logged");
    },
  );
  server.registerTool(
    "test_tool_with_progress",
    { description: "Reports progress 0, 50 and 100 of 100", inputSchema: noArgs() },
    async (_args, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      for (const progress of [0, 50, 100]) {
        if (token !== undefined) {
          await ctx.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken: token, progress, total: 100, message: `Completed ${progress} of 100` },
          });
        }
        if (progress < 100) await sleep(50);
      }
      return text(`progress reported${token === undefined ? " (no token)" : ""}`);
    },
  );
  server.registerTool(
    "test_error_handling",
    { description: "Always fails", inputSchema: noArgs() },
    async () => {
      throw new Error("This tool intentionally returns an error for testing");
    },
  );
  server.registerTool(
    "test_reconnection",
    { description: "Completes after 100 ms (SSE polling)", inputSchema: noArgs() },
    async () => {
      await sleep(100);
      return text("Reconnection test completed successfully.");
    },
  );
  server.registerTool(
    "json_schema_2020_12_tool",
    {
      description: "Tool with JSON Schema 2020-12 features",
      inputSchema: fromJsonSchema(JSON_SCHEMA_2020_12 as unknown as JsonSchemaType),
    },
    async () => text("schema ok"),
  );
  server.registerTool(
    "test_custom_headers",
    {
      description: "Echoes a region mirrored into the Mcp-Param-Region header",
      inputSchema: fromJsonSchema({
        type: "object",
        properties: { region: { type: "string", "x-mcp-header": "Region" } },
        required: ["region"],
      } as JsonSchemaType),
    },
    async (args) => text(`region ${String((args as { region?: unknown }).region)}`),
  );
  server.registerTool(
    "test_missing_capability",
    { description: "Needs the client's sampling capability", inputSchema: noArgs() },
    async (_args, ctx) => {
      // Asking what the client did not declare is the SDK's to refuse: -32021 naming sampling.
      const answers = await ask(ctx, {
        sample: inputRequired.createMessage({
          messages: [{ role: "user", content: { type: "text", text: "Say something" } }],
          maxTokens: 20,
        }),
      });
      if (isInputRequired(answers)) return answers;
      return text(`Sampled: ${samplingText(answers.sample)}`);
    },
  );
  const dynamicTool = server.registerTool(
    "test_dynamic_tool",
    { description: "Appears and disappears with test_trigger_tool_change", inputSchema: noArgs() },
    async () => text("dynamic"),
  );
  if (!state.dynamicTool) dynamicTool.disable();
  server.registerTool(
    "test_trigger_tool_change",
    { description: "Adds or removes test_dynamic_tool (tools list_changed)", inputSchema: noArgs() },
    async () => {
      state.dynamicTool = !state.dynamicTool;
      if (state.dynamicTool) dynamicTool.enable();
      else dynamicTool.disable();
      server.sendToolListChanged();
      return text(`test_dynamic_tool ${state.dynamicTool ? "added" : "removed"}`);
    },
  );
  const dynamicPrompt = server.registerPrompt(
    "test_dynamic_prompt",
    { description: "Appears and disappears with test_trigger_prompt_change" },
    async () => ({ messages: [{ role: "user", content: { type: "text", text: "dynamic" } }] }),
  );
  if (!state.dynamicPrompt) dynamicPrompt.disable();
  server.registerTool(
    "test_trigger_prompt_change",
    { description: "Adds or removes test_dynamic_prompt (prompts list_changed)", inputSchema: noArgs() },
    async () => {
      state.dynamicPrompt = !state.dynamicPrompt;
      if (state.dynamicPrompt) dynamicPrompt.enable();
      else dynamicPrompt.disable();
      server.sendPromptListChanged();
      return text(`test_dynamic_prompt ${state.dynamicPrompt ? "added" : "removed"}`);
    },
  );
}

/** Tools that ask the client something: sampling and elicitation in either era. */
function questionTools(server: McpServer): void {
  server.registerTool(
    "test_sampling",
    {
      description: "Asks the client to sample a completion for the prompt",
      inputSchema: fromJsonSchema({
        type: "object",
        properties: { prompt: { type: "string" } },
        required: ["prompt"],
      }),
    },
    async (args, ctx) => {
      const prompt = String((args as { prompt?: unknown }).prompt);
      const answers = await ask(ctx, {
        completion: inputRequired.createMessage({
          messages: [{ role: "user", content: { type: "text", text: prompt } }],
          maxTokens: 100,
        }),
      });
      if (isInputRequired(answers)) return answers;
      return text(`LLM response: ${samplingText(answers.completion)}`);
    },
  );
  server.registerTool(
    "test_elicitation",
    {
      description: "Asks the user for a username and an email address",
      inputSchema: fromJsonSchema({
        type: "object",
        properties: { message: { type: "string" } },
        required: ["message"],
      }),
    },
    async (args, ctx) => {
      const answers = await ask(ctx, {
        user: inputRequired.elicit({
          message: String((args as { message?: unknown }).message),
          requestedSchema: {
            type: "object",
            properties: {
              username: { type: "string", description: "User's response" },
              email: { type: "string", description: "User's email address" },
            },
            required: ["username", "email"],
          },
        }),
      });
      if (isInputRequired(answers)) return answers;
      const a = answers.user ?? {};
      return text(`User response: action=${String(a.action)}, content=${JSON.stringify(a.content ?? {})}`);
    },
  );
  server.registerTool(
    "test_elicitation_sep1034_defaults",
    { description: "Asks with a default for every primitive type (SEP-1034)", inputSchema: noArgs() },
    async (_args, ctx) => {
      const answers = await ask(ctx, {
        form: inputRequired.elicit({
          message: "Please review and update the form fields with defaults",
          requestedSchema: {
            type: "object",
            properties: {
              name: { type: "string", description: "User name", default: "John Doe" },
              age: { type: "integer", description: "User age", default: 30 },
              score: { type: "number", description: "User score", default: 95.5 },
              status: {
                type: "string",
                description: "User status",
                enum: ["active", "inactive", "pending"],
                default: "active",
              },
              verified: { type: "boolean", description: "Verification status", default: true },
            },
            required: [],
          },
        }),
      });
      if (isInputRequired(answers)) return answers;
      return elicitationDone(answers.form);
    },
  );
  server.registerTool(
    "test_elicitation_sep1330_enums",
    { description: "Asks with every kind of enum (SEP-1330)", inputSchema: noArgs() },
    async (_args, ctx) => {
      const answers = await ask(ctx, {
        form: inputRequired.elicit({
          message: "Please choose",
          requestedSchema: SEP1330_SCHEMA as never,
        }),
      });
      if (isInputRequired(answers)) return answers;
      return elicitationDone(answers.form);
    },
  );
}

function elicitationDone(answer: Record<string, unknown> | undefined): CallToolResult {
  const a = answer ?? {};
  return text(
    `Elicitation completed: action=${String(a.action)}, content=${JSON.stringify(a.content ?? {})}`,
  );
}

/** The 2026-07-28 multi round-trip fixtures (SEP-2322) and the stateless scenario's diagnostics. */
function statelessTools(server: McpServer): void {
  const userName = inputRequired.elicit({ message: "What is your name?", requestedSchema: nameSchema });
  server.registerTool(
    "test_input_required_result_elicitation",
    { description: "Asks for the user's name (input_required)", inputSchema: noArgs() },
    async (_args, ctx) => {
      const answers = await ask(ctx, { user_name: userName });
      if (isInputRequired(answers)) return answers;
      const content = (answers.user_name?.content ?? {}) as { name?: unknown };
      return text(`Hello, ${String(content.name ?? "stranger")}!`);
    },
  );
  server.registerTool(
    "test_input_required_result_sampling",
    { description: "Asks the client to sample (input_required)", inputSchema: noArgs() },
    async (_args, ctx) => {
      const answers = await ask(ctx, {
        capital_question: inputRequired.createMessage({
          messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
          maxTokens: 100,
        }),
      });
      if (isInputRequired(answers)) return answers;
      return text(`Sampled: ${samplingText(answers.capital_question)}`);
    },
  );
  server.registerTool(
    "test_input_required_result_list_roots",
    { description: "Asks for the client's roots (input_required)", inputSchema: noArgs() },
    async (_args, ctx) => {
      const answers = await ask(ctx, { client_roots: inputRequired.listRoots() });
      if (isInputRequired(answers)) return answers;
      const roots = (answers.client_roots?.roots ?? []) as Array<{ uri?: unknown }>;
      return text(`Roots: ${roots.map((r) => String(r.uri)).join(", ") || "(none)"}`);
    },
  );
  server.registerTool(
    "test_input_required_result_request_state",
    { description: "Asks for confirmation and checks the echoed requestState", inputSchema: noArgs() },
    async (_args, ctx) => {
      const tool = "test_input_required_result_request_state";
      if (modern(ctx) && ctx.mcpReq.inputResponses !== undefined)
        verifyState(ctx.mcpReq.requestState(), tool);
      const answers = await ask(
        ctx,
        {
          confirm: inputRequired.elicit({
            message: "Please confirm",
            requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
          }),
        },
        mintState(tool, 1),
      );
      if (isInputRequired(answers)) return answers;
      return text("state-ok: the requestState came back intact");
    },
  );
  server.registerTool(
    "test_input_required_result_tampered_state",
    { description: "Rejects a requestState that fails its integrity check", inputSchema: noArgs() },
    async (_args, ctx) => {
      const tool = "test_input_required_result_tampered_state";
      if (modern(ctx) && ctx.mcpReq.requestState() !== undefined)
        verifyState(ctx.mcpReq.requestState(), tool);
      const answers = await ask(
        ctx,
        {
          confirm: inputRequired.elicit({
            message: "Please confirm",
            requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
          }),
        },
        mintState(tool, 1),
      );
      if (isInputRequired(answers)) return answers;
      return text("state-ok");
    },
  );
  server.registerTool(
    "test_input_required_result_multiple_inputs",
    { description: "Asks an elicitation, a sampling and roots/list at once", inputSchema: noArgs() },
    async (_args, ctx) => {
      const tool = "test_input_required_result_multiple_inputs";
      if (modern(ctx) && ctx.mcpReq.requestState() !== undefined)
        verifyState(ctx.mcpReq.requestState(), tool);
      const answers = await ask(
        ctx,
        {
          user_name: userName,
          greeting: inputRequired.createMessage({
            messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }],
            maxTokens: 50,
          }),
          client_roots: inputRequired.listRoots(),
        },
        mintState(tool, 1),
      );
      if (isInputRequired(answers)) return answers;
      return text(`Got all three: ${Object.keys(answers).sort().join(", ")}`);
    },
  );
  server.registerTool(
    "test_input_required_result_multi_round",
    { description: "Asks two questions, one round each, with evolving requestState", inputSchema: noArgs() },
    async (_args, ctx) => {
      const tool = "test_input_required_result_multi_round";
      const given = modern(ctx) ? responses(ctx) : {};
      const step =
        modern(ctx) && ctx.mcpReq.requestState() !== undefined
          ? verifyState(ctx.mcpReq.requestState(), tool)
          : 0;
      if (modern(ctx)) {
        if (step === 0 || (step === 1 && given.step1 === undefined)) {
          return inputRequired({
            inputRequests: {
              step1: inputRequired.elicit({
                message: "Step 1: What is your name?",
                requestedSchema: nameSchema,
              }),
            },
            requestState: mintState(tool, 1),
          });
        }
        if (step === 1 || (step === 2 && given.step2 === undefined)) {
          return inputRequired({
            inputRequests: {
              step2: inputRequired.elicit({
                message: "Step 2: What is your favorite color?",
                requestedSchema: {
                  type: "object",
                  properties: { color: { type: "string" } },
                  required: ["color"],
                },
              }),
            },
            requestState: mintState(tool, 2),
          });
        }
        return text("Both steps answered");
      }
      // A 2025-era connection: asked one after the other, as requests to the client.
      await ask(ctx, {
        step1: inputRequired.elicit({ message: "Step 1: What is your name?", requestedSchema: nameSchema }),
      });
      await ask(ctx, {
        step2: inputRequired.elicit({
          message: "Step 2: What is your favorite color?",
          requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
        }),
      });
      return text("Both steps answered");
    },
  );
  server.registerTool(
    "test_input_required_result_capabilities",
    { description: "Asks only what the client declared it can answer", inputSchema: noArgs() },
    async (_args, ctx) => {
      const caps = clientCapabilities(ctx, server);
      const questions: Record<string, InputRequest> = {};
      if (caps.sampling !== undefined) {
        questions.sample = inputRequired.createMessage({
          messages: [{ role: "user", content: { type: "text", text: "Say hello" } }],
          maxTokens: 20,
        });
      }
      if (caps.elicitation !== undefined) questions.user_name = userName;
      if (Object.keys(questions).length === 0) return text("nothing to ask: the client declared neither");
      const answers = await ask(ctx, questions);
      if (isInputRequired(answers)) return answers;
      return text(`Answered: ${Object.keys(answers).sort().join(", ")}`);
    },
  );
  server.registerTool(
    "test_streaming_elicitation",
    {
      description: "Asks the user something (never as a request on the response stream)",
      inputSchema: noArgs(),
    },
    async (_args, ctx) => {
      const answers = await ask(ctx, { user_name: userName });
      if (isInputRequired(answers)) return answers;
      return text("answered");
    },
  );
}

function resources(server: McpServer): void {
  server.registerResource(
    "static-text",
    "test://static-text",
    { description: "A static text resource", mimeType: "text/plain" },
    async (uri) => ({
      contents: [
        { uri: uri.href, mimeType: "text/plain", text: "This is the content of the static text resource." },
      ],
    }),
  );
  server.registerResource(
    "static-binary",
    "test://static-binary",
    { description: "A static binary resource (a PNG)", mimeType: "image/png" },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "image/png", blob: PNG }] }),
  );
  server.registerResource(
    "watched-resource",
    "test://watched-resource",
    { description: "A resource to subscribe to", mimeType: "text/plain" },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: "Watched resource content" }],
    }),
  );
  server.registerResource(
    "template-data",
    new ResourceTemplate("test://template/{id}/data", {
      list: undefined,
      complete: { id: (value) => ["123", "456", "789"].filter((id) => id.startsWith(value)) },
    }),
    { description: "Data for an id, from a template", mimeType: "application/json" },
    async (uri, variables) => {
      const id = String(variables.id);
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: "application/json",
            text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
          },
        ],
      };
    },
  );
}

function prompts(server: McpServer): void {
  server.registerPrompt("test_simple_prompt", { description: "A prompt without arguments" }, async () => ({
    messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
  }));
  server.registerPrompt(
    "test_prompt_with_arguments",
    {
      description: "A prompt with two arguments (arg1 completes)",
      argsSchema: z.object({
        arg1: completable(z.string().describe("First test argument"), (value) =>
          ["test", "testing", "tested", "paris", "park"].filter((v) => v.startsWith(value)),
        ),
        arg2: z.string().describe("Second test argument"),
      }),
    },
    async ({ arg1, arg2 }) => ({
      messages: [
        {
          role: "user",
          content: { type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
        },
      ],
    }),
  );
  server.registerPrompt(
    "test_prompt_with_embedded_resource",
    {
      description: "A prompt embedding a resource",
      argsSchema: z.object({ resourceUri: z.string().describe("URI of the resource to embed") }),
    },
    async ({ resourceUri }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "resource",
            resource: {
              uri: resourceUri,
              mimeType: "text/plain",
              text: "Embedded resource content for testing.",
            },
          },
        },
        { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
      ],
    }),
  );
  server.registerPrompt("test_prompt_with_image", { description: "A prompt with an image" }, async () => ({
    messages: [
      { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
      { role: "user", content: { type: "text", text: "Please analyze the image above." } },
    ],
  }));
  server.registerPrompt(
    "test_input_required_result_prompt",
    { description: "A prompt that first asks for context (input_required)" },
    async (ctx) => {
      const answers = await ask(ctx, {
        user_context: inputRequired.elicit({
          message: "What context should the prompt use?",
          requestedSchema: {
            type: "object",
            properties: { context: { type: "string" } },
            required: ["context"],
          },
        }),
      });
      if (isInputRequired(answers)) return answers;
      const content = (answers.user_context?.content ?? {}) as { context?: unknown };
      return {
        messages: [
          { role: "user", content: { type: "text", text: `Use this context: ${String(content.context)}` } },
        ],
      };
    },
  );
}

const JSON_SCHEMA_2020_12 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, which the scenario checks for
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

const SEP1330_SCHEMA = {
  type: "object",
  properties: {
    untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
    titledSingle: {
      type: "string",
      oneOf: [
        { const: "value1", title: "First Option" },
        { const: "value2", title: "Second Option" },
        { const: "value3", title: "Third Option" },
      ],
    },
    legacyEnum: {
      type: "string",
      enum: ["opt1", "opt2", "opt3"],
      enumNames: ["Option One", "Option Two", "Option Three"],
    },
    untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
    titledMulti: {
      type: "array",
      items: {
        anyOf: [
          { const: "value1", title: "First Choice" },
          { const: "value2", title: "Second Choice" },
          { const: "value3", title: "Third Choice" },
        ],
      },
    },
  },
  required: [],
};

// Serve on stdin and stdout (stderr is free for diagnostics).
serveStdio(() => fixtureServer(), {
  transport: withTasks(new StdioServerTransport()),
  onerror: (err) => process.stderr.write(`fixture: ${err.message}\n`),
});
