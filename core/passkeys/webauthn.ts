/**
 * `@simplewebauthn/server` and its helpers, imported on first use: about 23 MB resident that a
 * server whose users never touch passkeys does not pay (docs/benchmarks.md "Start time and memory").
 */
export async function loadWebAuthn(): Promise<{
  server: typeof import('@simplewebauthn/server');
  helpers: typeof import('@simplewebauthn/server/helpers');
}> {
  loaded ??= Promise.all([import('@simplewebauthn/server'), import('@simplewebauthn/server/helpers')]).then(([server, helpers]) => ({
    server,
    helpers,
  }));
  return loaded;
}

let loaded: ReturnType<typeof loadWebAuthn> | null = null;
