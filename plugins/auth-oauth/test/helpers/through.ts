/**
 * A request as an HTTP transport sends it with live credentials: @mcpx/http's sendWithCredentials,
 * which asks the session for headers and tells it of each 401 or 403.
 */
import type { LiveCredentials } from "@mcpx/core";
import { HttpClient, readText, sendWithCredentials } from "@mcpx/http";

export interface Answer {
  status: number;
  body: string;
}

export async function through(auth: LiveCredentials, url: string, needScope?: string): Promise<Answer> {
  const http = new HttpClient("test");
  try {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (needScope) headers["X-Need-Scope"] = needScope;
    const res = await sendWithCredentials(http, auth, "POST", new URL(url), headers, "{}");
    return { status: res.status, body: await readText(res.body) };
  } finally {
    await http.destroy();
  }
}
