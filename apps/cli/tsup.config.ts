import { defineConfig } from "tsup";

export default defineConfig({
  // bin.ts starts with a shebang; tsup keeps it and makes dist/bin.js executable.
  entry: ["src/bin.ts", "src/index.ts"],
  format: ["esm"],
  dts: { entry: "src/index.ts" },
  sourcemap: true,
  clean: true,
  target: "node20",
});
