import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys } from '../helpers/api.ts';
import { startSmtpReceiver, uniqueEmail } from '../helpers/smtp.ts';

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

/**
 * Wire checks moved out of core tests ("Core tests without HTTP"): what the HTTP host
 * makes of a request's headers and body and of core's answers (status, known-error headers,
 * exact bodies, cookies). Each test names the core test file its domain behaviour stayed in.
 */
describeWithServer('wire answers moved from core tests', (get) => {
  // From core/anonymous/anonymous.test.ts.
  it('anonymous sign-up: a POST with no body and no content-type (as the official SDK sends it) answers 200 with the tokens', async () => {
    const server = get();
    const { client, projectId } = await createProject(server);
    const res = await fetch(`${server.url}/api/v1/auth/anonymous/sign-up`, {
      method: 'POST',
      headers: { 'x-stack-project-id': projectId, 'x-stack-access-type': 'client', 'x-stack-admin-access-token': client.adminAccessToken! },
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'refresh_token', 'user_id']);
  });

  // From core/anonymous/anonymous.test.ts.
  it('anonymous tokens: x-stack-allow-anonymous-user: true admits them, its absence is ANONYMOUS_AUTHENTICATION_NOT_ALLOWED with the known-error headers', async () => {
    const server = get();
    const { client } = await createProject(server);
    const anon = await api(server, 'POST', '/auth/anonymous/sign-up', client);
    assert.equal(anon.status, 200, anon.text);
    const me = await api(server, 'GET', '/users/me', {
      ...client,
      accessToken: anon.body.access_token,
      headers: { 'x-stack-allow-anonymous-user': 'true' },
    });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.id, anon.body.user_id);
    assertKnownError(
      await api(server, 'GET', '/users/me', { ...client, accessToken: anon.body.access_token }),
      'ANONYMOUS_AUTHENTICATION_NOT_ALLOWED',
      401,
    );
    assertKnownError(
      await api(server, 'GET', '/users/me', {
        ...client,
        accessToken: anon.body.access_token,
        headers: { 'x-stack-allow-restricted-user': 'true' },
      }),
      'ANONYMOUS_AUTHENTICATION_NOT_ALLOWED',
      401,
    );
    assertKnownError(
      await api(server, 'POST', '/auth/anonymous/sign-up', { projectId: client.projectId, accessType: 'client' }, { display_name: 'x' }),
      'SCHEMA_ERROR',
      400,
    );
  });

  // From core/notifications/unsubscribe.test.ts.
  it('unsubscribe link: a mail client\'s one-click form POST and a browser\'s GET answer 200 HTML; a short code answers 400 text "Invalid code"', async () => {
    const server = get();
    const { server: srv, projectId } = await createProject(server, {
      email_config: {
        type: 'standard',
        host: '127.0.0.1',
        port: smtp.port,
        username: 'u',
        password: 'p',
        sender_name: 'Acme',
        sender_email: 'noreply@acme.example.com',
      },
    });
    const email = uniqueEmail('wire-news');
    const user = await api(server, 'POST', '/users', srv, { primary_email: email, primary_email_verified: true });
    const sent = await api(server, 'POST', '/emails/send-email', srv, {
      user_ids: [user.body.id],
      html: '<p>Big news</p>',
      subject: 'News',
      notification_category_name: 'Marketing',
    });
    assert.equal(sent.status, 200, sent.text);
    const mail = await smtp.waitFor((m) => m.to.includes(email) && m.subject === 'News');
    const line = mail.raw.headerLines
      .find((h) => h.key === 'list-unsubscribe')!
      .line.replace(/^[^:]+:\s*/, '')
      .replace(/\r?\n\s+/g, '');
    const link = line.slice(1, -1);
    assert.ok(link.startsWith(`${server.url}/api/v1/emails/unsubscribe-link?`), link);
    const oneClick = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(oneClick.status, 200);
    assert.match(oneClick.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(await oneClick.text(), '<p>Successfully unsubscribed from notification group</p>');
    const again = await fetch(link);
    assert.equal(again.status, 200);
    assert.equal(await again.text(), '<p>You have already unsubscribed from this notification group</p>');
    const short = await fetch(`${server.url}/api/v1/emails/unsubscribe-link?code=abc`);
    assert.equal(short.status, 400);
    assert.equal(await short.text(), 'Invalid code');
    assertKnownError(
      await api(server, 'GET', `/emails/unsubscribe-link?code=${'a'.repeat(45)}&project_id=${projectId}`),
      'VERIFICATION_CODE_NOT_FOUND',
      404,
    );
  });

  // From core/api-keys/api-keys.test.ts.
  it('API keys while the feature is off: 400 with the plain text message, no known-error code', async () => {
    const server = get();
    const p = await createProject(server);
    const res = await api(server, 'POST', '/team-api-keys/check', p.server, { api_key: 'x' });
    assert.equal(res.status, 400);
    assert.equal(res.text, 'Team API keys are not enabled for this project.');
    assert.equal(res.headers.get('x-stack-known-error'), null);
  });

  // From core/sessions/sessions.test.ts.
  it('OAuth refresh_token grant as the official SDK posts it (a form body): 200 with a Bearer token, refusals with the known-error header', async () => {
    const server = get();
    const p = await createProject(server);
    const user = await api(server, 'POST', '/users', p.server, {});
    const session = await api(server, 'POST', '/auth/sessions', p.server, { user_id: user.body.id });
    const form = (fields: Record<string, string>) =>
      fetch(`${server.url}/api/v1/auth/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', accept: 'application/json' },
        body: new URLSearchParams(fields).toString(),
      });
    const ok = await form({
      grant_type: 'refresh_token',
      refresh_token: session.body.refresh_token,
      client_id: p.projectId,
      client_secret: '__stack_public_client__',
    });
    assert.equal(ok.status, 200);
    const body = (await ok.json()) as Record<string, unknown>;
    assert.equal(body.token_type, 'Bearer');
    assert.equal(decodeJwt(body.access_token as string).sub, user.body.id);
    const bad = await form({
      grant_type: 'refresh_token',
      refresh_token: 'nope',
      client_id: p.projectId,
      client_secret: '__stack_public_client__',
    });
    assert.equal(bad.status, 401);
    assert.equal(bad.headers.get('x-stack-known-error'), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    const wrongClient = await form({
      grant_type: 'refresh_token',
      refresh_token: session.body.refresh_token,
      client_id: p.projectId,
      client_secret: 'pck_wrong',
    });
    assert.equal(wrongClient.headers.get('x-stack-known-error'), 'INVALID_OAUTH_CLIENT_ID_OR_SECRET');
  });

  // From core/sessions/sessions.test.ts.
  it("JWKS: cacheable for an hour; an unknown project answers 404; deleting another user's session answers 404 text", async () => {
    const server = get();
    const p = await createProject(server);
    const res = await fetch(`${server.url}/api/v1/projects/${p.projectId}/.well-known/jwks.json`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
    assert.equal(((await res.json()) as { keys: unknown[] }).keys.length, 2);
    assert.equal((await fetch(`${server.url}/api/v1/projects/7b0f3a52-2a1c-4d59-8e0e-1b8c2a5d6f70/.well-known/jwks.json`)).status, 404);
    const owner = await api(server, 'POST', '/users', p.server, {});
    const other = await api(server, 'POST', '/users', p.server, {});
    const ownerSession = await api(server, 'POST', '/auth/sessions', p.server, { user_id: owner.body.id });
    const otherSession = await api(server, 'POST', '/auth/sessions', p.server, { user_id: other.body.id });
    const ownerSessionId = decodeJwt(ownerSession.body.access_token).refresh_token_id as string;
    const foreign = await api(server, 'DELETE', `/auth/sessions/${ownerSessionId}?user_id=me`, {
      ...p.client,
      accessToken: otherSession.body.access_token,
    });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.text, 'Session not found.');
  });

  // From core/sessions/activity-writer.test.ts.
  it('answers 50 concurrent refreshes over HTTP with 200 and writes every session', async () => {
    const server = get();
    const p = await createProject(server);
    const keys = await createProjectKeys(server, p.admin);
    const client = { projectId: p.projectId, accessType: 'client' as const, publishableClientKey: keys.publishableClientKey };
    const user = await api(server, 'POST', '/users', p.server, {});
    const refreshTokens: string[] = [];
    for (let i = 0; i < 50; i++)
      refreshTokens.push((await api(server, 'POST', '/auth/sessions', p.server, { user_id: user.body.id })).body.refresh_token);
    server.clock.advance(30_000);
    const answers = await Promise.all(
      refreshTokens.map((refreshToken) => api(server, 'POST', '/auth/sessions/current/refresh', { ...client, refreshToken })),
    );
    for (const res of answers) assert.equal(res.status, 200, res.text);
    const sessions = await server.gatehouse.core.runtime.db
      .selectFrom('refresh_tokens')
      .select('last_used_at')
      .where('user_id', '=', user.body.id)
      .execute();
    assert.deepEqual(
      sessions.map((s) => Number(s.last_used_at)),
      refreshTokens.map(() => server.clock.now()),
    );
  });
});
