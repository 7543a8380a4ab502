import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configValidatorCode, GENERATED_VALIDATOR } from "../scripts/config-validator.js";

describe("config", () => {
  it("config/generated-validator-is-what-the-schema-generates", () => {
    // The build writes it; a schema changed without a build would validate against the old rules.
    expect(readFileSync(GENERATED_VALIDATOR, "utf8")).toBe(configValidatorCode());
  });
});
