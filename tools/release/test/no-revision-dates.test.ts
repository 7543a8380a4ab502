/**
 * A revision is a plugin: the packages under packages/ know no revision by its date. Every date a
 * revision has is a plugin's (plugins/revision-*, or a third party's); the packages reach revisions
 * through the registry and their declared features. Comments may cite a revision's spec page (that
 * is where a rule comes from); code may not name one. TypeScript's own scanner tells code from
 * comments, so a date in a string, a template or a regular expression is found wherever it hides.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DATE = /\d{4}-\d{2}-\d{2}/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name === "dist" ? [] : sources(path);
    return /\.(ts|mts|js|mjs)$/.test(e.name) && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Each token of code (not comment) in the file that holds a date, with its line. */
function datesInCode(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const found: string[] = [];
  let previous = ts.SyntaxKind.Unknown;
  // What each open brace belongs to: a block or object, or a template's ${ (whose } resumes the template).
  const braces: ("block" | "template")[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    // A slash where an expression starts is a regular expression, not a division.
    if (
      (kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) &&
      previous !== ts.SyntaxKind.Identifier &&
      previous !== ts.SyntaxKind.CloseParenToken &&
      previous !== ts.SyntaxKind.CloseBracketToken &&
      previous !== ts.SyntaxKind.NumericLiteral
    ) {
      kind = scanner.reScanSlashToken();
    }
    if (kind === ts.SyntaxKind.OpenBraceToken) braces.push("block");
    else if (kind === ts.SyntaxKind.TemplateHead) braces.push("template");
    else if (kind === ts.SyntaxKind.CloseBraceToken && braces.pop() === "template") {
      kind = scanner.reScanTemplateToken(false);
      if (kind === ts.SyntaxKind.TemplateMiddle) braces.push("template");
    }
    if (DATE.test(scanner.getTokenText())) {
      const line = text.slice(0, scanner.getTokenStart()).split("\n").length;
      found.push(`${relative(ROOT, file)}:${line}: ${scanner.getTokenText().slice(0, 80)}`);
    }
    previous = kind;
  }
  return found;
}

describe("the packages know no revision by its date", () => {
  const packages = readdirSync(join(ROOT, "packages")).map((p) => join(ROOT, "packages", p, "src"));

  it("revision-plugin/no-revision-date-in-packages-code", () => {
    const files = packages.flatMap((dir) => sources(dir));
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap(datesInCode)).toEqual([]);
  });

  it("revision-plugin/date-scanner-finds-dates-in-strings-templates-and-regexes", () => {
    // The scanner above must see what it is meant to catch, or the test above proves nothing.
    const dir = join(ROOT, "tools/release/test/fixtures/dated");
    expect(
      sources(dir)
        .flatMap(datesInCode)
        .map((l) => l.replace(/^.*?:(\d+):/, "$1:")),
    ).toEqual(['3: "2025-06-18"', "4: } 2024-11-05`", "5: /^2026-07-28$/"]);
  });
});
