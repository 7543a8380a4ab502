/** The MCP protocol revisions the strict validators know, oldest first. */
export const REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;

export type Revision = (typeof REVISIONS)[number];

export function isRevision(value: string): value is Revision {
  return (REVISIONS as readonly string[]).includes(value);
}
