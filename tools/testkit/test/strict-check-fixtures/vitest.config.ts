/** Runs the fixture files of strict-check.test.ts with the testkit's own strict-check setup. */
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { conditions: ["@mcpx/source"] },
  ssr: { resolve: { conditions: ["@mcpx/source"] } },
  test: { include: ["*.fixture.ts"], setupFiles: ["../strict-check.setup.ts"] },
});
