/** The `mcpx config` subcommands that write a config: init, import, add, remove. */
import { HOST_FORMATS, type HostFormat } from "@mcpx/config";
import { type Command, Option } from "commander";
import type { MainIO } from "../io.js";
import { configAdd, configRemove } from "./config-edit.js";
import { configImport } from "./config-import.js";
import { configInit } from "./config-init.js";

const DEFAULT_CONFIG = "mcpx.json";

interface Written {
  config: string;
  json?: boolean;
  output?: string;
  force?: boolean;
  dryRun?: boolean;
}

function written(cmd: Command, output = true): Command {
  cmd
    .addOption(
      new Option("-c, --config <file>", "the config file").default(DEFAULT_CONFIG, `./${DEFAULT_CONFIG}`),
    )
    .option("--json", "print machine-readable JSON")
    .option("--dry-run", "print the resulting config instead of writing it");
  return output ? cmd.option("-o, --output <file>", "the file to write (default: the --config file)") : cmd;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** Adds init, import, add and remove to `config`; `done` receives each one's exit code. */
export function registerConfigWriters(config: Command, io: MainIO, done: (code: number) => void): void {
  written(
    config
      .command("init")
      .description("write a starter config, offering to import the MCP servers of the hosts found here")
      .option("-y, --yes", "import every host config found, without asking")
      .option("--no-import", "do not look for host configs")
      .option("--force", "overwrite the config file if it exists"),
  ).action(async (opts: Written & { yes?: boolean; import?: boolean }) => {
    done(await configInit(opts, io));
  });

  written(
    config
      .command("import")
      .description(
        "import the MCP servers of a host's config: Claude Desktop, Cursor, VS Code, Windsurf or Codex",
      )
      .argument("<file>", "the host's config file, e.g. ~/.cursor/mcp.json or ~/.codex/config.toml")
      .addOption(
        new Option("--from <host>", "the host that wrote it (default: told by its path and shape)").choices(
          HOST_FORMATS,
        ),
      )
      .option("--force", "replace servers of the same name in the config"),
  ).action(async (file: string, opts: Written & { from?: HostFormat }) => {
    done(await configImport({ ...opts, file }, io));
  });

  written(
    config
      .command("add")
      .description("add a server to the config")
      .argument("<name>", "its name (and namespace)")
      .option(
        "--stdio <command>",
        'the command that runs it, e.g. "npx -y @modelcontextprotocol/server-everything"',
      )
      .option("--url <url>", "its endpoint (Streamable HTTP or HTTP+SSE)")
      .option(
        "-e, --env <NAME=VALUE>",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: ${env:NAME} is the config's own syntax
        "a variable for a --stdio server (NAME alone: ${env:NAME}, passed on)",
        collect,
        [],
      )
      .option("-H, --header <NAME=VALUE>", "a header for a --url server", collect, [])
      .option("--bearer-env <VAR>", "send Authorization: Bearer with the token in environment variable VAR")
      .option("--namespace <namespace>", "its namespace (default: its name)")
      .option("--force", "replace a server of the same name"),
    false,
  ).action(
    async (
      name: string,
      opts: Written & {
        stdio?: string;
        url?: string;
        env: string[];
        header: string[];
        bearerEnv?: string;
        namespace?: string;
      },
    ) => {
      done(await configAdd(name, opts, io));
    },
  );

  written(
    config.command("remove").alias("rm").description("remove a server from the config").argument("<name>"),
    false,
  ).action(async (name: string, opts: Written) => {
    done(await configRemove(name, opts, io));
  });
}
