/**
 * What a user of mcpx does in each client scenario of the official suite, read from the scenario's
 * source: which tools to call and with what. Only calls of UpstreamClient's public methods; the
 * frames, headers, retries and answers are mcpx's own. A scenario not named here lists the tools.
 */
import { SkillsClient, type UpstreamClient } from "@mcpx/client";
import { type JSONObject, SkillVerificationError, type Tool } from "@mcpx/core";

export type Flow = (client: UpstreamClient, context: JSONObject) => Promise<void>;

/** A value of each required property's type: what a user would type to call a tool. */
export function sampleArguments(schema: JSONObject | undefined): JSONObject {
  const args: JSONObject = {};
  const properties = (schema?.properties ?? {}) as Record<string, JSONObject>;
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
  for (const name of required) {
    const type = properties[name]?.type;
    args[name] =
      type === "integer" || type === "number"
        ? 1
        : type === "boolean"
          ? true
          : type === "object"
            ? {}
            : type === "array"
              ? []
              : type === "null"
                ? null
                : "sample";
  }
  return args;
}

const listTools: Flow = async (client) => {
  await client.listTools();
};

/** Every tool mcpx lists (an invalid one never is), in order, with sample arguments. */
const callEveryTool: Flow = async (client) => {
  for (const tool of (await client.listTools()) as Tool[]) {
    await client.callTool(tool.name, sampleArguments(tool.inputSchema as JSONObject));
  }
};

/** The tool calls the scenario hands over in MCP_CONFORMANCE_CONTEXT, with their arguments. */
const callToolsFromContext: Flow = async (client, context) => {
  const calls = (context.toolCalls ?? []) as { name: string; arguments?: JSONObject }[];
  for (const call of calls) await client.callTool(call.name, call.arguments);
};

/** Each kind of request once or more: every tool called, every resource read, every prompt got. */
const everything: Flow = async (client) => {
  await callEveryTool(client, {});
  for (const resource of await client.listResources()) await client.readResource(String(resource.uri));
  for (const prompt of await client.listPrompts()) await client.getPrompt(String(prompt.name));
};

/** The focal tool's inputSchema, exactly as mcpx holds it, handed back to the echo tool. */
const echoSchema: Flow = async (client) => {
  const tools = (await client.listTools()) as Tool[];
  const focal = tools.find((t) => t.name === "json_schema_2020_12_tool");
  if (!focal) throw new Error(`json_schema_2020_12_tool is not among the listed tools`);
  await client.callTool("json_schema_echo", { schema: focal.inputSchema as JSONObject });
};

/** What a host shows before anyone picks a skill: the listing, and no file of any skill. */
const listSkills: Flow = async (client) => {
  await new SkillsClient(client).list();
};

/**
 * A user picks each listed skill: its SKILL.md is loaded (verified), then its other files are read
 * as the skill needs them. A skill that fails verification is refused, and nothing more of it read.
 */
const useSkills: Flow = async (client) => {
  const skills = new SkillsClient(client);
  for (const skill of (await skills.list()).skills) {
    try {
      await skills.load(skill);
      const files = skill.resources === "dynamic" ? [] : skill.resources.filter((r) => r.uri !== skill.uri);
      for (const file of files) await skills.read(skill, file.uri);
    } catch (err) {
      if (!(err instanceof SkillVerificationError)) throw err;
      process.stderr.write(`refused the skill ${skill.uri}: ${err.message}\n`);
    }
  }
};

const flows: Record<string, Flow> = {
  tools_call: callEveryTool,
  "elicitation-sep1034-client-defaults": callEveryTool,
  "sse-retry": callEveryTool,
  "request-metadata": callEveryTool,
  "sep-2322-client-request-state": callEveryTool,
  "http-standard-headers": everything,
  "http-custom-headers": callToolsFromContext,
  "http-invalid-tool-headers": callEveryTool,
  "json-schema-2020-12-preservation": echoSchema,
  "sep-2640-client-no-prefetch": listSkills,
  "sep-2640-client-verify-digest": useSkills,
  "sep-2640-client-verify-size": useSkills,
  "sep-2640-client-verify-frontmatter": useSkills,
};

/**
 * An auth/* scenario: list the tools, then call them (the official SDK's conformance client does
 * both): the call is where step-up and a changed authorization server show.
 */
export function flowFor(scenario: string): Flow {
  return flows[scenario] ?? (scenario.startsWith("auth/") ? callEveryTool : listTools);
}
