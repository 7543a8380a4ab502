/** The config `mcpx config init` writes: loopback on the default port, and no servers yet. */
import { DEFAULT_LISTEN } from "../load.js";

export interface StarterOptions {
  /** `"$schema"`: where editors find the schema (a path relative to the config, or a URL). */
  schema?: string;
}

export function starterConfig(options: StarterOptions = {}): string {
  const config = {
    ...(options.schema === undefined ? {} : { $schema: options.schema }),
    listen: { host: DEFAULT_LISTEN.host, port: DEFAULT_LISTEN.port },
    servers: {},
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
