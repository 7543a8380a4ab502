/**
 * The index names its exports one by one (no `export *`), so what core offers is read in one file.
 * A value a module exports and the index forgets would be unreachable: every one must be there.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as core from "../src/index.js";

describe("core's index", () => {
  it("core/named-exports-cover-every-module", async () => {
    const src = new URL("../src/", import.meta.url);
    const modules = readdirSync(src).filter((f) => f.endsWith(".ts") && f !== "index.ts");
    const forgotten: string[] = [];
    for (const file of modules) {
      const mod = (await import(new URL(file, src).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) {
        if ((core as Record<string, unknown>)[name] !== value) forgotten.push(`${file}: ${name}`);
      }
    }
    expect(forgotten).toEqual([]);
    expect(Object.keys(core).length).toBeGreaterThan(50);
  });
});
