import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, type Caller } from '../../test/helpers/api.ts';
import type { TestServer } from '../../test/helpers/server.ts';

async function signUp(server: TestServer, client: Caller) {
  const res = await api(server, 'POST', '/auth/password/sign-up', client, { email: `cli-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`, password: 'correct horse battery' });
  assert.equal(res.status, 200, res.text);
  return { userId: res.body.user_id as string, refreshToken: res.body.refresh_token as string, accessToken: res.body.access_token as string };
}

async function start(server: TestServer, client: Caller, body: Record<string, unknown> = {}) {
  const res = await api(server, 'POST', '/auth/cli', client, body);
  assert.equal(res.status, 200, res.text);
  return res.body as { polling_code: string; login_code: string; expires_at: string };
}

const poll = (server: TestServer, client: Caller, pollingCode: string) => api(server, 'POST', '/auth/cli/poll', client, { polling_code: pollingCode });

describeWithServer('CLI login', (get) => {
  it('hands the CLI a working refresh token for the confirming user exactly once, and nothing before', async () => {
    const server = get();
    const { client } = await createProject(server);
    const attempt = await start(server, client);
    assert.match(attempt.polling_code, /^[0-9a-z]{45}$/);
    assert.match(attempt.login_code, /^[0-9a-z]{45}$/);
    assert.notEqual(attempt.polling_code, attempt.login_code);
    assert.equal(new Date(attempt.expires_at).getTime(), server.clock.now() + 2 * 60 * 60 * 1000);

    const waiting = await poll(server, client, attempt.polling_code);
    assert.equal(waiting.status, 200);
    assert.deepEqual(waiting.body, { status: 'waiting' });

    const browser = await signUp(server, client);
    const check = await api(server, 'POST', '/auth/cli/complete', client, { login_code: attempt.login_code, mode: 'check' });
    assert.deepEqual(check.body, { cli_session_state: 'none' });
    const complete = await api(server, 'POST', '/auth/cli/complete', client, { login_code: attempt.login_code, refresh_token: browser.refreshToken });
    assert.equal(complete.status, 200, complete.text);
    assert.deepEqual(complete.body, { success: true });

    const success = await poll(server, client, attempt.polling_code);
    assert.equal(success.status, 201, success.text);
    assert.deepEqual(Object.keys(success.body).sort(), ['refresh_token', 'status']);
    assert.equal(success.body.status, 'success');
    assert.notEqual(success.body.refresh_token, browser.refreshToken, 'the CLI gets a session of its own');
    const refreshed = await api(server, 'POST', '/auth/sessions/current/refresh', { ...client, refreshToken: success.body.refresh_token });
    assert.equal(refreshed.status, 200, refreshed.text);
    const me = await api(server, 'GET', '/users/me', { ...client, accessToken: refreshed.body.access_token });
    assert.equal(me.body.id, browser.userId);

    assert.deepEqual((await poll(server, client, attempt.polling_code)).body, { status: 'used' });
    const again = await api(server, 'POST', '/auth/cli/complete', client, { login_code: attempt.login_code, refresh_token: browser.refreshToken });
    assert.equal(again.status, 400);
    assert.equal(again.text, 'Invalid login code or the code has expired');
  });

  it('lets only the first user confirm a login code', async () => {
    const server = get();
    const { client } = await createProject(server);
    const attempt = await start(server, client);
    const first = await signUp(server, client);
    const second = await signUp(server, client);
    assert.equal((await api(server, 'POST', '/auth/cli/complete', client, { login_code: attempt.login_code, mode: 'complete', refresh_token: first.refreshToken })).status, 200);
    const late = await api(server, 'POST', '/auth/cli/complete', client, { login_code: attempt.login_code, mode: 'complete', refresh_token: second.refreshToken });
    assert.equal(late.status, 400);
    assert.equal(late.text, 'Invalid login code or the code has expired');
  });

  it('answers expired after the attempt\'s lifetime and refuses to confirm it', async () => {
    const server = get();
    const { client } = await createProject(server);
    const attempt = await start(server, client, { expires_in_millis: 60_000 });
    assert.equal(new Date(attempt.expires_at).getTime(), server.clock.now() + 60_000);
    const browser = await signUp(server, client);
    server.clock.advance(60_001);
    assert.deepEqual((await poll(server, client, attempt.polling_code)).body, { status: 'expired' });
    const complete = await api(server, 'POST', '/auth/cli/complete', client, { login_code: attempt.login_code, refresh_token: browser.refreshToken });
    assert.equal(complete.status, 400);
  });

  it('answers expired for a confirmed attempt that was not polled in time', async () => {
    const server = get();
    const { client } = await createProject(server);
    const attempt = await start(server, client, { expires_in_millis: 60_000 });
    const browser = await signUp(server, client);
    await api(server, 'POST', '/auth/cli/complete', client, { login_code: attempt.login_code, refresh_token: browser.refreshToken });
    server.clock.advance(60_001);
    const late = await poll(server, client, attempt.polling_code);
    assert.equal(late.status, 200);
    assert.deepEqual(late.body, { status: 'expired' });
  });

  it('rejects an unknown polling code with SCHEMA_ERROR, also one from another project', async () => {
    const server = get();
    const { client } = await createProject(server);
    const other = await createProject(server);
    const unknown = await poll(server, client, 'invalid-code');
    assertKnownError(unknown, 'SCHEMA_ERROR', 400);
    assert.equal(unknown.body.error, 'The polling code is invalid or does not exist.');
    const attempt = await start(server, client);
    assertKnownError(await poll(server, other.client, attempt.polling_code), 'SCHEMA_ERROR', 400);
    const browser = await signUp(server, other.client);
    const cross = await api(server, 'POST', '/auth/cli/complete', other.client, { login_code: attempt.login_code, refresh_token: browser.refreshToken });
    assert.equal(cross.status, 400);
  });

  it('refuses to complete without a refresh token, with an unknown one, or with another project\'s', async () => {
    const server = get();
    const { client } = await createProject(server);
    const other = await createProject(server);
    const attempt = await start(server, client);
    const missing = await api(server, 'POST', '/auth/cli/complete', client, { login_code: attempt.login_code, mode: 'complete' });
    assert.equal(missing.status, 400);
    assert.match(missing.text, /refresh_token is required/);
    const invalid = await api(server, 'POST', '/auth/cli/complete', client, { login_code: attempt.login_code, refresh_token: 'invalid-refresh-token-that-does-not-exist' });
    assert.equal(invalid.status, 400);
    assert.match(invalid.text, /Invalid refresh token/);
    const foreign = await signUp(server, other.client);
    const cross = await api(server, 'POST', '/auth/cli/complete', client, { login_code: attempt.login_code, refresh_token: foreign.refreshToken });
    assert.equal(cross.status, 400);
    assert.deepEqual((await poll(server, client, attempt.polling_code)).body, { status: 'waiting' });
  });

  it('lets the page see and claim the CLI\'s anonymous session once, and then complete as a real user', async () => {
    const server = get();
    const { client } = await createProject(server);
    const anon = await api(server, 'POST', '/auth/anonymous/sign-up', client);
    const attempt = await start(server, client, { anon_refresh_token: anon.body.refresh_token });
    assert.deepEqual((await api(server, 'POST', '/auth/cli/complete', client, { login_code: attempt.login_code, mode: 'check' })).body, { cli_session_state: 'anonymous' });
    const claim = await api(server, 'POST', '/auth/cli/complete', client, { login_code: attempt.login_code, mode: 'claim-anon-session' });
    assert.equal(claim.status, 200, claim.text);
    assert.deepEqual(Object.keys(claim.body).sort(), ['access_token', 'refresh_token']);
    const me = await api(server, 'GET', '/users/me', { ...client, accessToken: claim.body.access_token, headers: { 'x-stack-allow-anonymous-user': 'true' } });
    assert.equal(me.body.id, anon.body.user_id);
    const twice = await api(server, 'POST', '/auth/cli/complete', client, { login_code: attempt.login_code, mode: 'claim-anon-session' });
    assert.equal(twice.status, 400);
    assert.match(twice.text, /No anonymous session associated with this code/);
    assert.deepEqual((await api(server, 'POST', '/auth/cli/complete', client, { login_code: attempt.login_code, mode: 'check' })).body, { cli_session_state: 'none' });

    const browser = await signUp(server, client);
    assert.equal((await api(server, 'POST', '/auth/cli/complete', client, { login_code: attempt.login_code, refresh_token: browser.refreshToken })).status, 200);
    assert.equal((await poll(server, client, attempt.polling_code)).status, 201);
  });

  it('refuses an unknown anon_refresh_token and a non-anonymous user\'s one with 400 text', async () => {
    const server = get();
    const { client } = await createProject(server);
    const unknown = await api(server, 'POST', '/auth/cli', client, { anon_refresh_token: 'invalid-token-that-does-not-exist' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.text, /Invalid anon refresh token/);
    const real = await signUp(server, client);
    const notAnon = await api(server, 'POST', '/auth/cli', client, { anon_refresh_token: real.refreshToken });
    assert.equal(notAnon.status, 400);
    assert.match(notAnon.text, /does not belong to an anonymous user/);
    const noClaim = await start(server, client);
    const claim = await api(server, 'POST', '/auth/cli/complete', client, { login_code: noClaim.login_code, mode: 'claim-anon-session' });
    assert.equal(claim.status, 400);
  });

  it('rejects a lifetime over 24 hours and a bad mode with SCHEMA_ERROR', async () => {
    const server = get();
    const { client } = await createProject(server);
    assertKnownError(await api(server, 'POST', '/auth/cli', client, { expires_in_millis: 24 * 60 * 60 * 1000 + 1 }), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'POST', '/auth/cli', client, { expires_in_millis: 'soon' }), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'POST', '/auth/cli/complete', client, { login_code: 'x', mode: 'steal' }), 'SCHEMA_ERROR', 400);
    const max = await start(server, client, { expires_in_millis: 24 * 60 * 60 * 1000 });
    assert.equal(new Date(max.expires_at).getTime(), server.clock.now() + 24 * 60 * 60 * 1000);
  });
});
