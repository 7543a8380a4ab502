/**
 * How a user authorizes: whoever can show them the authorization URL (a browser the CLI opens, a
 * test that follows the redirects itself) and hear the redirect back. The plugin takes one through
 * createOAuthPlugin({ authorizer }); without one, as in a daemon with nobody at a browser, an
 * upstream that needs a login fails with AuthorizationRequiredError naming the command that logs in.
 */

export interface AuthorizationRequest {
  /** The upstream's config key. */
  upstream: string;
  /** The authorization URL to open (it carries the PKCE challenge and the state, no secret). */
  url: URL;
  /** Where the authorization server sends the browser back: its query is the answer. */
  redirectUri: string;
  /** The authorization server's issuer, to show the user whom they are trusting. */
  issuer: string;
}

export interface Authorizer {
  /**
   * Has the user authorize at `request.url`, and resolves with the query parameters of the
   * redirect to `request.redirectUri` (code, state, iss; or error). They are checked afterwards.
   */
  authorize(request: AuthorizationRequest): Promise<URLSearchParams>;
}
