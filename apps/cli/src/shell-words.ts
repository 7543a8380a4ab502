/**
 * `--stdio "npx -y @scope/server --root '/my files'"` split into a command and its arguments the way
 * a POSIX shell splits words (XCU §2.2 Quoting, §2.6.5 Field Splitting): blanks separate words;
 * '…' keeps everything literally; "…" keeps everything but a backslash before $ ` " \ or a newline;
 * a backslash outside quotes keeps the next character; ~ at a word's start is HOME. mcpx runs the
 * command itself, not through a shell, so what only a shell would do (variables, pipes,
 * redirections, lists) is refused with a message saying so, rather than passed on as a literal the
 * user did not mean.
 */
import { UsageError } from "./errors.js";

/** Characters a shell would act on outside quotes (and, for $ and `, inside double quotes). */
const OPERATORS = new Set(["|", "&", ";", "<", ">", "(", ")", "$", "`"]);

export function shellWords(line: string, home: string | undefined, option = "--stdio"): string[] {
  const words: string[] = [];
  let word = "";
  // A word is started by any character, even a pair of empty quotes ('' is an empty argument).
  let started = false;
  let i = 0;
  const refuse = (what: string): never => {
    throw new UsageError(
      `${option}: ${what} at character ${i + 1} of ${JSON.stringify(line)}`,
      "mcpx runs the command itself, not through a shell: quote the character, or put a pipeline or variables in a script and run that",
    );
  };
  while (i < line.length) {
    const c = line[i] as string;
    if (c === " " || c === "\t" || c === "\n") {
      if (started) words.push(word);
      word = "";
      started = false;
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) refuse("a single quote that is never closed");
      word += line.slice(i + 1, end);
      started = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      for (;;) {
        if (i >= line.length) {
          i = line.lastIndexOf('"');
          refuse("a double quote that is never closed");
        }
        const d = line[i] as string;
        if (d === '"') break;
        if (d === "\\" && i + 1 < line.length && '$`"\\\n'.includes(line[i + 1] as string)) {
          if (line[i + 1] !== "\n") word += line[i + 1];
          i += 2;
        } else if (d === "$" || d === "`") {
          refuse(`"${d}" (a shell expansion)`);
        } else {
          word += d;
          i++;
        }
      }
      started = true;
      i++;
    } else if (c === "\\") {
      if (i + 1 >= line.length) refuse("a backslash with nothing after it");
      // A backslash-newline joins lines (§2.2.1).
      if (line[i + 1] !== "\n") {
        word += line[i + 1];
        started = true;
      }
      i += 2;
    } else if (c === "~" && !started && /^~(?:\/|\s|$)/.test(line.slice(i))) {
      // Tilde expansion at the start of a word (§2.6.1), the one expansion worth doing here.
      if (!home) refuse('"~" (no HOME to expand it to)');
      word += home;
      started = true;
      i++;
    } else if (OPERATORS.has(c)) {
      refuse(`"${c}" (${c === "$" || c === "`" ? "a shell expansion" : "a shell operator"})`);
    } else {
      word += c;
      started = true;
      i++;
    }
  }
  if (started) words.push(word);
  if (words.length === 0)
    throw new UsageError(
      `${option} needs a command, e.g. ${option} "npx -y @modelcontextprotocol/server-everything"`,
    );
  return words;
}
