/**
 * How mcpx names a key in a config or options object, in errors: `servers.fs.args[0]`,
 * `servers["my server"].env.A_B`. Auth plugins name the key they refuse with it, and the host's
 * describeSchemaErrors names the keys a schema refuses the same way.
 */

/** `["servers", "fs", "args", 0]` → `servers.fs.args[0]`; after `root` when given. */
export function formatKeyPath(segments: readonly (string | number)[], root = ""): string {
  return segments.reduce<string>((acc, seg) => joinPath(acc, String(seg)), root);
}

function joinPath(base: string, seg: string): string {
  if (seg === "") return base;
  if (/^\d+$/.test(seg)) return `${base}[${seg}]`;
  if (!/^[A-Za-z_$][\w$-]*$/.test(seg)) return `${base}[${JSON.stringify(seg)}]`;
  return base ? `${base}.${seg}` : seg;
}
