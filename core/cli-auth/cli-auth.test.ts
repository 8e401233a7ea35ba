import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { refusesWithStatus } from '../../test/helpers/core-fixtures-b.ts';
import type { Credentials, InvokeInput } from '../index.ts';

/**
 * CLI login, in-process (test/helpers/core-client.ts). A poll's success is a JSON reply marked
 * `created` (201 on the wire; rendering in server-bin/protocol/render.test.ts); the other polls
 * are plain values (200). Plain-text refusals are asserted as their exact bad-request text.
 */

const INVALID_LOGIN_CODE = 'Invalid login code or the code has expired';

async function signUp(t: TestCore, client: Credentials) {
  const res = await t.call<{ user_id: string; refresh_token: string; access_token: string }>('authPassword.signUp', client, {
    body: { email: `cli-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`, password: 'correct horse battery' },
  });
  return { userId: res.user_id, refreshToken: res.refresh_token, accessToken: res.access_token };
}

function start(t: TestCore, client: Credentials, body: Record<string, unknown> = {}) {
  return t.call<{ polling_code: string; login_code: string; expires_at: string }>('cliAuth.create', client, { body });
}

/** A poll's answer: `{ created, value }` (created: the 201 success). */
async function poll(t: TestCore, client: Credentials, pollingCode: string) {
  const answer = await t.call<any>('cliAuth.poll', client, { body: { polling_code: pollingCode } });
  if (answer?.raw === true) {
    assert.equal(answer.kind, 'json');
    return { created: answer.created === true, value: answer.value };
  }
  return { created: false, value: answer };
}

const complete = (t: TestCore, client: Credentials, body: Record<string, unknown>) => t.call<any>('cliAuth.complete', client, { body });
const completeRefused = (t: TestCore, client: Credentials, body: InvokeInput['body'], message: string) =>
  refusesWithStatus(t, 'cliAuth.complete', client, { body }, 'bad-request', message);

describeWithCore('CLI login', (get) => {
  it('hands the CLI a working refresh token for the confirming user exactly once, and nothing before', async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    const attempt = await start(t, client);
    assert.match(attempt.polling_code, /^[0-9a-z]{45}$/);
    assert.match(attempt.login_code, /^[0-9a-z]{45}$/);
    assert.notEqual(attempt.polling_code, attempt.login_code);
    assert.equal(new Date(attempt.expires_at).getTime(), t.clock.now() + 2 * 60 * 60 * 1000);

    assert.deepEqual(await poll(t, client, attempt.polling_code), { created: false, value: { status: 'waiting' } });

    const browser = await signUp(t, client);
    assert.deepEqual(await complete(t, client, { login_code: attempt.login_code, mode: 'check' }), { cli_session_state: 'none' });
    assert.deepEqual(await complete(t, client, { login_code: attempt.login_code, refresh_token: browser.refreshToken }), { success: true });

    const success = await poll(t, client, attempt.polling_code);
    assert.equal(success.created, true);
    assert.deepEqual(Object.keys(success.value).sort(), ['refresh_token', 'status']);
    assert.equal(success.value.status, 'success');
    assert.notEqual(success.value.refresh_token, browser.refreshToken, 'the CLI gets a session of its own');
    const refreshed = await t.call<{ access_token: string }>('sessions.refreshCurrent', {
      ...client,
      refreshToken: success.value.refresh_token,
    });
    const me = await t.call<{ id: string }>('users.getCurrent', { ...client, accessToken: refreshed.access_token });
    assert.equal(me.id, browser.userId);

    assert.deepEqual(await poll(t, client, attempt.polling_code), { created: false, value: { status: 'used' } });
    await completeRefused(t, client, { login_code: attempt.login_code, refresh_token: browser.refreshToken }, INVALID_LOGIN_CODE);
  });

  it('lets only the first user confirm a login code', async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    const attempt = await start(t, client);
    const first = await signUp(t, client);
    const second = await signUp(t, client);
    assert.deepEqual(await complete(t, client, { login_code: attempt.login_code, mode: 'complete', refresh_token: first.refreshToken }), {
      success: true,
    });
    await completeRefused(
      t,
      client,
      { login_code: attempt.login_code, mode: 'complete', refresh_token: second.refreshToken },
      INVALID_LOGIN_CODE,
    );
  });

  it("answers expired after the attempt's lifetime and refuses to confirm it", async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    const attempt = await start(t, client, { expires_in_millis: 60_000 });
    assert.equal(new Date(attempt.expires_at).getTime(), t.clock.now() + 60_000);
    const browser = await signUp(t, client);
    t.clock.advance(60_001);
    assert.deepEqual((await poll(t, client, attempt.polling_code)).value, { status: 'expired' });
    await completeRefused(t, client, { login_code: attempt.login_code, refresh_token: browser.refreshToken }, INVALID_LOGIN_CODE);
  });

  it('answers expired for a confirmed attempt that was not polled in time', async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    const attempt = await start(t, client, { expires_in_millis: 60_000 });
    const browser = await signUp(t, client);
    await complete(t, client, { login_code: attempt.login_code, refresh_token: browser.refreshToken });
    t.clock.advance(60_001);
    assert.deepEqual(await poll(t, client, attempt.polling_code), { created: false, value: { status: 'expired' } });
  });

  it('rejects an unknown polling code with SCHEMA_ERROR, also one from another project', async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    const other = await createCoreProject(t);
    const unknown = await t.refuses('cliAuth.poll', client, { body: { polling_code: 'invalid-code' } }, 'SCHEMA_ERROR');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.message, 'The polling code is invalid or does not exist.');
    const attempt = await start(t, client);
    await t.refuses('cliAuth.poll', other.client, { body: { polling_code: attempt.polling_code } }, 'SCHEMA_ERROR');
    const browser = await signUp(t, other.client);
    await completeRefused(t, other.client, { login_code: attempt.login_code, refresh_token: browser.refreshToken }, INVALID_LOGIN_CODE);
  });

  it("refuses to complete without a refresh token, with an unknown one, or with another project's", async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    const other = await createCoreProject(t);
    const attempt = await start(t, client);
    const refusedText = async (body: Record<string, unknown>) => {
      try {
        await t.core.invoke('cliAuth.complete', client, { body });
      } catch (error) {
        assert.equal((error as { kind?: string }).kind, 'bad-request', String(error));
        return (error as Error).message;
      }
      return assert.fail('cliAuth.complete answered');
    };
    assert.match(await refusedText({ login_code: attempt.login_code, mode: 'complete' }), /refresh_token is required/);
    assert.match(
      await refusedText({ login_code: attempt.login_code, refresh_token: 'invalid-refresh-token-that-does-not-exist' }),
      /Invalid refresh token/,
    );
    const foreign = await signUp(t, other.client);
    await refusedText({ login_code: attempt.login_code, refresh_token: foreign.refreshToken });
    assert.deepEqual((await poll(t, client, attempt.polling_code)).value, { status: 'waiting' });
  });

  it("lets the page see and claim the CLI's anonymous session once, and then complete as a real user", async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    const anon = await t.call<{ refresh_token: string; user_id: string }>('anonymous.signUp', client);
    const attempt = await start(t, client, { anon_refresh_token: anon.refresh_token });
    assert.deepEqual(await complete(t, client, { login_code: attempt.login_code, mode: 'check' }), { cli_session_state: 'anonymous' });
    const claim = await complete(t, client, { login_code: attempt.login_code, mode: 'claim-anon-session' });
    assert.deepEqual(Object.keys(claim).sort(), ['access_token', 'refresh_token']);
    const me = await t.call<{ id: string }>('users.getCurrent', { ...client, accessToken: claim.access_token, allowAnonymousUser: true });
    assert.equal(me.id, anon.user_id);
    const twice = await t.core
      .invoke('cliAuth.complete', client, { body: { login_code: attempt.login_code, mode: 'claim-anon-session' } })
      .then(
        () => null,
        (error: Error & { kind?: string }) => error,
      );
    assert.equal(twice?.kind, 'bad-request');
    assert.match(twice!.message, /No anonymous session associated with this code/);
    assert.deepEqual(await complete(t, client, { login_code: attempt.login_code, mode: 'check' }), { cli_session_state: 'none' });

    const browser = await signUp(t, client);
    assert.deepEqual(await complete(t, client, { login_code: attempt.login_code, refresh_token: browser.refreshToken }), { success: true });
    assert.equal((await poll(t, client, attempt.polling_code)).created, true);
  });

  it("refuses an unknown anon_refresh_token and a non-anonymous user's one with 400 text", async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    const refusedText = async (operationId: string, body: Record<string, unknown>) => {
      const error = await t.core.invoke(operationId, client, { body }).then(
        () => null,
        (e: Error & { kind?: string }) => e,
      );
      assert.equal(error?.kind, 'bad-request', `${operationId}: ${String(error)}`);
      return error!.message;
    };
    assert.match(
      await refusedText('cliAuth.create', { anon_refresh_token: 'invalid-token-that-does-not-exist' }),
      /Invalid anon refresh token/,
    );
    const real = await signUp(t, client);
    assert.match(await refusedText('cliAuth.create', { anon_refresh_token: real.refreshToken }), /does not belong to an anonymous user/);
    const noClaim = await start(t, client);
    await refusedText('cliAuth.complete', { login_code: noClaim.login_code, mode: 'claim-anon-session' });
  });

  it('rejects a lifetime over 24 hours and a bad mode with SCHEMA_ERROR', async () => {
    const t = get();
    const { client } = await createCoreProject(t);
    assert.equal(
      (await t.refuses('cliAuth.create', client, { body: { expires_in_millis: 24 * 60 * 60 * 1000 + 1 } }, 'SCHEMA_ERROR')).status,
      400,
    );
    await t.refuses('cliAuth.create', client, { body: { expires_in_millis: 'soon' } }, 'SCHEMA_ERROR');
    await t.refuses('cliAuth.complete', client, { body: { login_code: 'x', mode: 'steal' } }, 'SCHEMA_ERROR');
    const max = await start(t, client, { expires_in_millis: 24 * 60 * 60 * 1000 });
    assert.equal(new Date(max.expires_at).getTime(), t.clock.now() + 24 * 60 * 60 * 1000);
  });
});
