/**
 * `mcpx completion bash|zsh|fish` prints a script for the shell, and the shell's completion asks
 * `mcpx __complete -- <words…>` (hidden) for the candidates, as cobra and carapace do: so the script
 * never goes stale, and names come from the config. Candidates are, by position: subcommands; an
 * option's flags (after "-"); an option's choices; server names (after -s/--server, and for `era
 * forget`); tool names (`call`, `tools show`) and prompt names (`prompts get`), asked of the running
 * daemon when one answers, else of the upstreams (only the namespace's server once "ns__" is typed).
 * Nothing printed means "complete file names", which every script falls back to.
 */

import * as path from "node:path";
import { loadConfig } from "@mcpx/config";
import type { Command, Option } from "commander";
import { DaemonClient } from "../daemon-client.js";
import type { MainIO } from "../io.js";
import { serversFor } from "../lookup.js";
import { withUpstreams } from "../one-shot.js";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

export function completionScript(shell: Shell, io: MainIO): number {
  io.stdout(SCRIPTS[shell]);
  return 0;
}

// Each script hands the words typed so far (the one under the cursor last, maybe empty) to mcpx.
const SCRIPTS: Record<Shell, string> = {
  bash: `# mcpx completion for bash. Install: mcpx completion bash > ~/.local/share/bash-completion/completions/mcpx
# (or add  source <(mcpx completion bash)  to ~/.bashrc)
_mcpx_complete() {
  local cur=\${COMP_WORDS[COMP_CWORD]}
  local IFS=$'\\n'
  COMPREPLY=($(mcpx __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  if [ \${#COMPREPLY[@]} -eq 0 ]; then
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _mcpx_complete mcpx
`,
  zsh: `#compdef mcpx
# mcpx completion for zsh. Install: mcpx completion zsh > "\${fpath[1]}/_mcpx"
# (or add  source <(mcpx completion zsh)  to ~/.zshrc, after compinit)
_mcpx() {
  local -a candidates
  candidates=("\${(@f)$(mcpx __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if (( \${#candidates} )) && [[ -n "\${candidates[1]}" ]]; then
    compadd -- "\${candidates[@]}"
  else
    _files
  fi
}
if [ "\${funcstack[1]}" = "_mcpx" ]; then
  _mcpx "$@"
else
  compdef _mcpx mcpx
fi
`,
  fish: `# mcpx completion for fish. Install: mcpx completion fish > ~/.config/fish/completions/mcpx.fish
function __mcpx_complete
    set -l words (commandline -opc) (commandline -ct)
    set -l out (mcpx __complete -- $words[2..-1] 2>/dev/null)
    if test (count $out) -eq 0
        __fish_complete_path (commandline -ct)
    else
        printf '%s\\n' $out
    end
end
complete -c mcpx -f -a '(__mcpx_complete)'
`,
};

/** Options that take the next word as their value, with what completes it. */
type ValueKind = "server" | "file" | "choices" | "none";

function valueKind(option: Option): ValueKind {
  if (!option.required && !option.optional) return "none";
  if (option.long === "--server") return "server";
  if (option.argChoices) return "choices";
  return "file";
}

/** The candidates for the last of `words` (the words after `mcpx`), one per line. */
export async function complete(program: Command, words: readonly string[], io: MainIO): Promise<number> {
  const current = words.at(-1) ?? "";
  const before = words.slice(0, -1);
  let cmd = program;
  const operands: string[] = [];
  let config = "mcpx.json";
  let pending: Option | undefined;
  for (const word of before) {
    if (pending) {
      if (pending.long === "--config") config = word;
      pending = undefined;
      continue;
    }
    if (word.startsWith("-") && word !== "-") {
      const [flag, inline] = word.split("=", 2) as [string, string | undefined];
      const option = cmd.options.find((o) => o.long === flag || o.short === flag);
      if (option?.long === "--config" && inline !== undefined) config = inline;
      if (option && inline === undefined && valueKind(option) !== "none" && option.required) pending = option;
      continue;
    }
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub && operands.length === 0) cmd = sub;
    else operands.push(word);
  }
  const print = (candidates: Iterable<string>) => {
    const out = [...candidates].filter((c) => c.startsWith(current));
    if (out.length) io.stdout(`${out.join("\n")}\n`);
    return 0;
  };
  if (pending) {
    const kind = valueKind(pending);
    if (kind === "server") return print(await serverNames(config, io));
    if (kind === "choices") return print(pending.argChoices ?? []);
    return 0;
  }
  // What --help shows is what completes: hidden commands and options stay hidden.
  const help = cmd.createHelp();
  if (current.startsWith("-")) {
    return print(help.visibleOptions(cmd).flatMap((o) => [o.long, o.short].filter((f) => f !== undefined)));
  }
  const subs = help.visibleCommands(cmd).filter((c) => c.name() !== "help");
  // After a word that is no subcommand, nothing fits.
  if (subs.length > 0) return operands.length > 0 ? 0 : print(subs.map((c) => c.name()));
  const where = cmd.parent && cmd.parent !== program ? `${cmd.parent.name()} ${cmd.name()}` : cmd.name();
  const choices = cmd.registeredArguments[operands.length]?.argChoices;
  if (choices) return print(choices);
  if (operands.length > 0) return 0;
  if (where === "call" || where === "tools show") return print(await itemNames("tools", current, config, io));
  if (where === "prompts get") return print(await itemNames("prompts", current, config, io));
  if (where === "era forget") return print(await serverNames(config, io));
  return 0;
}

async function serverNames(config: string, io: MainIO): Promise<string[]> {
  try {
    const loaded = await loadConfig(
      path.resolve(io.cwd ?? process.cwd(), config),
      io.env ? { env: io.env } : {},
    );
    return Object.keys(loaded.servers);
  } catch {
    return [];
  }
}

/** Tool or prompt names: the running daemon's when one answers (fast), else the upstreams' own. */
async function itemNames(
  kind: "tools" | "prompts",
  typed: string,
  config: string,
  io: MainIO,
): Promise<string[]> {
  try {
    const daemon = await DaemonClient.forConfig({ config }, io);
    if (await daemon.reachable(300)) {
      const listed = await daemon.get<Record<string, { name: string }[]>>(`list/${kind}`);
      return (listed[kind] ?? []).map((t) => t.name);
    }
    const quiet: MainIO = { ...io, stderr: () => {} };
    const items = await withUpstreams(
      { config, logLevel: "silent" },
      quiet,
      ({ gateway }) => gateway.catalog.list(kind),
      serversFor(typed),
    );
    return items.map((t) => String(t.name));
  } catch {
    return [];
  }
}
