import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject, type ApiResponse } from '../helpers/api.ts';
import { authorizeUrl, exchangeCode, followCallback, newAppFlow } from '../helpers/oauth-flow.ts';
import type { TestServer } from '../helpers/server.ts';

// A provider saved as `{type: "shared"}` is served by the built-in
// development provider, whose page lets anyone type any email. It answered `email_verified: true`
// and was refused only for production-mode projects, so on a production server (the default
// GATEHOUSE_ENVIRONMENT) `link_method` handed anyone the session of any verified user.

const VICTIM = 'victim@example.test';

async function setUp(server: TestServer) {
  const project = await createProject(server, {
    oauth_providers: [{ id: 'github', type: 'shared' }],
    oauth_account_merge_strategy: 'link_method',
  });
  const victim = await api(server, 'POST', '/users', project.server, {
    primary_email: VICTIM,
    primary_email_verified: true,
    primary_email_auth_enabled: true,
    password: 'velvet tractor 93',
  });
  assert.equal(victim.status, 201, victim.text);
  return { project, victimId: victim.body.id as string };
}

async function read(res: Response): Promise<ApiResponse> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
}

/** Walks the whole flow as an attacker: authorize, type the victim's email on the development page, token exchange. */
async function signInAs(server: TestServer, projectId: string, email: string, extra: Record<string, string> = {}) {
  const flow = newAppFlow();
  const start = await fetch(authorizeUrl(server, 'github', projectId, flow, { stack_response_mode: 'json', ...extra }));
  const body = (await start.json()) as { location?: string; code?: string };
  if (start.status !== 200) return { refused: { status: start.status, body } } as const;
  const page = new URL(body.location!);
  const form = new URLSearchParams(page.searchParams);
  form.set('email', email);
  const picked = await fetch(new URL(page.pathname, page), { method: 'POST', body: form, redirect: 'manual' });
  assert.equal(picked.status, 303, await picked.text());
  const back = await followCallback(picked.headers.get('location')!);
  const tokens = await exchangeCode(server, projectId, back.searchParams.get('code')!, flow.verifier);
  assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
  return { tokens: tokens.body as { user_id: string; is_new_user: boolean; access_token: string } } as const;
}

describeWithServer(
  'development OAuth provider on a production server (issue 27 finding 1)',
  (get) => {
    let projectId: string;
    let victimId: string;
    before(async () => {
      ({
        project: { projectId },
        victimId,
      } = await setUp(get()));
    });

    it('refuses the authorize step with OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION though the project is not in production mode: nobody signs in as the verified victim', async () => {
      const server = get();
      const outcome = await signInAs(server, projectId, VICTIM);
      assert.ok(!outcome.tokens, `the flow went through and signed in as ${outcome.tokens?.user_id} (victim ${victimId})`);
      assert.equal(outcome.refused.status, 400);
      assert.equal(outcome.refused.body.code, 'OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION');
      const message = (outcome.refused.body as { error?: string }).error ?? '';
      assert.match(message, /github.*production mode.*"standard".*client ID and client secret/s, 'the message tells the owner what to do');
    });

    it('refuses a link flow the same way (a signed-in attacker cannot attach a development identity)', async () => {
      const server = get();
      const project = await createProject(server, { oauth_providers: [{ id: 'github', type: 'shared' }] });
      const user = await api(server, 'POST', '/auth/password/sign-up', project.client, {
        email: 'linker@example.test',
        password: 'velvet tractor 93',
      });
      const outcome = await signInAs(server, project.projectId, VICTIM, { type: 'link', token: user.body.access_token });
      assert.equal(outcome.refused?.body.code, 'OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION');
    });

    it("refuses the development provider's own endpoints: the page, the chosen identity, the token endpoint, discovery and keys", async () => {
      const server = get();
      const base = `${server.url}/api/v1/auth/oauth/dev-provider`;
      const query = new URLSearchParams({
        client_id: `${projectId}:github`,
        redirect_uri: `${server.url}/api/v1/auth/oauth/callback/github`,
        response_type: 'code',
        state: 's',
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'S256',
      });
      const pageRes = await fetch(`${base}/authorize?${query}`);
      assertKnownError(await read(pageRes), 'OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION', 400);
      const picked = await fetch(`${base}/authorize`, {
        method: 'POST',
        body: new URLSearchParams({ ...Object.fromEntries(query), email: VICTIM }),
        redirect: 'manual',
      });
      assertKnownError(await read(picked), 'OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION', 400);
      const token = await fetch(`${base}/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: 'x',
          redirect_uri: query.get('redirect_uri')!,
          code_verifier: 'v'.repeat(43),
          client_id: query.get('client_id')!,
          client_secret: 'x',
        }),
      });
      assertKnownError(await read(token), 'OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION', 400);
      for (const path of ['/jwks', '/.well-known/openid-configuration']) {
        const res = await fetch(`${base}${path}`);
        assertKnownError(await read(res), 'OAUTH_SHARED_KEYS_NOT_AVAILABLE_IN_PRODUCTION', 400);
      }
    });
  },
  { environment: 'production' },
);

describeWithServer(
  'development OAuth provider on a development server (issue 27 finding 1)',
  (get) => {
    let setup: Awaited<ReturnType<typeof setUp>>;
    let projectId: string;
    let victimId: string;
    let server: TestServer;
    before(async () => {
      server = get();
      setup = await setUp(server);
      ({
        project: { projectId },
        victimId,
      } = setup);
    });

    it('still signs in a fresh test identity, with an unverified email', async () => {
      const outcome = await signInAs(server, projectId, 'tester@example.test');
      assert.ok(outcome.tokens, JSON.stringify(outcome.refused));
      assert.equal(outcome.tokens.is_new_user, true);
      const me = await api(server, 'GET', '/users/me', { projectId, accessType: 'client', accessToken: outcome.tokens.access_token });
      assert.equal(me.body.primary_email, 'tester@example.test');
      assert.equal(me.body.primary_email_verified, false, 'a typed address is never verified');
    });

    it('never links a development identity to the existing verified account of its email (link_method): it gets a separate account', async () => {
      const outcome = await signInAs(server, projectId, VICTIM);
      assert.ok(outcome.tokens, JSON.stringify(outcome.refused));
      assert.notEqual(outcome.tokens.user_id, victimId, 'signed in as the victim');
      assert.equal(outcome.tokens.is_new_user, true);
      const victim = await api(server, 'GET', `/users/${victimId}`, setup.project.server);
      assert.deepEqual(victim.body.oauth_providers, [], 'nothing was attached to the victim');
      const again = await signInAs(server, projectId, VICTIM);
      assert.equal(again.tokens?.user_id, outcome.tokens.user_id, 'the same test identity comes back to its own account');
    });
  },
  { environment: 'development' },
);
