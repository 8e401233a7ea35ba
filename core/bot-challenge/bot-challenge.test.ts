import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, type Caller } from '../../test/helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../../test/helpers/smtp.ts';
import { authorizeUrl, exchangeCode, followCallback, newAppFlow } from '../../test/helpers/oauth-flow.ts';
import { startSiteverifyServer } from '../../test/helpers/siteverify.ts';
import type { TestServer } from '../../test/helpers/server.ts';

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
async function project(server: TestServer, off = false) {
  const p = await createProject(server, { magic_link_enabled: true, oauth_providers: [{ id: 'github', type: 'shared' }] });
  if (!off) {
    const res = await api(server, 'PUT', '/internal/bot-challenge/turnstile', p.admin, { site_key: SITE_KEY, secret_key: SECRET });
    assert.equal(res.status, 200, res.text);
  }
  return p;
}

async function rules(server: TestServer, admin: Caller, values: Record<string, unknown>) {
  const res = await api(server, 'PATCH', '/internal/config/override/branch', admin, { config_override_string: JSON.stringify(values) });
  assert.equal(res.status, 200, res.text);
}

const rule = (condition: string, type: string) => ({ enabled: true, priority: 0, condition, action: { type } });
const challenge = (token: string | null, phase?: 'invisible' | 'visible') => ({
  ...(token !== null ? { bot_challenge_token: token } : {}),
  ...(phase ? { bot_challenge_phase: phase } : {}),
});
const callsFor = (token: string) => siteverify.calls.filter((c) => c.response === token);

describeWithServer(
  'bot challenges: Cloudflare Turnstile (issue 27)',
  (get) => {
    it('keeps the secret key sealed: settings show the site key and a hint, clients see the site key, off by default and after removal', async () => {
      const server = get();
      const { admin, client, projectId } = await project(server, true);
      assert.deepEqual((await api(server, 'GET', '/internal/bot-challenge/turnstile', admin)).body, {
        site_key: null,
        secret_key_hint: null,
        enabled: false,
      });
      assertKnownError(await api(server, 'PUT', '/internal/bot-challenge/turnstile', admin, { site_key: SITE_KEY }), 'SCHEMA_ERROR', 400);
      assertKnownError(
        await api(server, 'PUT', '/internal/bot-challenge/turnstile', admin, { site_key: 'bad key', secret_key: SECRET }),
        'SCHEMA_ERROR',
        400,
      );
      assertKnownError(
        await api(server, 'PUT', '/internal/bot-challenge/turnstile', client, { site_key: SITE_KEY, secret_key: SECRET }),
        'INSUFFICIENT_ACCESS_TYPE',
        401,
      );
      const set = await api(server, 'PUT', '/internal/bot-challenge/turnstile', admin, { site_key: SITE_KEY, secret_key: SECRET });
      assert.deepEqual(set.body, { site_key: SITE_KEY, secret_key_hint: '0x…6789', enabled: true });
      assert.ok(
        !JSON.stringify((await api(server, 'GET', '/internal/config', admin)).body).includes(SECRET),
        'the config never shows the secret',
      );
      const row = await server.gatehouse.core.runtime.db
        .selectFrom('bot_challenge_secrets')
        .selectAll()
        .where('project_id', '=', projectId)
        .execute();
      assert.equal(row.length, 1);
      assert.ok(!JSON.stringify(row).includes(SECRET) && !JSON.stringify(row).includes('test-secret-key'), 'stored sealed');
      assert.equal((await api(server, 'GET', '/projects/current', client)).body.config.bot_challenge_site_key, SITE_KEY);
      // Keeping the stored secret while changing the site key.
      assert.equal(
        (await api(server, 'PUT', '/internal/bot-challenge/turnstile', admin, { site_key: 'other-key' })).body.secret_key_hint,
        '0x…6789',
      );
      assert.deepEqual((await api(server, 'DELETE', '/internal/bot-challenge/turnstile', admin)).body, {
        site_key: null,
        secret_key_hint: null,
        enabled: false,
      });
      assert.equal((await api(server, 'GET', '/projects/current', client)).body.config.bot_challenge_site_key, null);
    });

    it('verifies nothing and lets rules see ok when the project has no Turnstile keys', async () => {
      const server = get();
      const { client, admin } = await project(server, true);
      await rules(server, admin, { 'auth.signUpRules.not-ok': rule('turnstileResult != "ok"', 'reject') });
      const before = siteverify.calls.length;
      const res = await api(server, 'POST', '/auth/password/sign-up', client, {
        email: uniqueEmail(),
        password: PASSWORD,
        ...challenge('bad', 'invisible'),
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(siteverify.calls.length, before, 'siteverify was not called');
    });

    it('sign-up: ok passes; invalid asks for the visible retry (BOT_CHALLENGE_REQUIRED), then fails (BOT_CHALLENGE_FAILED) or passes as invalid', async () => {
      const server = get();
      const { client, server: srv, admin } = await project(server);
      await rules(server, admin, { 'auth.signUpRules.flag-invalid': rule('turnstile_result == "invalid"', 'restrict') });
      const ok = await api(server, 'POST', '/auth/password/sign-up', client, {
        email: uniqueEmail(),
        password: PASSWORD,
        ...challenge('ok:sign_up_with_credential', 'invisible'),
      });
      assert.equal(ok.status, 200, ok.text);
      const call = callsFor('ok:sign_up_with_credential').at(-1)!;
      assert.deepEqual(
        { ...call, contentType: call.contentType?.split(';')[0] },
        { secret: SECRET, response: 'ok:sign_up_with_credential', remoteip: '127.0.0.1', contentType: 'application/x-www-form-urlencoded' },
      );
      assert.equal((await api(server, 'GET', `/users/${ok.body.user_id}`, srv)).body.restricted_by_admin, false);
      const address = uniqueEmail();
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-up', client, {
          email: address,
          password: PASSWORD,
          ...challenge('bad', 'invisible'),
        }),
        'BOT_CHALLENGE_REQUIRED',
        409,
      );
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-up', client, {
          email: address,
          password: PASSWORD,
          ...challenge('ok:oauth_authenticate', 'invisible'),
        }),
        'BOT_CHALLENGE_REQUIRED',
        409,
      );
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-up', client, {
          email: address,
          password: PASSWORD,
          ...challenge('ok:sign_up_with_credential:evil.example', 'invisible'),
        }),
        'BOT_CHALLENGE_REQUIRED',
        409,
      );
      const failed = await api(server, 'POST', '/auth/password/sign-up', client, {
        email: address,
        password: PASSWORD,
        ...challenge('bad', 'visible'),
      });
      assertKnownError(failed, 'BOT_CHALLENGE_FAILED', 400);
      assert.equal(failed.body.details.message, 'Visible bot challenge verification failed');
      const visible = await api(server, 'POST', '/auth/password/sign-up', client, {
        email: address,
        password: PASSWORD,
        ...challenge('ok:sign_up_with_credential', 'visible'),
      });
      assert.equal(visible.status, 200, visible.text);
      assert.equal(
        (await api(server, 'GET', `/users/${visible.body.user_id}`, srv)).body.restricted_by_admin,
        true,
        'a visible retry is recorded as invalid',
      );
    });

    it('sign-up: without a token the rules see invalid; a browser without Turnstile is refused; unreachable siteverify gives error to the rules', async () => {
      const server = get();
      const { client, admin, server: srv } = await project(server);
      await rules(server, admin, {
        'auth.signUpRules.no-token': rule('turnstileResult == "invalid"', 'reject'),
        'auth.signUpRules.outage': rule('turnstileResult == "error"', 'restrict'),
      });
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-up', client, { email: uniqueEmail(), password: PASSWORD }),
        'SIGN_UP_REJECTED',
        403,
      );
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-up', client, {
          email: uniqueEmail(),
          password: PASSWORD,
          bot_challenge_unavailable: true,
        }),
        'BOT_CHALLENGE_FAILED',
        400,
      );
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-up', client, {
          email: uniqueEmail(),
          password: PASSWORD,
          bot_challenge_unavailable: 'true',
          ...challenge('ok:sign_up_with_credential'),
        }),
        'BOT_CHALLENGE_FAILED',
        400,
      );
      for (const phase of ['invisible', 'visible', undefined] as const) {
        const res = await api(server, 'POST', '/auth/password/sign-up', client, {
          email: uniqueEmail(),
          password: PASSWORD,
          ...challenge('hang', phase),
        });
        assert.equal(res.status, 200, res.text);
        assert.equal(
          (await api(server, 'GET', `/users/${res.body.user_id}`, srv)).body.restricted_by_admin,
          true,
          `unreachable (${phase}) reached the rules as error`,
        );
      }
      assertKnownError(
        await api(server, 'POST', '/auth/password/sign-up', client, {
          email: uniqueEmail(),
          password: PASSWORD,
          bot_challenge_phase: 'sideways',
        }),
        'SCHEMA_ERROR',
        400,
      );
    });

    it("the rules test route evaluates turnstile_result as the rules' turnstileResult (default invalid, as upstream)", async () => {
      const server = get();
      const { admin } = await project(server);
      await rules(server, admin, { 'auth.signUpRules.outage': rule('turnstileResult == "error"', 'reject') });
      const test = (extra: object) =>
        api(server, 'POST', '/internal/sign-up-rules-test', admin, {
          email: 'x@example.com',
          auth_method: 'password',
          oauth_provider: null,
          country_code: null,
          ...extra,
        });
      const error = await test({ turnstile_result: 'error' });
      assert.equal(error.body.outcome.decision, 'reject', error.text);
      assert.equal(error.body.context.turnstile_result, 'error');
      const dflt = await test({});
      assert.equal(dflt.body.context.turnstile_result, 'invalid');
      assert.equal(dflt.body.outcome.decision, 'default-allow');
    });

    it("sign-up: a wrong secret key counts as error (the server's fault), never as the visitor's invalid", async () => {
      const server = get();
      const { client, admin, server: srv } = await project(server);
      await api(server, 'PUT', '/internal/bot-challenge/turnstile', admin, { site_key: SITE_KEY, secret_key: 'wrong-secret-key' });
      await rules(server, admin, { 'auth.signUpRules.outage': rule('turnstileResult == "error"', 'restrict') });
      const res = await api(server, 'POST', '/auth/password/sign-up', client, {
        email: uniqueEmail(),
        password: PASSWORD,
        ...challenge('ok:sign_up_with_credential', 'invisible'),
      });
      assert.equal(res.status, 200, res.text);
      assert.equal((await api(server, 'GET', `/users/${res.body.user_id}`, srv)).body.restricted_by_admin, true);
    });

    it('password sign-in: checks a client in the flow (ok, invalid, unreachable) and nothing without a phase', async () => {
      const server = get();
      const { client } = await project(server);
      const address = uniqueEmail();
      assert.equal(
        (
          await api(server, 'POST', '/auth/password/sign-up', client, {
            email: address,
            password: PASSWORD,
            ...challenge('ok:sign_up_with_credential', 'invisible'),
          })
        ).status,
        200,
      );
      const signIn = (extra: object) =>
        api(server, 'POST', '/auth/password/sign-in', client, { email: address, password: PASSWORD, ...extra });
      assertKnownError(await signIn(challenge('bad', 'invisible')), 'BOT_CHALLENGE_REQUIRED', 409);
      assertKnownError(await signIn(challenge('bad', 'visible')), 'BOT_CHALLENGE_FAILED', 400);
      assertKnownError(await signIn(challenge('ok:sign_up_with_credential', 'invisible')), 'BOT_CHALLENGE_REQUIRED', 409);
      assert.equal((await signIn(challenge('ok:sign_in_with_credential', 'invisible'))).status, 200);
      assert.equal((await signIn(challenge('hang', 'invisible'))).status, 200, 'an outage does not lock users out');
      const before = siteverify.calls.length;
      assert.equal((await signIn(challenge('bad'))).status, 200, 'no phase: not verified');
      assert.equal(siteverify.calls.length, before);
    });

    it("OTP send: ok, invalid and unreachable; the send's result reaches the rules when the code signs a new user up", async () => {
      const server = get();
      const { client, admin } = await project(server);
      await rules(server, admin, { 'auth.signUpRules.outage': rule('authMethod == "otp" && turnstileResult == "error"', 'reject') });
      const send = (address: string, extra: object) =>
        api(server, 'POST', '/auth/otp/send-sign-in-code', client, { email: address, callback_url: 'http://localhost:3000/cb', ...extra });
      assertKnownError(await send(uniqueEmail(), challenge('bad', 'invisible')), 'BOT_CHALLENGE_REQUIRED', 409);
      assertKnownError(await send(uniqueEmail(), challenge('bad', 'visible')), 'BOT_CHALLENGE_FAILED', 400);
      const good = uniqueEmail();
      assert.equal((await send(good, challenge('ok:send_magic_link_email', 'invisible'))).status, 200);
      assert.equal((await api(server, 'POST', '/auth/otp/sign-in', client, { code: codeFromEmail(await smtp.waitFor(good)) })).status, 200);
      const unreachable = uniqueEmail();
      assert.equal((await send(unreachable, challenge('hang', 'invisible'))).status, 200, 'sent despite the outage');
      assertKnownError(
        await api(server, 'POST', '/auth/otp/sign-in', client, { code: codeFromEmail(await smtp.waitFor(unreachable)) }),
        'SIGN_UP_REJECTED',
        403,
      );
    });

    it('OAuth authorize: ok, invalid and unreachable; the result reaches the rules at the callback', async () => {
      const server = get();
      const { projectId, admin } = await project(server);
      await rules(server, admin, { 'auth.signUpRules.outage': rule('authMethod == "oauth" && turnstileResult == "error"', 'reject') });
      const authorize = (extra: Record<string, string>) =>
        fetch(authorizeUrl(server, 'github', projectId, newAppFlow(), { stack_response_mode: 'json', ...extra }));
      const refused = await authorize({ bot_challenge_token: 'bad', bot_challenge_phase: 'invisible' });
      assert.equal(refused.status, 409);
      assert.equal(refused.headers.get('x-stack-known-error'), 'BOT_CHALLENGE_REQUIRED');
      assert.equal(
        (await authorize({ bot_challenge_token: 'bad', bot_challenge_phase: 'visible' })).headers.get('x-stack-known-error'),
        'BOT_CHALLENGE_FAILED',
      );
      const viaProvider = async (token: string) => {
        const flow = newAppFlow();
        const started = await fetch(
          authorizeUrl(server, 'github', projectId, flow, {
            stack_response_mode: 'json',
            bot_challenge_token: token,
            bot_challenge_phase: 'invisible',
          }),
        );
        assert.equal(started.status, 200);
        const page = new URL(((await started.json()) as { location: string }).location);
        const form = new URLSearchParams(page.searchParams);
        form.set('email', uniqueEmail());
        const picked = await fetch(new URL(page.pathname, page), { method: 'POST', body: form, redirect: 'manual' });
        return { flow, back: await followCallback(picked.headers.get('location')!) };
      };
      const ok = await viaProvider('ok:oauth_authenticate');
      assert.equal((await exchangeCode(server, projectId, ok.back.searchParams.get('code')!, ok.flow.verifier)).status, 200);
      const outage = await viaProvider('hang');
      assert.equal(outage.back.searchParams.get('errorCode'), 'SIGN_UP_REJECTED');
    });
  },
  { smtpUrl: smtp.url, turnstile: { verifyUrl: siteverify.url, timeoutMs: 300 } },
);
