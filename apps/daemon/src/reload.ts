/**
 * Reloading `mcpx serve`'s config without a restart (SIGHUP, the file changing, POST /.mcpx/reload):
 * the new file is loaded and checked as at start, and only then applied; a bad one is refused with
 * every problem and the running config stays. Reloads run one at a time, in order.
 */
import { type FSWatcher, watch } from "node:fs";
import * as path from "node:path";
import { type ConfigDiff, diffConfig, type Env, loadConfig, type McpxConfig } from "@mcpx/config";
import { ConfigError, type JSONRPCErrorObject } from "@mcpx/core";
import { adoptConfig, applyMissingBuiltins, checkAuthTypes, type Runtime } from "./runtime.js";

/** What caused a reload, as the config.reloaded / config.rejected events name it. */
export type ReloadTrigger = "signal" | "file" | "control";

export type ReloadOutcome = ({ reloaded: true } & ConfigDiff) | { reloaded: false; errors: string[] };

/** A reload refused: its problems travel as the error's data (`mcpx reload` prints them). */
export class ConfigRejectedError extends ConfigError {
  override toJSONRPC(): JSONRPCErrorObject {
    return { code: this.code, message: this.message, data: { errors: this.problems } };
  }
}

export class Reloader {
  readonly #runtime: Runtime;
  readonly #file: string;
  readonly #env: Env | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(runtime: Runtime, file: string, env?: Env) {
    this.#runtime = runtime;
    this.#file = path.resolve(file);
    this.#env = env;
  }

  /** Loads the file again and applies what changed; never throws for a bad config (it is refused). */
  reload(trigger: ReloadTrigger): Promise<ReloadOutcome> {
    const run = this.#queue.then(() => this.#reload(trigger));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #reload(trigger: ReloadTrigger): Promise<ReloadOutcome> {
    const { gateway, host } = this.#runtime;
    let next: McpxConfig;
    try {
      next = await loadConfig(this.#file, this.#env ? { env: this.#env } : {});
      // The plugins are the running ones (a change of `plugins` waits for a restart), and the
      // built-ins an added upstream needs (a transport or auth scheme not imported yet).
      await applyMissingBuiltins(next, host);
      checkAuthTypes(next, host);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      host.log.error(`config reload refused, the running config stays: ${err.message}`);
      gateway.emit({ type: "config.rejected", trigger, errors: err.problems });
      return { reloaded: false, errors: err.problems };
    }
    const diff = diffConfig(this.#runtime.config, next);
    adoptConfig(this.#runtime, next);
    gateway.reconfigure(
      Object.values(next.servers),
      new Set(diff.changed.map((c) => c.name)),
      next.reload.grace,
    );
    if (diff.restartOnly.length > 0) {
      host.log.warn(`config reload: ${diff.restartOnly.join(", ")} take effect when mcpx restarts`);
    }
    host.log.info(
      `config reloaded (${trigger}): ${diff.added.length} added, ${diff.removed.length} removed, ${diff.changed.length} changed`,
    );
    gateway.emit({
      type: "config.reloaded",
      trigger,
      added: diff.added,
      removed: diff.removed,
      changed: diff.changed.map((c) => c.name),
      restartOnly: diff.restartOnly,
    });
    return { reloaded: true, ...diff };
  }

  /**
   * Reloads when the file changes, once it has been quiet for `debounce` ms. The directory is
   * watched, not the file: an editor that writes a new file and renames it over the old one
   * replaces the inode a file watch would follow.
   */
  watch(): () => void {
    const dir = path.dirname(this.#file);
    const name = path.basename(this.#file);
    let timer: NodeJS.Timeout | undefined;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: false }, (_event, changed) => {
        if (changed !== null && changed.toString() !== name) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          void this.reload("file").catch((err: Error) =>
            this.#runtime.host.log.error(`config reload failed: ${err.message}`),
          );
        }, this.#runtime.config.reload.debounce);
      });
    } catch (err) {
      this.#runtime.host.log.warn(`not watching ${this.#file}: ${(err as Error).message}`);
      return () => {};
    }
    watcher.on("error", (err) => this.#runtime.host.log.warn(`config watch ended: ${err.message}`));
    return () => {
      clearTimeout(timer);
      watcher.close();
    };
  }
}
