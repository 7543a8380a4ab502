import { writeFile } from "node:fs/promises";
import { defineConfig } from "tsup";
import { configSchema } from "./src/schema.js";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "node20",
  // The schema, as a file editors can point `$schema` at.
  async onSuccess() {
    await writeFile(
      new URL("./schemas/mcpx.schema.json", import.meta.url),
      `${JSON.stringify(configSchema, null, 2)}\n`,
    );
  },
});
