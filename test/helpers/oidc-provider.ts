import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

/** A real OpenID provider (`oidc-provider`, dev interactions on) on a loopback port. */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Every token request the provider received (grant types), to tell a refresh from a cache hit. */
  tokenRequests: string[];
  close(): Promise<void>;
}

/**
 * Starts `oidc-provider` on 127.0.0.1 with one confidential client allowed to redirect to
 * `redirectUris`, PKCE required, refresh tokens issued, and accounts whose email is
 * `<login>@example.test` (verified) and name `User <login>`. `port` reuses a port (an issuer whose
 * redirect URIs are only known once a client was registered elsewhere with its URL).
 */
/**
 * Starts the provider. With `groups` (login → group names) the ID Token also carries a `groups`
 * claim (and the profile claims, as Okta and Entra ID put configured claims in it).
 */
export async function startOidcProvider(
  redirectUris: string[],
  options: { port?: number; groups?: Record<string, string[]> } = {},
): Promise<TestOidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const clientId = 'gatehouse-test-client';
  const clientSecret = 'gatehouse-test-client-secret-0123456789';
  const tokenRequests: string[] = [];
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    features: { devInteractions: { enabled: true } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: options.groups ? ['name', 'groups'] : ['name'] },
    ...(options.groups ? { conformIdTokenClaims: false } : {}),
    scopes: ['openid', 'offline_access', 'email', 'profile', 'extra:read'],
    pkce: { required: () => true },
    issueRefreshToken: async () => true,
    cookies: { keys: ['test-cookie-key-0123456789'] },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({
        sub,
        email: `${sub}@example.test`,
        email_verified: true,
        name: `User ${sub}`,
        ...(options.groups ? { groups: options.groups[sub] ?? [] } : {}),
      }),
    }),
  } as any);
  provider.on('grant.success', (ctx: any) => {
    tokenRequests.push(String(ctx.oidc?.params?.grant_type ?? ''));
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    tokenRequests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A tiny cookie jar for driving a browser-like redirect chain with `fetch`. */
export class CookieJar {
  private cookies = new Map<string, Map<string, string>>();

  header(url: string): string {
    const jar = this.cookies.get(new URL(url).host);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }

  store(url: string, response: Response): void {
    const host = new URL(url).host;
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    this.cookies.set(host, jar);
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header(url);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(url, response);
    return response;
  }
}

/**
 * Follows a provider's redirects from `startUrl` like a browser, submitting oidc-provider's dev
 * login form (as `login`) and consent form, until a redirect leaves for `stopPrefix`.
 *
 * @returns the URL the provider finally redirects to (the Gatehouse callback).
 */
export async function signInAtProvider(jar: CookieJar, startUrl: string, login: string, stopPrefix: string): Promise<string> {
  let url = startUrl;
  let method = 'GET';
  let body: URLSearchParams | undefined;
  for (let i = 0; i < 20; i++) {
    if (url.startsWith(stopPrefix)) return url;
    const response = await jar.fetch(url, {
      method,
      ...(body ? { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } } : {}),
    });
    method = 'GET';
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url).toString();
      await response.arrayBuffer();
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`provider answered ${response.status}: ${html.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form on provider page: ${html.slice(0, 300)}`);
    url = new URL(action.replace(/&amp;/g, '&'), url).toString();
    method = 'POST';
    body = html.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
      : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('too many redirects at the provider');
}
