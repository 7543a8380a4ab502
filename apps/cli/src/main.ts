/** The `mcpx` command: arguments in, an exit code out. Each command lives in commands/. */
import { readFileSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import { configCheck } from "./commands/config-check.js";
import { type MainIO, processIO } from "./io.js";

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

  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    io.stderr(`mcpx: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT_FAILURE;
  }
  return exitCode;
}
