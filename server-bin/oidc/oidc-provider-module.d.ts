// oidc-provider 9 ships no type declarations; Gatehouse (server-bin/oidc) and the tests use it
// through `any`, at the few places it is configured and called.
declare module 'oidc-provider' {
  const Provider: any;
  export default Provider;
  export const ExternalSigningKey: any;
}
