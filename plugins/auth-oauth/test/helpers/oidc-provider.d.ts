// oidc-provider ships no types; the tests use it through the few calls authorization-server.ts makes.
declare module "oidc-provider" {
  // biome-ignore lint/suspicious/noExplicitAny: untyped third-party module
  const Provider: any;
  // biome-ignore lint/suspicious/noExplicitAny: untyped third-party module
  type Provider = any;
  export default Provider;
}
