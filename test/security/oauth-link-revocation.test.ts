import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject, type Caller } from '../helpers/api.ts';
import { codeFromEmail, startSmtpReceiver, uniqueEmail } from '../helpers/smtp.ts';
import { APP_ERROR_URL, authorizeUrl, exchangeCode, followCallback, newAppFlow } from '../helpers/oauth-flow.ts';
import type { TestServer } from '../helpers/server.ts';

// `GET /auth/oauth/authorize/{p}?type=link&token=…` checked the JWT only, not
// the revoked-session set, so a signed-out, revoked or pre-reset access token could still attach
// the holder's provider account to the user: lasting access. A link now needs a live session,
// at authorize and again when the provider sends the user back. (The development provider stands
// in for the attacker's provider account; this server runs in the test environment.)

const smtp = await startSmtpReceiver();
after(() => smtp.stop());

async function signUp(server: TestServer, client: Caller, email: string) {
  const res = await api(server, 'POST', '/auth/password/sign-up', client, { email, password: 'velvet tractor 93' });
  assert.equal(res.status, 200, res.text);
  return res.body as { access_token: string; refresh_token: string; user_id: string };
}

async function resetPassword(server: TestServer, client: Caller, email: string): Promise<void> {
  const before = smtp.to(email).length;
  await api(server, 'POST', '/auth/password/send-reset-code', client, {
    email,
    callback_url: 'http://localhost:3000/handler/password-reset',
  });
  await smtp.waitFor((m) => m.to.includes(email) && smtp.to(email).length > before);
  const code = codeFromEmail(smtp.to(email)[before]!);
  const res = await api(server, 'POST', '/auth/password/reset', client, { code, password: 'owner takes it back 7' });
  assert.equal(res.status, 200, res.text);
}

/** Starts a link flow with `token`; returns the authorize answer and, when it went through, the development provider's page. */
async function startLink(server: TestServer, projectId: string, token: string) {
  const flow = newAppFlow();
  const res = await fetch(authorizeUrl(server, 'github', projectId, flow, { stack_response_mode: 'json', type: 'link', token }));
  const text = await res.text();
  return { flow, res: { status: res.status, headers: res.headers, text, body: JSON.parse(text) } };
}

/** Picks `email` on the development provider's page and follows the Gatehouse callback to the app. */
async function finishAtProvider(location: string, email: string): Promise<URL> {
  const page = new URL(location);
  const form = new URLSearchParams(page.searchParams);
  form.set('email', email);
  const picked = await fetch(new URL(page.pathname, page), { method: 'POST', body: form, redirect: 'manual' });
  assert.equal(picked.status, 303, await picked.text());
  return followCallback(picked.headers.get('location')!);
}

const linkedProviders = async (server: TestServer, caller: Caller, userId: string) =>
  ((await api(server, 'GET', `/users/${userId}`, caller)).body.oauth_providers as { id: string }[]).map((p) => p.id);

describeWithServer(
  'OAuth link flows need a live session (issue 27 finding 3)',
  (get) => {
    const project = async () => createProject(get(), { oauth_providers: [{ id: 'github', type: 'shared' }] });

    it('links with a live access token (control)', async () => {
      const server = get();
      const { projectId, client, server: serverCaller } = await project();
      const user = await signUp(server, client, uniqueEmail('live'));
      const { flow, res } = await startLink(server, projectId, user.access_token);
      assert.equal(res.status, 200, res.text);
      const back = await finishAtProvider(res.body.location, 'attacker-live@example.test');
      const tokens = await exchangeCode(server, projectId, back.searchParams.get('code')!, flow.verifier);
      assert.equal(tokens.body.user_id, user.user_id);
      assert.deepEqual(await linkedProviders(server, serverCaller, user.user_id), ['github']);
    });

    it('refuses a signed-out access token at authorize with UNPARSABLE_ACCESS_TOKEN', async () => {
      const server = get();
      const { projectId, client, server: serverCaller } = await project();
      const user = await signUp(server, client, uniqueEmail('signed-out'));
      assert.equal((await api(server, 'DELETE', '/auth/sessions/current', { ...client, accessToken: user.access_token })).status, 200);
      const { res } = await startLink(server, projectId, user.access_token);
      assertKnownError(res, 'UNPARSABLE_ACCESS_TOKEN', 401);
      assert.deepEqual(await linkedProviders(server, serverCaller, user.user_id), []);
    });

    it('refuses an access token whose session was deleted from another session', async () => {
      const server = get();
      const { projectId, client } = await project();
      const email = uniqueEmail('deleted');
      const stolen = await signUp(server, client, email);
      const owner = await api(server, 'POST', '/auth/password/sign-in', client, { email, password: 'velvet tractor 93' });
      const ownerCaller = { ...client, accessToken: owner.body.access_token as string };
      const sessions = (await api(server, 'GET', `/auth/sessions?user_id=${stolen.user_id}`, ownerCaller)).body.items as {
        id: string;
        is_current_session: boolean;
      }[];
      const other = sessions.find((s) => !s.is_current_session)!;
      assert.equal((await api(server, 'DELETE', `/auth/sessions/${other.id}?user_id=${stolen.user_id}`, ownerCaller)).status, 200);
      const { res } = await startLink(server, projectId, stolen.access_token);
      assertKnownError(res, 'UNPARSABLE_ACCESS_TOKEN', 401);
    });

    it('refuses an access token issued before a password reset', async () => {
      const server = get();
      const { projectId, client } = await project();
      const email = uniqueEmail('pre-reset');
      const stolen = await signUp(server, client, email);
      await resetPassword(server, client, email);
      const { res } = await startLink(server, projectId, stolen.access_token);
      assertKnownError(res, 'UNPARSABLE_ACCESS_TOKEN', 401);
    });

    it('does not attach the account when the session ends while the user is at the provider', async () => {
      const server = get();
      const { projectId, client, server: serverCaller } = await project();
      const user = await signUp(server, client, uniqueEmail('mid-flow'));
      const { res } = await startLink(server, projectId, user.access_token);
      assert.equal(res.status, 200, res.text);
      assert.equal((await api(server, 'DELETE', '/auth/sessions/current', { ...client, accessToken: user.access_token })).status, 200);
      const back = await finishAtProvider(res.body.location, 'attacker-mid-flow@example.test');
      assert.equal(`${back.origin}${back.pathname}`, APP_ERROR_URL);
      assert.equal(back.searchParams.get('errorCode'), 'USER_AUTHENTICATION_REQUIRED');
      assert.deepEqual(await linkedProviders(server, serverCaller, user.user_id), []);
    });

    it('a password reset that first proves the address unlinks the provider accounts a pre-registrant attached', async () => {
      const server = get();
      const { projectId, client, server: serverCaller } = await project();
      const victim = uniqueEmail('pre-registered');
      const attacker = await signUp(server, client, victim);
      const { flow, res } = await startLink(server, projectId, attacker.access_token);
      const back = await finishAtProvider(res.body.location, 'attacker-planted@example.test');
      assert.equal((await exchangeCode(server, projectId, back.searchParams.get('code')!, flow.verifier)).body.user_id, attacker.user_id);
      assert.deepEqual(await linkedProviders(server, serverCaller, attacker.user_id), ['github']);

      await resetPassword(server, client, victim);
      assert.deepEqual(await linkedProviders(server, serverCaller, attacker.user_id), [], 'the planted link is gone');
    });

    it("a password reset of an already verified address keeps the owner's linked accounts", async () => {
      const server = get();
      const { projectId, client, server: serverCaller } = await project();
      const email = uniqueEmail('verified');
      const created = await api(server, 'POST', '/users', serverCaller, {
        primary_email: email,
        primary_email_verified: true,
        primary_email_auth_enabled: true,
        password: 'velvet tractor 93',
      });
      const session = await api(server, 'POST', '/auth/password/sign-in', client, { email, password: 'velvet tractor 93' });
      const { flow, res } = await startLink(server, projectId, session.body.access_token);
      const back = await finishAtProvider(res.body.location, 'owner-own@example.test');
      assert.equal((await exchangeCode(server, projectId, back.searchParams.get('code')!, flow.verifier)).status, 200);
      await resetPassword(server, client, email);
      assert.deepEqual(await linkedProviders(server, serverCaller, created.body.id), ['github']);
    });
  },
  { smtpUrl: smtp.url },
);
