/**
 * The user of the conformance runs: the suite's authorization servers approve at once and redirect,
 * so "authorizing" is a GET of the authorization URL, not followed, whose Location is the redirect
 * back with code, state and iss (what the official SDK's conformance client does too). mcpx checks
 * the answer afterwards as it would any browser's.
 */
import type { AuthorizationRequest, Authorizer } from "@mcpx/auth-oauth";

export const headlessAuthorizer: Authorizer = {
  async authorize(request: AuthorizationRequest): Promise<URLSearchParams> {
    const res = await fetch(request.url, { redirect: "manual", signal: AbortSignal.timeout(10_000) });
    await res.body?.cancel();
    const location = res.headers.get("location");
    if (location === null) {
      throw new Error(`the authorization endpoint answered HTTP ${res.status} without a redirect`);
    }
    const back = new URL(location, request.url);
    const expected = new URL(request.redirectUri);
    if (back.origin !== expected.origin || back.pathname !== expected.pathname) {
      throw new Error(
        `the authorization endpoint redirected to ${back.origin}${back.pathname}, not the redirect URI`,
      );
    }
    return back.searchParams;
  },
};
