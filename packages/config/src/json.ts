/**
 * JSON.parse, with the line and column of a syntax error (Node's own messages often carry neither).
 * On failure a small strict scanner finds where the text stops being JSON.
 */

export class JsonSyntaxError extends Error {
  readonly line: number;
  readonly column: number;
  constructor(message: string, line: number, column: number) {
    super(`line ${line}, column ${column}: ${message}`);
    this.name = "JsonSyntaxError";
    this.line = line;
    this.column = column;
  }
}

export function parseJson(text: string): unknown {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(source);
  } catch (err) {
    const found = findSyntaxError(source);
    const { line, column } = lineAndColumn(source, found?.offset ?? 0);
    throw new JsonSyntaxError(found?.message ?? (err as Error).message, line, column);
  }
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

interface Found {
  offset: number;
  message: string;
}

class Stop {
  constructor(readonly found: Found) {}
}

/** The first place the text is not JSON, or undefined if it is. */
function findSyntaxError(text: string): Found | undefined {
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw new Stop({ offset: at, message });
  };
  const describe = (at: number) =>
    at >= text.length ? "the end of the file" : JSON.stringify(text.slice(at, at + 1));
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const expect = (what: string, ok: (c: string | undefined) => boolean) => {
    if (!ok(text[i])) fail(`expected ${what} but found ${describe(i)}`);
  };

  const string = () => {
    i++; // opening quote
    for (;;) {
      const c = text[i];
      if (c === undefined) fail("unterminated string");
      if (c === '"') {
        i++;
        return;
      }
      if (c === "\\") {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("invalid \\u escape in string");
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          i += 2;
        } else {
          fail("invalid escape in string");
        }
      } else if (c! < " ") {
        fail("control character in string (newlines must be written \\n)");
      } else {
        i++;
      }
    }
  };

  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m || m[0] === "-") fail(`expected a value but found ${describe(i)}`);
    i += m![0].length;
  };

  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") object();
    else if (c === "[") array();
    else if (c === '"') string();
    else if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) number();
    else {
      const word = ["true", "false", "null"].find((w) => text.startsWith(w, i));
      if (word === undefined) fail(`expected a value but found ${describe(i)}`);
      i += word!.length;
    }
  };

  const object = () => {
    i++;
    ws();
    if (text[i] === "}") {
      i++;
      return;
    }
    for (;;) {
      ws();
      expect('a key in double quotes (or "}")', (c) => c === '"');
      string();
      ws();
      expect('":"', (c) => c === ":");
      i++;
      value();
      ws();
      expect('"," or "}"', (c) => c === "," || c === "}");
      if (text[i++] === "}") return;
      ws();
      if (text[i] === "}") fail('trailing comma before "}"', i);
    }
  };

  const array = () => {
    i++;
    ws();
    if (text[i] === "]") {
      i++;
      return;
    }
    for (;;) {
      value();
      ws();
      expect('"," or "]"', (c) => c === "," || c === "]");
      if (text[i++] === "]") return;
      ws();
      if (text[i] === "]") fail('trailing comma before "]"', i);
    }
  };

  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${describe(i)} after the end of the JSON value`);
    return undefined;
  } catch (err) {
    if (err instanceof Stop) return err.found;
    throw err;
  }
}
