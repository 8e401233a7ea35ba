import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AsyncCache, CACHE_UNSUBSCRIBE_DELAY_MS } from './cache.ts';
import { ClientApp } from './client-app.ts';
import { manualEnvironment } from './env.ts';
import { GatehouseConfigError, GatehouseKnownError, GatehouseNetworkError, GatehouseStatusError, UserNotSignedInError } from './errors.ts';
import { assertTrustedRedirect, resolveUrls, returnToFrom, withReturnTo } from './redirect.ts';
import { ServerApp } from './server-app.ts';
import { fakeJwt, fakeTransport, type FakeAnswer } from './test-support.ts';
import { cookieTokenStore, memoryTokenStore, tokensFromAuthHeader } from './tokens.ts';
import type { TransportRequest } from './transport.ts';

const PROJECT = '6a3c1f0e-1c2b-4d5e-9f00-123456789abc';
const USER = {
  id: 'u1',
  display_name: 'Ada',
  primary_email: 'ada@example.com',
  primary_email_verified: true,
  profile_image_url: null,
  signed_up_at_millis: 1000,
  client_metadata: {},
  client_read_only_metadata: {},
  has_password: true,
  auth_with_email: true,
  otp_auth_enabled: false,
  passkey_auth_enabled: false,
  requires_totp_mfa: false,
  is_anonymous: false,
  selected_team_id: null,
  selected_team: null,
  oauth_providers: [],
};

function setup(
  handler: (req: TransportRequest, i: number) => FakeAnswer,
  tokens?: { accessToken: string | null; refreshToken: string | null },
  extra: Record<string, unknown> = {},
) {
  const env = manualEnvironment();
  const transport = fakeTransport(handler);
  const store = memoryTokenStore(tokens);
  const app = new ClientApp({ projectId: PROJECT, transport, tokenStore: store, environment: env, redirectMethod: 'none', ...extra });
  return { env, transport, store, app };
}

const tokenValidFor = (env: { now(): number }, ms: number) => fakeJwt({ sub: 'u1', exp: Math.floor((env.now() + ms) / 1000) });

describe('SDK: access-token refresh', () => {
  it('uses a token with 20 s or more left and refreshes one with less than 20 s left', async () => {
    const env0 = manualEnvironment();
    const token = tokenValidFor(env0, 30_000);
    const { transport, app } = setup(
      (req) =>
        req.path === '/auth/oauth/token' ? { json: { access_token: tokenValidFor(env0, 600_000), token_type: 'Bearer' } } : { json: USER },
      { accessToken: token, refreshToken: 'rt' },
      { environment: env0 },
    );
    await app.getUser();
    assert.deepEqual(
      transport.requests.map((r) => r.path),
      ['/users/me'],
      'no refresh with 30 s left',
    );
    assert.equal(transport.requests[0]?.headers['x-stack-access-token'], token);
    env0.advance(10_001); // 19.999 s left
    app.cache.clear();
    await app.getUser();
    assert.deepEqual(
      transport.requests.map((r) => r.path),
      ['/users/me', '/auth/oauth/token', '/users/me'],
    );
    const form = new URLSearchParams(transport.requests[1]?.body);
    assert.equal(form.get('grant_type'), 'refresh_token');
    assert.equal(form.get('refresh_token'), 'rt');
    assert.equal(form.get('client_id'), PROJECT);
    assert.equal(form.get('client_secret'), '__stack_public_client__');
    assert.equal(transport.requests[1]?.headers['x-stack-project-id'], undefined, 'the token request carries no x-stack headers');
  });

  it('treats a token without exp as never expiring', async () => {
    const { transport, app } = setup(() => ({ json: USER }), { accessToken: fakeJwt({ sub: 'u1' }), refreshToken: 'rt' });
    await app.getUser();
    assert.deepEqual(
      transport.requests.map((r) => r.path),
      ['/users/me'],
    );
  });

  it('marks the session invalid and clears both tokens when the refresh fails', async () => {
    const { transport, app, store } = setup(
      (req) =>
        req.path === '/auth/oauth/token'
          ? { status: 401, knownError: 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED' }
          : { knownError: 'CANNOT_GET_OWN_USER_WITHOUT_USER', status: 400 },
      { accessToken: null, refreshToken: 'stale' },
    );
    assert.equal(await app.getUser(), null);
    assert.deepEqual(store.get(), { accessToken: null, refreshToken: null });
    assert.equal(app.session?.isKnownInvalid(), true);
    assert.equal(transport.requests[0]?.path, '/auth/oauth/token');
  });

  it('shares one refresh between concurrent calls', async () => {
    const env0 = manualEnvironment();
    const { transport, app } = setup(
      (req) =>
        req.path === '/auth/oauth/token'
          ? { json: { access_token: tokenValidFor(env0, 600_000), token_type: 'Bearer' } }
          : { json: { items: [] } },
      { accessToken: null, refreshToken: 'rt' },
      { environment: env0 },
    );
    await Promise.all([app.session!.getAccessToken(), app.session!.getAccessToken(), app.session!.getAccessToken()]);
    assert.equal(transport.requests.filter((r) => r.path === '/auth/oauth/token').length, 1);
  });

  it('marks the access token expired on INVALID_ACCESS_TOKEN answers, refreshes and retries', async () => {
    const env0 = manualEnvironment();
    const fresh = tokenValidFor(env0, 600_000);
    const { transport, app } = setup(
      (req) => {
        if (req.path === '/auth/oauth/token') return { json: { access_token: fresh, token_type: 'Bearer' } };
        return req.headers['x-stack-access-token'] === fresh ? { json: USER } : { status: 401, knownError: 'ACCESS_TOKEN_EXPIRED' };
      },
      { accessToken: tokenValidFor(env0, 300_000), refreshToken: 'rt' },
      { environment: env0 },
    );
    const user = await app.getUser();
    assert.equal(user?.displayName, 'Ada');
    assert.deepEqual(
      transport.requests.map((r) => r.path),
      ['/users/me', '/auth/oauth/token', '/users/me'],
    );
  });
});

describe('SDK: retries and backoff', () => {
  it('retries a GET after network failures 5 times with exponential backoff from 1000 ms', async () => {
    const { env, transport, app } = setup((_req, i) =>
      i < 5 ? 'network-error' : { json: { id: PROJECT, display_name: 'P', config: {} } },
    );
    const project = await app.getProject();
    assert.equal(project.display_name, 'P');
    assert.equal(transport.requests.length, 6);
    assert.deepEqual(env.sleeps, [1000, 2000, 4000, 8000, 16000], 'random() = 0.5 gives jitter factor 1');
  });

  it('applies jitter between 0.5 and 1.5', async () => {
    const env = manualEnvironment({ random: () => 0 });
    const transport = fakeTransport((_r, i) => (i < 2 ? 'network-error' : { json: {} }));
    const app = new ClientApp({ projectId: PROJECT, transport, tokenStore: null, environment: env });
    await app.getProject();
    assert.deepEqual(env.sleeps, [500, 1000]);
    const env2 = manualEnvironment({ random: () => 0.999 });
    const app2 = new ClientApp({
      projectId: PROJECT,
      transport: fakeTransport((_r, i) => (i < 1 ? 'network-error' : { json: {} })),
      tokenStore: null,
      environment: env2,
    });
    await app2.getProject();
    assert.ok(env2.sleeps[0]! > 1498 && env2.sleeps[0]! < 1500);
  });

  it('gives up after 5 retries with a network error', async () => {
    const { env, transport, app } = setup(() => 'network-error');
    await assert.rejects(app.getProject(), GatehouseNetworkError);
    assert.equal(transport.requests.length, 6);
    assert.equal(env.sleeps.length, 5);
  });

  it('does not retry a POST after a network failure', async () => {
    const { env, transport, app } = setup(() => 'network-error');
    await assert.rejects(app.signInWithCredential({ email: 'a@b.co', password: 'x', noRedirect: true }), GatehouseNetworkError);
    assert.equal(transport.requests.length, 1);
    assert.deepEqual(env.sleeps, []);
  });

  it('honours Retry-After on 429, and retries at once without it', async () => {
    const { env, transport, app } = setup((_r, i) =>
      i === 0 ? { status: 429, headers: { 'retry-after': '3' } } : i === 1 ? { status: 429 } : { json: { id: PROJECT } },
    );
    await app.getProject();
    assert.equal(transport.requests.length, 3);
    assert.deepEqual(env.sleeps, [3000, 0]);
  });

  it('retries 508 INFINITE_LOOP_DETECTED with backoff', async () => {
    const { env, app } = setup((_r, i) => (i === 0 ? { status: 508, knownError: 'INFINITE_LOOP_DETECTED' } : { json: { id: PROJECT } }));
    await app.getProject();
    assert.deepEqual(env.sleeps, [1000]);
  });
});

describe('SDK: errors', () => {
  it('rebuilds typed known errors from the header, with the catalogue status, even under the status override', async () => {
    const { app } = setup(() => ({
      status: 200,
      headers: { 'x-stack-actual-status': '409' },
      knownError: 'USER_EMAIL_ALREADY_EXISTS',
      json: { details: { email: 'a@b.co' } },
    }));
    const r = await app.signUpWithCredential({ email: 'a@b.co', password: 'password1', noRedirect: true });
    assert.equal(r.status, 'error');
    assert.ok(r.status === 'error' && r.error instanceof GatehouseKnownError);
    assert.equal(r.status === 'error' && r.error.status, 409);
    assert.equal(r.status === 'error' && r.error.is('USER_EMAIL_ALREADY_EXISTS'), true);
    assert.deepEqual(r.status === 'error' && r.error.details, { email: 'a@b.co' });
  });

  it('keeps unknown codes readable', async () => {
    const { app } = setup(() => ({ status: 418, knownError: 'SOMETHING_NEW' }));
    await assert.rejects(
      app.getProject(),
      (e: unknown) =>
        e instanceof GatehouseKnownError &&
        e.code === 'SOMETHING_NEW' &&
        !e.known &&
        e.status === 418 &&
        e.message === 'error SOMETHING_NEW',
    );
  });

  it('throws UserNotSignedInError with or: throw', async () => {
    const { app } = setup(() => ({ json: USER }));
    await assert.rejects(app.getUser({ or: 'throw' }), UserNotSignedInError);
  });

  it('hides anonymous users unless or: anonymous, which signs one up on the fly', async () => {
    const anon = { ...USER, is_anonymous: true };
    const { app, transport } = setup((req) =>
      req.path === '/auth/anonymous/sign-up'
        ? { json: { access_token: fakeJwt({ sub: 'a' }), refresh_token: 'rt-anon', user_id: 'a' } }
        : { json: anon },
    );
    assert.equal(await app.getUser(), null);
    const user = await app.getUser({ or: 'anonymous' });
    assert.equal(user?.isAnonymous, true);
    assert.ok(transport.requests.some((r) => r.path === '/auth/anonymous/sign-up' && r.body === undefined));
  });
});

describe('SDK: sign-out', () => {
  it('tolerates a refresh-token error from the server and clears the session', async () => {
    const { app, store } = setup(
      (req) => (req.method === 'DELETE' ? { status: 401, knownError: 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED' } : { json: USER }),
      { accessToken: fakeJwt({ sub: 'u1' }), refreshToken: 'rt' },
    );
    await app.signOut();
    assert.deepEqual(store.get(), { accessToken: null, refreshToken: null });
    assert.equal(await app.getUser(), null);
  });

  it("empties the signed-in user's lists still on screen without asking the server (it would answer 400 to user_id=me)", async () => {
    const channel = { id: 'c1', type: 'email', value: 'a@example.com', is_primary: true, is_verified: true, used_for_auth: true };
    const { app, transport } = setup(
      (req) =>
        req.method === 'DELETE'
          ? { json: {} }
          : req.path.startsWith('/contact-channels')
            ? { json: { items: [channel], is_paginated: false } }
            : { json: USER },
      { accessToken: fakeJwt({ sub: 'u1' }), refreshToken: 'rt' },
    );
    const key = '/contact-channels?user_id=me';
    app.cache.subscribe(key, () => {});
    assert.deepEqual(await app.cache.get(key), { items: [channel], is_paginated: false });
    await app.signOut();
    assert.deepEqual(await app.cache.get(key), { items: [], is_paginated: false });
    const lists = transport.requests.filter((r) => r.path.startsWith('/contact-channels'));
    assert.equal(lists.length, 1, `asked ${lists.length} times: only while signed in`);
  });

  it('still throws other errors', async () => {
    const { app } = setup(() => ({ status: 400, knownError: 'SCHEMA_ERROR', json: { details: { message: 'x' } } }), {
      accessToken: fakeJwt({ sub: 'u1' }),
      refreshToken: 'rt',
    });
    await assert.rejects(app.signOut(), GatehouseKnownError);
  });
});

describe('SDK: caching', () => {
  it('knows nobody is signed in without a request (no refresh token), so useUser renders at once', async () => {
    const { transport, app } = setup(() => ({ json: USER }));
    const state = app.cache.getState('/users/me');
    assert.equal(state.status, 'ok');
    assert.equal(state.status === 'ok' ? state.value : undefined, null);
    assert.equal(await app.getUser(), null);
    assert.deepEqual(transport.requests, [], 'no GET /users/me');
    const signedIn = setup(() => ({ json: USER }), { accessToken: null, refreshToken: 'rt' });
    assert.equal(signedIn.app.cache.getState('/users/me').status, 'pending', 'a stored session is asked about');
  });

  it('drops an entry 5 s after the last subscriber leaves, not before', async () => {
    const env = manualEnvironment();
    let fetches = 0;
    const cache = new AsyncCache(async () => ++fetches, env);
    const unsubscribe = cache.subscribe('k', () => {});
    assert.equal(await cache.get('k'), 1);
    env.advance(60_000);
    assert.ok(cache.has('k'), 'kept while subscribed');
    unsubscribe();
    env.advance(CACHE_UNSUBSCRIBE_DELAY_MS - 1);
    assert.ok(cache.has('k'));
    const again = cache.subscribe('k', () => {});
    again();
    env.advance(CACHE_UNSUBSCRIBE_DELAY_MS - 1);
    assert.ok(cache.has('k'), 'a new subscriber restarts the delay');
    env.advance(1);
    assert.ok(!cache.has('k'));
    assert.equal(await cache.get('k'), 2, 'refetched after the drop');
  });

  it('refetches with concurrency 1, throttled to 300 ms, collapsing waiting callers', async () => {
    const env = manualEnvironment();
    const starts: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const cache = new AsyncCache(async () => {
      starts.push(env.now());
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await Promise.resolve();
      inFlight--;
      return starts.length;
    }, env);
    await cache.get('k');
    const results = await Promise.all([cache.refresh('k'), cache.refresh('k'), cache.refresh('k'), cache.refresh('k')]);
    assert.equal(maxInFlight, 1);
    assert.equal(starts.length, 3, 'the first fetch, one refetch, one collapsed follow-up');
    assert.ok(starts[1]! - starts[0]! >= 300 && starts[2]! - starts[1]! >= 300, `starts ${starts.join(',')}`);
    assert.deepEqual(results, [2, 3, 3, 3]);
  });

  it('after a session change, drops unwatched entries and refetches watched ones without suspending', async () => {
    const env = manualEnvironment();
    let n = 0;
    const cache = new AsyncCache(async (key) => `${key}-${++n}`, env);
    cache.subscribe('watched', () => {});
    await cache.get('watched');
    await cache.get('unwatched');
    cache.invalidateAll();
    assert.ok(!cache.has('unwatched'));
    const state = cache.getState('watched');
    assert.equal(state.status === 'ok' && state.value, 'watched-1', 'still shows the old value while refetching');
    assert.equal(await cache.get('watched'), 'watched-3', 'readers get the new value');
  });

  it('holds an initial project without a request, then refreshes it like a fetched one', async () => {
    const initial = { id: PROJECT, display_name: 'Inline', config: {} };
    const { app, transport } = setup(() => ({ json: { id: PROJECT, display_name: 'Fetched', config: {} } }), undefined, {
      initialProject: initial,
    });
    assert.equal((await app.getProject()).display_name, 'Inline');
    assert.equal(transport.requests.length, 0, 'the page carried it: no GET /projects/current');
    await app.cache.refresh('/projects/current');
    assert.equal((await app.getProject()).display_name, 'Fetched');
    assert.equal(transport.requests.length, 1);
  });

  it('answers concurrent reads of one key with one fetch', async () => {
    const { app, transport } = setup(() => ({ json: { id: PROJECT } }));
    await Promise.all([app.getProject(), app.getProject(), app.getProject()]);
    assert.equal(transport.requests.length, 1);
  });
});

describe('SDK: redirect rules', () => {
  it('derives the default URLs of upstream packages/template/src/components-page/stack-handler.tsx', () => {
    const urls = resolveUrls();
    assert.equal(urls.signIn, '/handler/sign-in');
    assert.equal(urls.home, '/');
    assert.equal(urls.afterSignIn, '/');
    assert.equal(urls.afterSignUp, '/');
    assert.equal(urls.afterSignOut, '/');
    assert.equal(urls.cliAuthConfirm, '/handler/cli-auth-confirm');
    const custom = resolveUrls({ handler: '/auth', home: '/app', afterSignIn: '/dash', signUp: '/register' });
    assert.equal(custom.signIn, '/auth/sign-in');
    assert.equal(custom.signUp, '/register');
    assert.equal(custom.afterSignUp, '/dash', 'after-sign-up defaults to after-sign-in');
    assert.equal(custom.afterSignOut, '/app');
    assert.throws(() => resolveUrls({ handler: 'handler' }), /Handler path must start with \//);
  });

  it('accepts only relative redirect targets', () => {
    assert.equal(assertTrustedRedirect('/a?b=1'), '/a?b=1');
    for (const bad of ['https://evil.example/', '//evil.example', 'javascript:alert(1)', '/a b', 'relative']) {
      assert.throws(
        () => assertTrustedRedirect(bad),
        (e: unknown) => e instanceof GatehouseConfigError && /not trusted; it should be relative/.test(e.message),
        bad,
      );
    }
  });

  it('carries after_auth_return_to and honours it after sign-in only when relative', async () => {
    assert.equal(withReturnTo('/handler/sign-in', '/x?y=1'), '/handler/sign-in?after_auth_return_to=%2Fx%3Fy%3D1');
    assert.equal(returnToFrom('?after_auth_return_to=%2Fx%3Fy%3D1'), '/x?y=1');
    assert.equal(returnToFrom('?after_auth_return_to=https%3A%2F%2Fevil.example'), null);
    const visited: string[] = [];
    const { app, env } = setup(() => ({ json: { access_token: fakeJwt({ sub: 'u1' }), refresh_token: 'rt', user_id: 'u1' } }), undefined, {
      redirectMethod: {
        navigate: (u: string) => {
          visited.push(u);
        },
      },
      urls: { afterSignIn: '/welcome' },
    });
    assert.equal(app.afterAuthUrl(false, '?after_auth_return_to=%2Fback'), '/back');
    assert.equal(app.afterAuthUrl(true, ''), '/welcome');
    await app.signInWithCredential({ email: 'a@b.co', password: 'password1' });
    assert.deepEqual(visited, ['/welcome']);
    assert.deepEqual(env.sleeps, [2000], 'waits 2 s after redirecting');
  });
});

describe('SDK: connected accounts', () => {
  it('returns the access token, or null when the account is not connected or lacks the scope', async () => {
    let answer: FakeAnswer = { json: { access_token: 'gh-token' } };
    const { app, transport } = setup((req) => (req.path === '/users/me' ? { json: USER } : answer), {
      accessToken: fakeJwt({ sub: 'u1' }),
      refreshToken: 'rt',
    });
    const user = (await app.getUser())!;
    assert.equal(await user.getConnectedAccountAccessToken('github', { scopes: ['repo', 'user'] }), 'gh-token');
    const req = transport.requests.at(-1)!;
    assert.equal(req.path, '/connected-accounts/me/github/access-token');
    assert.deepEqual(JSON.parse(req.body!), { scope: 'repo user' });
    answer = { status: 400, knownError: 'OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE' };
    assert.equal(await user.getConnectedAccountAccessToken('github'), null);
    answer = { status: 400, knownError: 'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER' };
    assert.equal(await user.getConnectedAccountAccessToken('github'), null);
    answer = { status: 400, knownError: 'SCHEMA_ERROR', json: { details: { message: 'x' } } };
    await assert.rejects(user.getConnectedAccountAccessToken('github'), GatehouseKnownError);
  });
});

describe('SDK: command-line login', () => {
  it('polls every 2000 ms until success (201) and stores the refresh token', async () => {
    const statuses = ['waiting', 'waiting', 'success'];
    const { app, env, transport } = setup((req) => {
      if (req.path === '/auth/cli') return { json: { polling_code: 'poll', login_code: 'login code' } };
      const status = statuses.shift()!;
      return status === 'success' ? { status: 201, json: { status, refresh_token: 'cli-rt' } } : { json: { status } };
    });
    const links: string[] = [];
    const r = await app.promptCliLogin({ appUrl: 'https://app.example.com/', promptLink: (u) => links.push(u) });
    assert.deepEqual(r, { status: 'ok', data: { refreshToken: 'cli-rt' } });
    assert.deepEqual(links, ['https://app.example.com/handler/cli-auth-confirm?login_code=login%20code']);
    assert.deepEqual(env.sleeps, [2000, 2000]);
    assert.equal(transport.requests.filter((q) => q.path === '/auth/cli/poll').length, 3);
    assert.equal(app.session?.tokens().refreshToken, 'cli-rt');
  });

  it('reports expired and used requests, and times out after maxAttempts', async () => {
    const expired = setup((req) =>
      req.path === '/auth/cli' ? { json: { polling_code: 'p', login_code: 'l' } } : { json: { status: 'expired' } },
    );
    const r = await expired.app.promptCliLogin({ appUrl: 'https://a.example.com' });
    assert.equal(r.status === 'error' && r.error.code, 'CLI_AUTH_EXPIRED_ERROR');
    const used = setup((req) =>
      req.path === '/auth/cli' ? { json: { polling_code: 'p', login_code: 'l' } } : { json: { status: 'used' } },
    );
    assert.equal((await used.app.promptCliLogin({ appUrl: 'https://a.example.com' })).status, 'error');
    const waiting = setup((req) =>
      req.path === '/auth/cli' ? { json: { polling_code: 'p', login_code: 'l' } } : { json: { status: 'waiting' } },
    );
    await assert.rejects(
      waiting.app.promptCliLogin({ appUrl: 'https://a.example.com', maxAttempts: 3, waitTimeMillis: 500 }),
      /timed out after 3 attempts/,
    );
    assert.deepEqual(waiting.env.sleeps, [500, 500]);
  });
});

describe('SDK: apps and token stores', () => {
  it('allows one configuration per unique identifier', () => {
    const transport = fakeTransport(() => ({ json: {} }));
    new ClientApp({ projectId: PROJECT, transport, tokenStore: 'memory', uniqueIdentifier: 'sdk-test-app' });
    new ClientApp({ projectId: PROJECT, transport, tokenStore: 'memory', uniqueIdentifier: 'sdk-test-app' });
    assert.throws(
      () =>
        new ClientApp({
          projectId: PROJECT,
          transport,
          tokenStore: 'memory',
          publishableClientKey: 'pck_other',
          uniqueIdentifier: 'sdk-test-app',
        }),
      GatehouseConfigError,
    );
  });

  it('rejects a project id that is neither a UUID nor internal', () => {
    assert.throws(() => new ClientApp({ projectId: 'nope', transport: fakeTransport(() => ({})) }), /Invalid project ID/);
  });

  it('sends the request envelope of upstream apps/backend/src/route-handlers/smart-request.tsx', async () => {
    const { app, transport } = setup(
      () => ({ json: USER }),
      { accessToken: fakeJwt({ sub: 'u1' }), refreshToken: 'rt' },
      { publishableClientKey: 'pck_x' },
    );
    await app.getUser();
    const h = transport.requests[0]!.headers;
    assert.equal(h['x-stack-project-id'], PROJECT);
    assert.equal(h['x-stack-access-type'], 'client');
    assert.equal(h['x-stack-publishable-client-key'], 'pck_x');
    assert.equal(h['x-stack-refresh-token'], 'rt');
    assert.equal(h['x-stack-override-error-status'], 'true');
    assert.match(h['x-stack-client-version']!, /^(\w+)\s+(@[\w/]+)@([\d.]+)$/);
    assert.ok(h['x-stack-random-nonce']);
  });

  it('passes a browser session to the server through the x-stack-auth header', async () => {
    const access = fakeJwt({ sub: 'u1' });
    const { app } = setup(() => ({ json: USER }), { accessToken: access, refreshToken: 'rt' });
    const headers = await app.getAuthHeaders();
    assert.deepEqual(tokensFromAuthHeader(headers['x-stack-auth']), { accessToken: access, refreshToken: 'rt' });
    assert.throws(() => tokensFromAuthHeader('null'), /JSON object, not null/);
    const transport = fakeTransport(() => ({ json: { ...USER, server_metadata: { a: 1 } } }));
    const server = new ServerApp({ projectId: PROJECT, transport, secretServerKey: 'ssk_x', tokenStore: null });
    const user = await server.getUserFromTokens({ headers: new Headers(headers) });
    assert.deepEqual(user?.serverMetadata, { a: 1 });
    assert.equal(transport.requests[0]?.headers['x-stack-access-type'], 'server');
    assert.equal(transport.requests[0]?.headers['x-stack-access-token'], access);
  });

  it('cookie store: refresh cookie for 1 year, access cookie for 1 day as a JSON pair, polled every 100 ms', () => {
    const env = manualEnvironment();
    const jar = new Map<string, string>();
    const written: string[] = [];
    const doc = {
      get cookie() {
        return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      },
      set cookie(line: string) {
        written.push(line);
        const [pair] = line.split(';');
        const i = pair!.indexOf('=');
        const name = pair!.slice(0, i);
        if (/max-age=0(;|$)/i.test(line)) jar.delete(name);
        else jar.set(name, pair!.slice(i + 1));
      },
    };
    const store = cookieTokenStore(PROJECT, env, doc, { secure: false });
    store.set({ accessToken: 'at', refreshToken: 'rt' });
    assert.ok(written.some((l) => l.toLowerCase().startsWith(`stack-refresh-${PROJECT}=rt; max-age=31536000`.toLowerCase())));
    assert.ok(
      written.some((l) =>
        l.toLowerCase().startsWith(`stack-access=${encodeURIComponent(JSON.stringify(['rt', 'at']))}; max-age=86400`.toLowerCase()),
      ),
    );
    assert.deepEqual(store.get(), { accessToken: 'at', refreshToken: 'rt' });
    let changes = 0;
    const stop = store.subscribe!(() => changes++);
    jar.delete(`stack-refresh-${PROJECT}`); // another tab signed out
    env.advance(99);
    assert.equal(changes, 0);
    env.advance(1);
    assert.equal(changes, 1);
    assert.deepEqual(store.get(), { accessToken: null, refreshToken: null });
    stop();
  });
});

describe('SDK: errors name the full URL', () => {
  it('a network failure and a status error name the request URL, not just the path', async () => {
    const env = manualEnvironment({
      fetch: async (input) => {
        if (String(input).includes('/projects/current')) throw new TypeError('Failed to fetch');
        return new Response('Internal Server Error', { status: 500 });
      },
    });
    const app = new ClientApp({ projectId: PROJECT, baseUrl: 'https://auth.example.com/base/', tokenStore: null, environment: env });
    await assert.rejects(
      app.getProject(),
      (e: Error) =>
        e instanceof GatehouseNetworkError &&
        e.message.includes('https://auth.example.com/base/api/v1/projects/current') &&
        e.message.includes('Failed to fetch'),
    );
    await assert.rejects(
      app.signInWithCredential({ email: 'a@b.co', password: 'x', noRedirect: true }),
      (e: Error) =>
        e instanceof GatehouseStatusError &&
        e.url === 'https://auth.example.com/base/api/v1/auth/password/sign-in' &&
        e.message.startsWith('Request to https://auth.example.com/base/api/v1/auth/password/sign-in failed with 500'),
    );
  });
});
