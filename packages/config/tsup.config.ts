import { writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { defineConfig } from "tsup";
import { configValidatorCode, GENERATED_VALIDATOR } from "./scripts/config-validator.js";
import { configSchema } from "./src/schema.js";

// Before the bundle is built, which imports it.
writeFileSync(GENERATED_VALIDATOR, configValidatorCode());

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
