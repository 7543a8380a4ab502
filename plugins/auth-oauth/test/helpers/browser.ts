/**
 * A user at a browser, for oidc-provider's development interactions: follows the authorization
 * URL's redirects (with the cookies they set), signs in as `user`, consents, and hands back the
 * parameters of the redirect to the redirect URI, as a browser on the loopback listener would. It
 * records each authorization URL it was given.
 */
import type { AuthorizationRequest, Authorizer } from "../../src/index.js";

export interface TestBrowser extends Authorizer {
  /** Every authorization URL, in order. */
  requests: URL[];
}

/** `tamper` may change the redirect's parameters, as an attacker in the middle would. */
export function testBrowser(tamper?: (params: URLSearchParams) => void): TestBrowser {
  const requests: URL[] = [];
  return {
    requests,
    async authorize(request: AuthorizationRequest): Promise<URLSearchParams> {
      requests.push(new URL(request.url));
      const cookies = new Map<string, string>();
      const go = async (url: URL, init: RequestInit = {}) => {
        const res = await fetch(url, {
          ...init,
          redirect: "manual",
          headers: {
            ...(init.headers as Record<string, string>),
            cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
          },
        });
        for (const line of res.headers.getSetCookie()) {
          const [pair = ""] = line.split(";");
          const eq = pair.indexOf("=");
          cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
        }
        return res;
      };
      let res = await go(request.url);
      for (let step = 0; step < 12; step++) {
        const location = res.headers.get("location");
        await res.body?.cancel();
        if (location === null)
          throw new Error(`the authorization server answered HTTP ${res.status} without a redirect`);
        const next = new URL(location, request.url);
        if (next.href.startsWith(request.redirectUri)) {
          const params = new URLSearchParams(next.searchParams);
          tamper?.(params);
          return params;
        }
        if (!next.pathname.startsWith("/interaction/")) {
          res = await go(next);
          continue;
        }
        const page = await (await go(next)).text();
        const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
        if (prompt === undefined) throw new Error("the interaction page has no prompt");
        const body = new URLSearchParams({ prompt, login: "user", password: "any" });
        res = await go(next, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: body.toString(),
        });
      }
      throw new Error("too many redirects");
    },
  };
}
