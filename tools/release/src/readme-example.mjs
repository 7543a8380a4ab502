/**
 * The example of packages/client/README.md, as client-example-check.mjs runs it: the ```js block
 * between `<!-- client-example:start … -->` and `<!-- client-example:end -->`, the output its
 * `console.log(…) // <output>` line promises, and the packages it imports.
 */
export function readmeExample(text) {
  const block = /<!-- client-example:start[^>]*-->\s*```js\n([\s\S]*?)```\s*<!-- client-example:end -->/.exec(
    text,
  );
  if (!block) {
    throw new Error("no ```js block between <!-- client-example:start --> and <!-- client-example:end -->");
  }
  const code = block[1];
  const printed = /console\.log\([^\n]*\/\/ (.+)$/m.exec(code);
  if (!printed) throw new Error("the example has no `console.log(…) // <what it prints>` line");
  const imports = [...code.matchAll(/^import [^\n]* from "([^"]+)";$/gm)].map((m) => m[1]);
  return { code, expected: printed[1].trim(), imports };
}
