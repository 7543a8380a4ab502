/**
 * Checking an auth scheme the way applyAuth will: its options against its optionsSchema (errors as
 * `<root>.<key>: <rule>`), and what apply() refuses. Shared by the auth plugins' tests.
 */
import { type AuthScheme, type AuthTarget, ConfigError, type JSONObject } from "@mcpx/core";
import { describeSchemaErrors } from "@mcpx/host";
import { Ajv } from "ajv";

export function schemeChecks(scheme: AuthScheme, defaults: { target: AuthTarget; root: string }) {
  const validate = new Ajv({ allErrors: true, strict: false, verbose: true }).compile(
    scheme.optionsSchema ?? {},
  );
  return {
    /** The schema's problems with these options, each naming the key path and the rule. */
    schemaErrors(options: JSONObject): string[] {
      return validate(options) ? [] : describeSchemaErrors(validate.errors, defaults.root);
    },
    /** The ConfigError apply() throws for these options; throws if it throws none or another kind. */
    refusal(options: JSONObject, target: AuthTarget = defaults.target): ConfigError {
      try {
        scheme.apply(options, target);
      } catch (err) {
        if (err instanceof ConfigError) return err;
        throw new Error(`expected a ConfigError, got ${String(err)}`);
      }
      throw new Error("expected a ConfigError, got none");
    },
  };
}
