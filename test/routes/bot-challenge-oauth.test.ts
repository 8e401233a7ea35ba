import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject } from '../helpers/api.ts';
import { uniqueEmail } from '../helpers/smtp.ts';
import { authorizeUrl, exchangeCode, followCallback, newAppFlow } from '../helpers/oauth-flow.ts';
import { startSiteverifyServer } from '../helpers/siteverify.ts';
import type { TestServer } from '../helpers/server.ts';

// Turnstile on OAuth authorize: the browser redirects of the development provider, so a host
// test (the other bot-challenge cases run in-process: core/bot-challenge/bot-challenge.test.ts).

const SECRET = '0x4AAAAAAAtest-secret-key-0123456789';
const siteverify = await startSiteverifyServer(SECRET);
after(() => siteverify.stop());

/** A project with the shared GitHub provider and Turnstile on. */
async function project(server: TestServer) {
  const p = await createProject(server, { oauth_providers: [{ id: 'github', type: 'shared' }] });
  const res = await api(server, 'PUT', '/internal/bot-challenge/turnstile', p.admin, {
    site_key: '0x4AAAAAAAtest-site-key',
    secret_key: SECRET,
  });
  assert.equal(res.status, 200, res.text);
  return p;
}

const rule = (condition: string, type: string) => ({ enabled: true, priority: 0, condition, action: { type } });

describeWithServer(
  'bot challenges on OAuth authorize',
  (get) => {
    it('OAuth authorize: ok, invalid and unreachable; the result reaches the rules at the callback', async () => {
      const server = get();
      const { projectId, admin } = await project(server);
      const config = await api(server, 'PATCH', '/internal/config/override/branch', admin, {
        config_override_string: JSON.stringify({
          'auth.signUpRules.outage': rule('authMethod == "oauth" && turnstileResult == "error"', 'reject'),
        }),
      });
      assert.equal(config.status, 200, config.text);
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
  { turnstile: { verifyUrl: siteverify.url, timeoutMs: 300 } },
);
