/** The `mcpx` command: arguments in, an exit code out. Each command lives in commands/. */
import { readFileSync } from "node:fs";
import { ConfigError, PluginError } from "@mcpx/core";
import { Command, CommanderError, Option } from "commander";
import { call, parseArguments } from "./commands/call.js";
import { configCheck } from "./commands/config-check.js";
import { eventsCommand, serveCommand, statusCommand, stdioCommand } from "./commands/daemon.js";
import { elicitAnswer, elicitList, elicitWatch } from "./commands/elicit.js";
import { eraForget, eraShow } from "./commands/era.js";
import { pluginsList } from "./commands/plugins.js";
import { getPrompt, listKind, readResource } from "./commands/resources.js";
import { toolsList } from "./commands/tools.js";
import { type MainIO, processIO } from "./io.js";
import type { CommonOptions } from "./one-shot.js";
import { forTerminal } from "./render.js";

export const EXIT_OK = 0;
/** Something went wrong that is not the config's fault. */
export const EXIT_FAILURE = 1;
/** The config (or a plugin it lists) is invalid. */
export const EXIT_CONFIG = 2;

const DEFAULT_CONFIG = "mcpx.json";

function version(): string {
  // One level up from src/ and from dist/ alike.
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

/** The options every command takes. */
function common(cmd: Command): Command {
  return cmd
    .addOption(
      new Option("-c, --config <file>", "the config file").default(DEFAULT_CONFIG, `./${DEFAULT_CONFIG}`),
    )
    .option("--json", "print machine-readable JSON");
}

/** The options of the commands that connect to the upstreams themselves (one-shot, without a daemon). */
function upstreams(cmd: Command): Command {
  return cmd
    .option(
      "--state-dir <dir>",
      "where era records are kept (default: the config's stateDir, else $XDG_STATE_HOME/mcpx)",
    )
    .addOption(
      new Option("--log-level <level>", "log to stderr from this level on").choices([
        "debug",
        "info",
        "warn",
        "error",
        "silent",
      ]),
    );
}

/** Runs the command line `argv` (without node and the script) and resolves to its exit code. */
export async function main(argv: readonly string[], io: MainIO = processIO): Promise<number> {
  let exitCode = EXIT_OK;
  const program = new Command("mcpx")
    .description(
      "An MCP gateway: one endpoint in front of many MCP servers, speaking every protocol revision.",
    )
    .version(version(), "-v, --version", "print the version of mcpx")
    .helpOption("-h, --help", "show help")
    .showHelpAfterError("(run mcpx --help for usage)")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  // Subcommands inherit exitOverride and the output settings.
  const config = program.command("config").description("work with the config file");
  common(
    config
      .command("check")
      // biome-ignore lint/suspicious/noTemplateCurlyInString: ${env:NAME} is the config's own syntax
      .description("check a config file: its schema, ${env:NAME} variables and plugins")
      .argument("[file]", "the config file (the same as --config)"),
  ).action(async (file: string | undefined, opts: { config: string; json?: boolean }) => {
    exitCode = await configCheck({ file: file ?? opts.config, json: opts.json === true }, io);
  });

  const run = (fn: () => Promise<number>) => async () => {
    exitCode = await fn();
  };
  type Common = CommonOptions;

  common(
    program.command("serve").description("run the gateway: MCP at http://<listen.host>:<listen.port>/mcp"),
  )
    .option("--host <host>", "the address to bind (default: the config's listen.host, 127.0.0.1)")
    .option("--port <port>", "the port (default: the config's listen.port, 7333)")
    .option("--state-dir <dir>", "where era records are kept")
    .action((opts: Common & { host?: string; port?: string; stateDir?: string }) =>
      run(() => serveCommand(opts, io))(),
    );
  common(program.command("stdio").description("serve one MCP client on stdin and stdout"))
    .option("--state-dir <dir>", "where era records are kept")
    .action((opts: Common & { stateDir?: string }) => run(() => stdioCommand(opts, io))());
  common(program.command("status").description("the running daemon's upstreams and clients")).action(
    (opts: Common) => run(() => statusCommand(opts, io))(),
  );
  common(program.command("events").description("the running daemon's lifecycle events"))
    .option("-f, --follow", "keep printing new events")
    .action((opts: Common & { follow?: boolean }) => run(() => eventsCommand(opts, io))());

  const tools = program.command("tools").description("the tools of the configured servers");
  upstreams(common(tools.command("list").description("list each server's revision, transport and tools")))
    .option("-s, --server <name>", "only this server")
    .action((opts: Common & { server?: string }) => run(() => toolsList(opts, io))());

  upstreams(
    common(
      program
        .command("call")
        .description("call a tool by the name mcpx exposes it under")
        .argument("<tool>", "the tool, e.g. everything__echo")
        .argument("[arguments]", "the arguments as a JSON object"),
    ),
  )
    .option("-a, --arg <key=value...>", "an argument (the value is parsed as JSON when it is JSON)")
    .option("-d, --daemon", "call through the running daemon (what the server asks goes to `mcpx elicit`)")
    .action((tool: string, json: string | undefined, opts: Common & { arg?: string[]; daemon?: boolean }) =>
      run(() => call(tool, json, opts, io))(),
    );

  const resources = program.command("resources").description("the resources of the configured servers");
  upstreams(common(resources.command("list").description("list resources (mcpx:// URIs)"))).action(
    (opts: Common) => run(() => listKind("resources", opts, io))(),
  );
  upstreams(common(resources.command("templates").description("list resource templates"))).action(
    (opts: Common) => run(() => listKind("resourceTemplates", opts, io))(),
  );
  upstreams(
    common(resources.command("read").description("read a resource").argument("<uri>", "its mcpx:// URI")),
  ).action((uri: string, opts: Common) => run(() => readResource(uri, opts, io))());

  const prompts = program.command("prompts").description("the prompts of the configured servers");
  upstreams(common(prompts.command("list").description("list prompts"))).action((opts: Common) =>
    run(() => listKind("prompts", opts, io))(),
  );
  upstreams(
    common(
      prompts
        .command("get")
        .description("get a prompt")
        .argument("<name>", "the prompt, e.g. everything__simple_prompt")
        .argument("[arguments]", "the arguments as a JSON object"),
    ),
  )
    .option("-a, --arg <key=value...>", "an argument")
    .action((name: string, json: string | undefined, opts: Common & { arg?: string[] }) =>
      run(() => getPrompt(name, parseArguments(json, opts.arg), opts, io))(),
    );

  const era = program
    .command("era")
    .description("the era records: which revision and transport each server speaks");
  common(era.command("show").description("show the era records"))
    .option("--state-dir <dir>", "the state directory (default: the config's)")
    .action((opts: Common & { stateDir?: string }) => run(() => eraShow(opts, io))());
  common(era.command("forget").description("forget one server's era record, or all").argument("[server]"))
    .option("--state-dir <dir>", "the state directory (default: the config's)")
    .action((server: string | undefined, opts: Common & { stateDir?: string }) =>
      run(() => eraForget(server, opts, io))(),
    );

  const elicit = program
    .command("elicit")
    .description(
      "questions upstream servers asked (elicitations) held by the running daemon, and your answers",
    );
  common(elicit.command("list").description("list pending elicitations (and recently settled ones)"))
    .option("-w, --wait [seconds]", "attach and wait until one is pending (at most this long), then list")
    .action((opts: Common & { wait?: boolean | string }) => run(() => elicitList(opts, io))());
  common(
    elicit
      .command("watch")
      .description("attach: print each elicitation as it arrives (questions are held while one watches)"),
  ).action((opts: Common) => run(() => elicitWatch(opts, io))());
  elicit
    .command("answer")
    .description("answer a pending elicitation: a form's fields, a URL's consent, or --decline / --cancel")
    .argument("<id>", "the elicitation's id (mcpx elicit list)")
    .addOption(
      new Option("-c, --config <file>", "the config file").default(DEFAULT_CONFIG, `./${DEFAULT_CONFIG}`),
    )
    .option("-f, --field <name=value...>", "a form field (typed by the form's schema: age=36, ok=true)")
    .option("--json [content]", "the form's fields as a JSON object; bare: print machine-readable JSON")
    .option("--content <json>", "the form's fields as a JSON object (the same as --json '{…}')")
    .option("--decline", "decline: you will not answer")
    .option("--cancel", "cancel: dismiss it without a choice")
    .action(
      (
        id: string,
        opts: {
          config: string;
          json?: boolean | string;
          content?: string;
          field?: string[];
          decline?: boolean;
          cancel?: boolean;
        },
      ) =>
        run(() =>
          elicitAnswer(
            id,
            {
              config: opts.config,
              json: opts.json === true,
              ...(typeof opts.json === "string"
                ? { content: opts.json }
                : opts.content
                  ? { content: opts.content }
                  : {}),
              ...(opts.field ? { field: opts.field } : {}),
              ...(opts.decline ? { decline: true } : {}),
              ...(opts.cancel ? { cancel: true } : {}),
            },
            io,
          ),
        )(),
    );

  const plugins = program.command("plugins").description("the installed plugins");
  common(plugins.command("list").description("list plugins and what they registered")).action(
    (opts: Common) => run(() => pluginsList(opts, io))(),
  );

  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    if (err instanceof ConfigError) {
      for (const p of err.problems) io.stderr(`mcpx: ${p}\n`);
      return EXIT_CONFIG;
    }
    if (err instanceof PluginError) {
      io.stderr(`mcpx: ${err.message}\n`);
      return EXIT_CONFIG;
    }
    // An upstream's error message, as it wrote it, minus what would drive the terminal.
    io.stderr(`mcpx: ${forTerminal(err instanceof Error ? err.message : String(err))}\n`);
    return EXIT_FAILURE;
  }
  return exitCode;
}
