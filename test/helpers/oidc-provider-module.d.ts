// oidc-provider 9 ships no type declarations; the tests use a small part of it through `any`.
declare module 'oidc-provider' {
  const Provider: any;
  export default Provider;
}
