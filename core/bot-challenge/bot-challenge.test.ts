import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import type { Credentials } from '../index.ts';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';
import { startSiteverifyServer } from '../../test/helpers/siteverify.ts';

// In-process (test/helpers/core-client.ts) against a loopback siteverify server; the client
// address is what the host would derive from the socket. The OAuth authorize case walks the
// browser redirects, so it is a host test (test/routes/bot-challenge-oauth.test.ts).

const SECRET = '0x4AAAAAAAtest-secret-key-0123456789';
const SITE_KEY = '0x4AAAAAAAtest-site-key';
const PASSWORD = 'velvet tractor 93';
const siteverify = await startSiteverifyServer(SECRET);
const smtp = await startSmtpReceiver();
after(async () => {
  await siteverify.stop();
  await smtp.stop();
});

/** A project with password, OTP and the shared GitHub provider, and (unless `off`) Turnstile on. */
async function project(t: TestCore, off = false) {
  const p = await createCoreProject(t, { magic_link_enabled: true, oauth_providers: [{ id: 'github', type: 'shared' }] });
  if (!off) await t.call('botChallenge.setTurnstile', p.admin, { body: { site_key: SITE_KEY, secret_key: SECRET } });
  return p;
}

const rules = (t: TestCore, admin: Credentials, values: Record<string, unknown>) =>
  t.call('config.updateOverride', admin, { params: { level: 'branch' }, body: { config_override_string: JSON.stringify(values) } });

const rule = (condition: string, type: string) => ({ enabled: true, priority: 0, condition, action: { type } });
const challenge = (token: string | null, phase?: 'invisible' | 'visible') => ({
  ...(token !== null ? { bot_challenge_token: token } : {}),
  ...(phase ? { bot_challenge_phase: phase } : {}),
});
const callsFor = (token: string) => siteverify.calls.filter((c) => c.response === token);

/** Calls `operationId` from the loopback address, as the host passes a request's client address. */
const fromLoopback = (t: TestCore, operationId: string, credentials: Credentials, body: Record<string, unknown>) =>
  t.call<any>(operationId, credentials, { body, clientAddress: '127.0.0.1' });

/** Asserts a refusal with `code` and its catalogue `status`; returns the error. */
async function refuses(
  t: TestCore,
  operationId: string,
  credentials: Credentials,
  body: Record<string, unknown>,
  code: string,
  status: number,
) {
  const error = await t.refuses(operationId, credentials, { body, clientAddress: '127.0.0.1' }, code);
  assert.equal(error.status, status);
  return error;
}

const restricted = async (t: TestCore, srv: Credentials, userId: string) =>
  (await t.call<{ restricted_by_admin: boolean }>('users.get', srv, { params: { user_id: userId } })).restricted_by_admin;

describeWithCore(
  'bot challenges: Cloudflare Turnstile',
  (get) => {
    it('keeps the secret key sealed: settings show the site key and a hint, clients see the site key, off by default and after removal', async () => {
      const t = get();
      const { admin, client, projectId } = await project(t, true);
      const off = { site_key: null, secret_key_hint: null, enabled: false };
      assert.deepEqual(await t.call('botChallenge.getTurnstile', admin), off);
      await t.refuses('botChallenge.setTurnstile', admin, { body: { site_key: SITE_KEY } }, 'SCHEMA_ERROR');
      await t.refuses('botChallenge.setTurnstile', admin, { body: { site_key: 'bad key', secret_key: SECRET } }, 'SCHEMA_ERROR');
      const denied = await t.refuses(
        'botChallenge.setTurnstile',
        client,
        { body: { site_key: SITE_KEY, secret_key: SECRET } },
        'INSUFFICIENT_ACCESS_TYPE',
      );
      assert.equal(denied.status, 401);
      const set = await t.call('botChallenge.setTurnstile', admin, { body: { site_key: SITE_KEY, secret_key: SECRET } });
      assert.deepEqual(set, { site_key: SITE_KEY, secret_key_hint: '0x…6789', enabled: true });
      assert.ok(!JSON.stringify(await t.call('config.get', admin)).includes(SECRET), 'the config never shows the secret');
      const row = await t.core.runtime.db.selectFrom('bot_challenge_secrets').selectAll().where('project_id', '=', projectId).execute();
      assert.equal(row.length, 1);
      assert.ok(!JSON.stringify(row).includes(SECRET) && !JSON.stringify(row).includes('test-secret-key'), 'stored sealed');
      const siteKey = async () => (await t.call<any>('projects.getCurrent', client)).config.bot_challenge_site_key;
      assert.equal(await siteKey(), SITE_KEY);
      // Keeping the stored secret while changing the site key.
      assert.equal((await t.call<any>('botChallenge.setTurnstile', admin, { body: { site_key: 'other-key' } })).secret_key_hint, '0x…6789');
      assert.deepEqual(await t.call('botChallenge.deleteTurnstile', admin), off);
      assert.equal(await siteKey(), null);
    });

    it('verifies nothing and lets rules see ok when the project has no Turnstile keys', async () => {
      const t = get();
      const { client, admin } = await project(t, true);
      await rules(t, admin, { 'auth.signUpRules.not-ok': rule('turnstileResult != "ok"', 'reject') });
      const before = siteverify.calls.length;
      await fromLoopback(t, 'authPassword.signUp', client, { email: uniqueEmail(), password: PASSWORD, ...challenge('bad', 'invisible') });
      assert.equal(siteverify.calls.length, before, 'siteverify was not called');
    });

    it('sign-up: ok passes; invalid asks for the visible retry (BOT_CHALLENGE_REQUIRED), then fails (BOT_CHALLENGE_FAILED) or passes as invalid', async () => {
      const t = get();
      const { client, server: srv, admin } = await project(t);
      await rules(t, admin, { 'auth.signUpRules.flag-invalid': rule('turnstile_result == "invalid"', 'restrict') });
      const ok = await fromLoopback(t, 'authPassword.signUp', client, {
        email: uniqueEmail(),
        password: PASSWORD,
        ...challenge('ok:sign_up_with_credential', 'invisible'),
      });
      const call = callsFor('ok:sign_up_with_credential').at(-1)!;
      assert.deepEqual(
        { ...call, contentType: call.contentType?.split(';')[0] },
        { secret: SECRET, response: 'ok:sign_up_with_credential', remoteip: '127.0.0.1', contentType: 'application/x-www-form-urlencoded' },
      );
      assert.equal(await restricted(t, srv, ok.user_id), false);
      const address = uniqueEmail();
      for (const token of ['bad', 'ok:oauth_authenticate', 'ok:sign_up_with_credential:evil.example']) {
        await refuses(
          t,
          'authPassword.signUp',
          client,
          { email: address, password: PASSWORD, ...challenge(token, 'invisible') },
          'BOT_CHALLENGE_REQUIRED',
          409,
        );
      }
      const failed = await refuses(
        t,
        'authPassword.signUp',
        client,
        { email: address, password: PASSWORD, ...challenge('bad', 'visible') },
        'BOT_CHALLENGE_FAILED',
        400,
      );
      assert.equal(failed.details.message, 'Visible bot challenge verification failed');
      const visible = await fromLoopback(t, 'authPassword.signUp', client, {
        email: address,
        password: PASSWORD,
        ...challenge('ok:sign_up_with_credential', 'visible'),
      });
      assert.equal(await restricted(t, srv, visible.user_id), true, 'a visible retry is recorded as invalid');
    });

    it('sign-up: without a token the rules see invalid; a browser without Turnstile is refused; unreachable siteverify gives error to the rules', async () => {
      const t = get();
      const { client, admin, server: srv } = await project(t);
      await rules(t, admin, {
        'auth.signUpRules.no-token': rule('turnstileResult == "invalid"', 'reject'),
        'auth.signUpRules.outage': rule('turnstileResult == "error"', 'restrict'),
      });
      await refuses(t, 'authPassword.signUp', client, { email: uniqueEmail(), password: PASSWORD }, 'SIGN_UP_REJECTED', 403);
      await refuses(
        t,
        'authPassword.signUp',
        client,
        { email: uniqueEmail(), password: PASSWORD, bot_challenge_unavailable: true },
        'BOT_CHALLENGE_FAILED',
        400,
      );
      await refuses(
        t,
        'authPassword.signUp',
        client,
        { email: uniqueEmail(), password: PASSWORD, bot_challenge_unavailable: 'true', ...challenge('ok:sign_up_with_credential') },
        'BOT_CHALLENGE_FAILED',
        400,
      );
      for (const phase of ['invisible', 'visible', undefined] as const) {
        const res = await fromLoopback(t, 'authPassword.signUp', client, {
          email: uniqueEmail(),
          password: PASSWORD,
          ...challenge('hang', phase),
        });
        assert.equal(await restricted(t, srv, res.user_id), true, `unreachable (${phase}) reached the rules as error`);
      }
      await refuses(
        t,
        'authPassword.signUp',
        client,
        { email: uniqueEmail(), password: PASSWORD, bot_challenge_phase: 'sideways' },
        'SCHEMA_ERROR',
        400,
      );
    });

    it("the rules test evaluates turnstile_result as the rules' turnstileResult (default invalid, as upstream)", async () => {
      const t = get();
      const { admin } = await project(t);
      await rules(t, admin, { 'auth.signUpRules.outage': rule('turnstileResult == "error"', 'reject') });
      const test = (extra: object) =>
        t.call<any>('signUpRules.test', admin, {
          body: { email: 'x@example.com', auth_method: 'password', oauth_provider: null, country_code: null, ...extra },
        });
      const error = await test({ turnstile_result: 'error' });
      assert.equal(error.outcome.decision, 'reject');
      assert.equal(error.context.turnstile_result, 'error');
      const dflt = await test({});
      assert.equal(dflt.context.turnstile_result, 'invalid');
      assert.equal(dflt.outcome.decision, 'default-allow');
    });

    it("sign-up: a wrong secret key counts as error (the server's fault), never as the visitor's invalid", async () => {
      const t = get();
      const { client, admin, server: srv } = await project(t);
      await t.call('botChallenge.setTurnstile', admin, { body: { site_key: SITE_KEY, secret_key: 'wrong-secret-key' } });
      await rules(t, admin, { 'auth.signUpRules.outage': rule('turnstileResult == "error"', 'restrict') });
      const res = await fromLoopback(t, 'authPassword.signUp', client, {
        email: uniqueEmail(),
        password: PASSWORD,
        ...challenge('ok:sign_up_with_credential', 'invisible'),
      });
      assert.equal(await restricted(t, srv, res.user_id), true);
    });

    it('password sign-in: checks a client in the flow (ok, invalid, unreachable) and nothing without a phase', async () => {
      const t = get();
      const { client } = await project(t);
      const address = uniqueEmail();
      await fromLoopback(t, 'authPassword.signUp', client, {
        email: address,
        password: PASSWORD,
        ...challenge('ok:sign_up_with_credential', 'invisible'),
      });
      const body = (extra: object) => ({ email: address, password: PASSWORD, ...extra });
      await refuses(t, 'authPassword.signIn', client, body(challenge('bad', 'invisible')), 'BOT_CHALLENGE_REQUIRED', 409);
      await refuses(t, 'authPassword.signIn', client, body(challenge('bad', 'visible')), 'BOT_CHALLENGE_FAILED', 400);
      await refuses(
        t,
        'authPassword.signIn',
        client,
        body(challenge('ok:sign_up_with_credential', 'invisible')),
        'BOT_CHALLENGE_REQUIRED',
        409,
      );
      await fromLoopback(t, 'authPassword.signIn', client, body(challenge('ok:sign_in_with_credential', 'invisible')));
      // An outage does not lock users out.
      await fromLoopback(t, 'authPassword.signIn', client, body(challenge('hang', 'invisible')));
      const before = siteverify.calls.length;
      // No phase: not verified.
      await fromLoopback(t, 'authPassword.signIn', client, body(challenge('bad')));
      assert.equal(siteverify.calls.length, before);
    });

    it("OTP send: ok, invalid and unreachable; the send's result reaches the rules when the code signs a new user up", async () => {
      const t = get();
      const { client, admin } = await project(t);
      await rules(t, admin, { 'auth.signUpRules.outage': rule('authMethod == "otp" && turnstileResult == "error"', 'reject') });
      const send = (address: string, extra: object) => ({ email: address, callback_url: 'http://localhost:3000/cb', ...extra });
      await refuses(t, 'authOtp.sendSignInCode', client, send(uniqueEmail(), challenge('bad', 'invisible')), 'BOT_CHALLENGE_REQUIRED', 409);
      await refuses(t, 'authOtp.sendSignInCode', client, send(uniqueEmail(), challenge('bad', 'visible')), 'BOT_CHALLENGE_FAILED', 400);
      const good = uniqueEmail();
      await fromLoopback(t, 'authOtp.sendSignInCode', client, send(good, challenge('ok:send_magic_link_email', 'invisible')));
      await fromLoopback(t, 'authOtp.signIn', client, { code: codeFromEmail(await smtp.waitFor(good)) });
      const unreachable = uniqueEmail();
      // Sent despite the outage.
      await fromLoopback(t, 'authOtp.sendSignInCode', client, send(unreachable, challenge('hang', 'invisible')));
      await refuses(t, 'authOtp.signIn', client, { code: codeFromEmail(await smtp.waitFor(unreachable)) }, 'SIGN_UP_REJECTED', 403);
    });
  },
  { smtpUrl: smtp.url, turnstile: { verifyUrl: siteverify.url, timeoutMs: 300 } },
);
