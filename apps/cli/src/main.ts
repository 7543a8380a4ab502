/** The `mcpx` command: arguments in, an exit code out. Each command lives in commands/. */
import { readFileSync } from "node:fs";
import { Argument, Command, CommanderError, Option } from "commander";
import { adHocOptions } from "./adhoc.js";
import { promptArguments } from "./arguments.js";
import type { AuthOptions, LoginOptions } from "./commands/auth.js";

/** `mcpx auth` (and @mcpx/auth-oauth with its JOSE and OAuth libraries) loads only when it runs. */
const authCommands = () => import("./commands/auth.js");

import { call } from "./commands/call.js";
import { complete, completionScript, SHELLS, type Shell } from "./commands/completion.js";
import { configCheck } from "./commands/config-check.js";
import { registerConfigWriters } from "./commands/config-register.js";
import { eventsCommand, reloadCommand, serveCommand, stdioCommand } from "./commands/daemon.js";
import { elicitAnswer, elicitList, elicitWatch } from "./commands/elicit.js";
import { eraForget, eraShow } from "./commands/era.js";
import { pluginsList } from "./commands/plugins.js";
import { reconnectCommand } from "./commands/reconnect.js";
import { getPrompt, listKind, readResource } from "./commands/resources.js";
import { skillsGet, skillsList } from "./commands/skills.js";
import { statusCommand } from "./commands/status.js";
import { toolsList } from "./commands/tools.js";
import { toolsShow } from "./commands/tools-show.js";
import { EXIT_OK } from "./errors.js";
import { type MainIO, processIO } from "./io.js";
import type { CommonOptions, UpstreamOptions } from "./one-shot.js";
import { reportError, reportUsage } from "./report-error.js";

export { EXIT_CONFIG, EXIT_FAILURE, EXIT_OK, EXIT_UNREACHABLE, EXIT_USAGE } from "./errors.js";

/** After `mcpx --help`: what scripts branch on, and what changes the output. */
const MORE_HELP = `
Exit codes:
  0  ok
  1  the call failed: the upstream answered an error, or a result with isError
  2  usage or config: a bad command line, an unknown tool or server, a missing or invalid config
  3  unreachable: an upstream failed to connect or is not connected, or no daemon answers

With --json, results go to stdout as JSON and errors to stderr as {"error":{"code","message","hint"}}.
Colour and aligned columns on a terminal only; NO_COLOR=1 turns colour off, FORCE_COLOR=1 on.
Shell completion: mcpx completion bash|zsh|fish (see mcpx completion --help).`;

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

/**
 * The options of the commands that connect to the upstreams themselves (one-shot, without a daemon),
 * those of the configured ones or of one named on the command line (--stdio, --url).
 */
function upstreams(cmd: Command): Command {
  return adHocOptions(cmd)
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
  // Known before commander parses anything, so that its own errors are reported as JSON too.
  const dashes = argv.indexOf("--");
  const json = (dashes === -1 ? argv : argv.slice(0, dashes)).includes("--json");
  const program = new Command("mcpx")
    .description(
      "An MCP gateway: one endpoint in front of many MCP servers, speaking every protocol revision.",
    )
    .version(version(), "-v, --version", "print the version of mcpx")
    .helpOption("-h, --help", "show help")
    .addHelpText("after", MORE_HELP)
    .exitOverride()
    // Errors are reported by reportUsage, as one line (or JSON); help asked for goes to stdout.
    .configureOutput({ writeOut: io.stdout, writeErr: json ? () => {} : io.stderr, outputError: () => {} });

  // Subcommands inherit exitOverride and the output settings.
  const config = program.command("config").description("work with the config file");
  common(
    config
      .command("check")
      // biome-ignore lint/suspicious/noTemplateCurlyInString: ${env:NAME} is the config's own syntax
      .description("check a config file: its schema, ${env:NAME} variables and plugins")
      .argument("[file]", "the config file (the same as --config)")
      .option(
        "--connect",
        "also start each server: its revision, transport and tool count, or why not (exit 3)",
      ),
  ).action(async (file: string | undefined, opts: { config: string; json?: boolean; connect?: boolean }) => {
    exitCode = await configCheck(
      { file: file ?? opts.config, json: opts.json === true, connect: opts.connect === true },
      io,
    );
  });

  registerConfigWriters(config, io, (code) => {
    exitCode = code;
  });

  const run = (fn: () => Promise<number>) => async () => {
    exitCode = await fn();
  };
  type Common = CommonOptions;
  type Upstream = UpstreamOptions;

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
  common(
    program
      .command("status")
      .description("the running daemon's config, upstreams and clients (exit 2 if it runs another config)"),
  )
    .option("--any", "report whichever daemon answers, whatever config it runs")
    .action((opts: Common & { any?: boolean }) => run(() => statusCommand(opts, io))());
  common(
    program
      .command("reconnect")
      .description("the running daemon connects an upstream again now (its backoff starts over)")
      .argument("<name>", "the upstream, as the config names it"),
  ).action((name: string, opts: Common) => run(() => reconnectCommand(name, opts, io))());
  common(
    program
      .command("reload")
      .description("the running daemon loads its config file again, without a restart (as on SIGHUP)"),
  ).action((opts: Common) => run(() => reloadCommand(opts, io))());
  common(program.command("events").description("the running daemon's lifecycle events"))
    .option("-f, --follow", "keep printing new events")
    .action((opts: Common & { follow?: boolean }) => run(() => eventsCommand(opts, io))());

  const tools = program.command("tools").description("the tools of the configured servers");
  upstreams(common(tools.command("list").description("list each server's revision, transport and tools")))
    .option("-s, --server <name>", "only this server")
    .option("--filter <glob>", "only the tools whose name matches (e.g. 'fs__read*' or '*file*')")
    .action((opts: Upstream & { server?: string; filter?: string }) => run(() => toolsList(opts, io))());
  upstreams(
    common(
      tools
        .command("show")
        .description("a tool's signature, description, parameters, output schema and annotations")
        .argument("<tool>", "the tool, e.g. fs__read_file"),
    ),
  ).action((tool: string, opts: Upstream) => run(() => toolsShow(tool, opts, io))());

  upstreams(
    common(
      program
        .command("call")
        .description("call a tool by the name mcpx exposes it under")
        .argument("<tool>", "the tool, e.g. everything__echo")
        .argument(
          "[arguments...]",
          "key=value pairs, typed by the tool's schema (text=hi count=3), and/or one JSON object",
        ),
    ),
  )
    .option("-a, --arg <key=value...>", "an argument, typed by the tool's schema like key=value")
    .option("-d, --daemon", "call through the running daemon (what the server asks goes to `mcpx elicit`)")
    .action((tool: string, words: string[], opts: Upstream & { arg?: string[]; daemon?: boolean }) =>
      run(() => call(tool, words, opts, io))(),
    );

  const resources = program.command("resources").description("the resources of the configured servers");
  upstreams(common(resources.command("list").description("list resources (mcpx:// URIs)"))).action(
    (opts: Upstream) => run(() => listKind("resources", opts, io))(),
  );
  upstreams(common(resources.command("templates").description("list resource templates"))).action(
    (opts: Upstream) => run(() => listKind("resourceTemplates", opts, io))(),
  );
  upstreams(
    common(resources.command("read").description("read a resource").argument("<uri>", "its mcpx:// URI")),
  ).action((uri: string, opts: Upstream) => run(() => readResource(uri, opts, io))());

  const skills = program.command("skills").description("the skills (SEP-2640) of the configured servers");
  upstreams(common(skills.command("list").description("list skills (skill://<namespace>/… paths)"))).action(
    (opts: Upstream) => run(() => skillsList(opts, io))(),
  );
  upstreams(
    common(
      skills
        .command("get")
        .description("load a skill: its SKILL.md, verified against the skill's entry")
        .argument("<skill>", "its path (e.g. fs/pdf-processing), its name when unique, or its URI"),
    ),
  ).action((name: string, opts: Upstream) => run(() => skillsGet(name, opts, io))());

  const prompts = program.command("prompts").description("the prompts of the configured servers");
  upstreams(common(prompts.command("list").description("list prompts"))).action((opts: Upstream) =>
    run(() => listKind("prompts", opts, io))(),
  );
  upstreams(
    common(
      prompts
        .command("get")
        .description("get a prompt")
        .argument("<name>", "the prompt, e.g. everything__simple_prompt")
        .argument("[arguments...]", "key=value pairs and/or one JSON object (values are strings)"),
    ),
  )
    .option("-a, --arg <key=value...>", "an argument (a string, as every prompt argument is)")
    .action((name: string, words: string[], opts: Upstream & { arg?: string[] }) =>
      run(() => getPrompt(name, promptArguments(words, opts.arg ?? []), opts, io))(),
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

  const auth = program
    .command("auth")
    .description("sign in to the servers whose auth is OAuth, for the daemon to use");
  const stateDir = (cmd: Command) =>
    cmd.option("--state-dir <dir>", "where tokens are kept (default: the config's stateDir)");
  stateDir(
    common(
      auth
        .command("login")
        .description("sign in to a server in the browser; the tokens go to the state directory")
        .argument("<server>", "the server, as the config names it"),
    ),
  )
    .option("--no-browser", "only print the URL to open, do not open a browser")
    .option("--timeout <seconds>", "how long to wait for the sign-in", "300")
    .addOption(
      new Option("--log-level <level>", "log to stderr from this level on").choices([
        "debug",
        "info",
        "warn",
        "error",
        "silent",
      ]),
    )
    .action((server: string, opts: LoginOptions) =>
      run(async () => (await authCommands()).authLogin(server, opts, io))(),
    );
  stateDir(
    common(
      auth
        .command("status")
        .description("what is stored for each OAuth server: issuer, resource, scopes, expiry (never a token)")
        .argument("[server]", "only this server"),
    ),
  ).action((server: string | undefined, opts: AuthOptions) =>
    run(async () => (await authCommands()).authStatus(server, opts, io))(),
  );
  stateDir(
    common(
      auth
        .command("logout")
        .description("delete a server's stored tokens and client registration")
        .argument("<server>", "the server"),
    ),
  ).action((server: string, opts: AuthOptions) =>
    run(async () => (await authCommands()).authLogout(server, opts, io))(),
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

  program
    .command("completion")
    .description("print a shell completion script (bash: source <(mcpx completion bash))")
    .addArgument(new Argument("<shell>", "the shell").choices(SHELLS))
    .addHelpText(
      "after",
      `
Install:
  bash  mcpx completion bash > ~/.local/share/bash-completion/completions/mcpx
  zsh   mcpx completion zsh > "\${fpath[1]}/_mcpx"      (or: source <(mcpx completion zsh) in ~/.zshrc)
  fish  mcpx completion fish > ~/.config/fish/completions/mcpx.fish`,
    )
    .action((shell: Shell) => run(async () => completionScript(shell, io))());
  // What the scripts call: the candidates for the last word (hidden, as cobra's __complete is).
  program
    .command("__complete", { hidden: true })
    .argument("[words...]")
    .allowUnknownOption()
    .helpOption(false)
    .action((words: string[]) => run(() => complete(program, words, io))());

  // Which command a usage error came from, so its message can point at that command's --help.
  let failed = "";
  const track = (cmd: Command, at: string): void => {
    cmd.exitOverride((err) => {
      failed = at;
      throw err;
    });
    for (const sub of cmd.commands) track(sub, at ? `${at} ${sub.name()}` : sub.name());
  };
  track(program, "");

  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) return reportUsage(err, failed, io, json);
    return reportError(err, io, json);
  }
  return exitCode;
}
