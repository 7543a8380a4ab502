/**
 * The store a config's `store` selects: `{ "type": "redis", ...options }` names a registered
 * StoreFactory, whose optionsSchema checks the rest before it is made. Problems are ConfigErrors
 * naming `store.<key>`; an unknown type lists the known ones.
 */
import {
  ConfigError,
  type JSONObject,
  type RegistryView,
  type StateStore,
  type StoreContext,
  type StoreFactory,
} from "@mcpx/core";
import type { Ajv, ValidateFunction } from "ajv";
import { loadAjv } from "./lazy-ajv.js";
import { describeSchemaErrors } from "./schema-errors.js";

let ajv: Ajv | undefined;
const validators = new WeakMap<StoreFactory, ValidateFunction>();

/**
 * The factory for `selection.type`, its options checked. `alsoKnown`: types the app could load
 * but has not (a built-in store plugin imported only when selected), for the list of known ones.
 */
export function storeFactoryFor(
  registry: RegistryView,
  selection: JSONObject,
  alsoKnown: readonly string[] = [],
): { factory: StoreFactory; options: JSONObject } {
  const { type, ...options } = selection;
  if (typeof type !== "string" || type === "")
    throw new ConfigError("store.type: must be a non-empty string");
  const factory = registry.store(type);
  if (!factory) {
    const known = [...new Set([...registry.stores().map((f) => f.type), ...alsoKnown])].sort();
    const list = known.length > 0 ? `known: ${known.join(", ")}` : "no store plugin is installed";
    throw new ConfigError(
      `store.type: no installed plugin provides the store type ${JSON.stringify(type)}; ${list} (a store plugin is listed in "plugins")`,
    );
  }
  if (factory.optionsSchema) {
    let validate = validators.get(factory);
    if (!validate) {
      // ajv only when a store with options is selected: a daemon without `store` never loads it.
      ajv ??= new (loadAjv())({ allErrors: true, strict: false, verbose: true });
      validate = ajv.compile(factory.optionsSchema);
      validators.set(factory, validate);
    }
    if (!validate(options)) {
      const problems = describeSchemaErrors(validate.errors, "store");
      throw new ConfigError(problems.join("; "), problems);
    }
  }
  return { factory, options };
}

/** Makes the store a config selects (see storeFactoryFor); connecting may fail with its own error. */
export async function createStore(
  registry: RegistryView,
  selection: JSONObject,
  ctx: StoreContext,
  alsoKnown: readonly string[] = [],
): Promise<StateStore> {
  const { factory, options } = storeFactoryFor(registry, selection, alsoKnown);
  return factory.create(options, ctx);
}
