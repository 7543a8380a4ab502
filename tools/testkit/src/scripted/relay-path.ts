import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The relay script (plain JS, so it runs from source and from the build alike). */
export function relayPath(): string {
  for (const rel of ["../../bin/relay.mjs", "../bin/relay.mjs"]) {
    const p = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(p)) return p;
  }
  throw new Error("testkit: bin/relay.mjs not found");
}
