/**
 * Which URLs a URL-mode elicitation may show: https anywhere, and http only to this machine
 * (loopback: a local sign-in helper). Anything else — http to another host, javascript:, data:,
 * file:, a URL that does not parse, one carrying credentials — is refused: not shown, answered
 * decline (elicitation.mdx §Safe URL Handling: show the full URL, highlight the domain, no prefetch).
 */
export type UrlVerdict = { ok: true; url: string; host: string } | { ok: false; reason: string };

export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  if (h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  // 127.0.0.0/8
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export function checkElicitationUrl(raw: unknown): UrlVerdict {
  if (typeof raw !== "string" || raw === "") return { ok: false, reason: "no URL was given" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "the URL does not parse" };
  }
  if (url.username !== "" || url.password !== "") {
    return { ok: false, reason: "the URL carries credentials (user:password@)" };
  }
  if (url.protocol === "https:") return { ok: true, url: raw, host: url.host };
  if (url.protocol === "http:") {
    if (isLoopbackHostname(url.hostname)) return { ok: true, url: raw, host: url.host };
    return {
      ok: false,
      reason: "plain http to a host other than this machine (only https, or http to loopback)",
    };
  }
  return { ok: false, reason: `the scheme ${url.protocol} is not https (only https, or http to loopback)` };
}
