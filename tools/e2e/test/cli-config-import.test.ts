/**
 * Issue 14's "done when": `mcpx config import` turns every real host config fixture (Claude Desktop,
 * Claude Code, Cursor, VS Code, Windsurf, Codex: packages/config/test/fixtures/hosts) into a config
 * that `mcpx config check` accepts. The built CLI (apps/cli/dist) runs, as a user runs it, so build
 * first (`pnpm build`, or turbo run build --filter=mcpx...).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repo = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = join(repo, "apps/cli/dist/bin.js");
const HOSTS = join(repo, "packages/config/test/fixtures/hosts");

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** `node apps/cli/dist/bin.js <args>`: its exit code and output, whatever the code. */
async function mcpx(cwd: string, env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd, env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

describe("mcpx config import, built", () => {
  it("cli/config-import-of-every-host-fixture-checks", async () => {
    expect(existsSync(BIN), `${BIN} is missing: build first (pnpm build)`).toBe(true);
    const { fixtures } = JSON.parse(await readFile(join(HOSTS, "fixtures.json"), "utf8")) as {
      fixtures: { host: string; file: string; expected: string }[];
    };
    expect(new Set(fixtures.map((f) => f.host))).toEqual(
      new Set(["claude-desktop", "cursor", "vscode", "windsurf", "codex"]),
    );
    for (const f of fixtures) {
      const dir = await mkdtemp(join(tmpdir(), "mcpx-import-built-"));
      dirs.push(dir);
      // Only what a user's shell would have: no variable the config reads is set by accident.
      const env = { PATH: process.env.PATH ?? "", HOME: dir };
      const imported = await mcpx(dir, env, "config", "import", join(HOSTS, f.file), "--json");
      expect(imported.code, `${f.file}: ${imported.stderr}`).toBe(0);
      const report = JSON.parse(imported.stdout) as { format: string; added: string[]; env: string[] };
      expect(report.format, f.file).toBe(f.host);
      const written = JSON.parse(await readFile(join(dir, "mcpx.json"), "utf8"));
      const want = JSON.parse((await readFile(join(HOSTS, f.expected), "utf8")).replaceAll("<hosts>", HOSTS));
      expect(written, f.file).toEqual(want);

      const vars = Object.fromEntries(report.env.map((name) => [name, `value-of-${name}`]));
      const check = await mcpx(dir, { ...env, ...vars }, "config", "check", "--json");
      expect(check.code, `${f.file}: ${check.stdout}${check.stderr}`).toBe(0);
      const checked = JSON.parse(check.stdout) as { ok: boolean; servers: { name: string }[] };
      expect(checked.ok).toBe(true);
      expect(
        checked.servers.map((s) => s.name),
        f.file,
      ).toEqual(report.added);
    }
  }, 120_000); // 14 runs of the built CLI, one after the other
});
