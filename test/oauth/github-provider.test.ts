import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { after, before, it, describe } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject } from '../helpers/api.ts';
import { authorizeUrl, exchangeCode, followCallback, newAppFlow } from '../helpers/oauth-flow.ts';
import { createWiredRuntime } from '../../core/wiring.ts';
import { createSqliteAdapter } from '../../adapters/sqlite/index.ts';

/**
 * A loopback server speaking GitHub's documented OAuth and REST responses
 * (docs.github.com: "Authorizing OAuth apps", "REST API endpoints for users" and ".../emails").
 * GitHub is not an OpenID provider: no ID Token, the profile and emails are separate resources.
 */
interface FakeGitHubAccount {
  id: number;
  login: string;
  name: string | null;
  emails: Array<{ email: string; verified: boolean; primary: boolean; visibility: string | null }> | 'forbidden';
}

const CLIENT_ID = 'Iv1.0123456789abcdef';
const CLIENT_SECRET = 'github-client-secret-0123456789abcdef0123';
const accounts = new Map<string, FakeGitHubAccount>();
const codes = new Map<string, { login: string; redirectUri: string; challenge: string }>();
const tokens = new Map<string, string>();
const seen: { tokenRequestAccept?: string; apiVersion?: string } = {};
let nextLogin = 'octocat';

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

const github: Server = createServer(async (req, res) => {
  const url = new URL(req.url!, 'http://127.0.0.1');
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  if (url.pathname === '/login/oauth/authorize') {
    // The user approves at once: redirect back with a code and the state.
    const code = `code-${Math.random().toString(36).slice(2)}`;
    codes.set(code, {
      login: nextLogin,
      redirectUri: url.searchParams.get('redirect_uri')!,
      challenge: url.searchParams.get('code_challenge')!,
    });
    const back = new URL(url.searchParams.get('redirect_uri')!);
    back.searchParams.set('code', code);
    back.searchParams.set('state', url.searchParams.get('state')!);
    res.writeHead(302, { location: back.toString() });
    return res.end();
  }
  if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
    seen.tokenRequestAccept = req.headers.accept;
    const form = await readForm(req);
    const grant = codes.get(form.get('code') ?? '');
    codes.delete(form.get('code') ?? '');
    const verifierOk =
      grant &&
      createHash('sha256')
        .update(form.get('code_verifier') ?? '')
        .digest('base64url') === grant.challenge;
    // GitHub answers errors with 200 and an `error` member.
    if (form.get('client_id') !== CLIENT_ID || form.get('client_secret') !== CLIENT_SECRET)
      return json(200, { error: 'incorrect_client_credentials' });
    if (!grant || !verifierOk || grant.redirectUri !== form.get('redirect_uri'))
      return json(200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
    const token = `gho_${Math.random().toString(36).slice(2)}`;
    tokens.set(token, grant.login);
    return json(200, { access_token: token, token_type: 'bearer', scope: 'user:email' });
  }
  const login = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
  const account = login ? accounts.get(login) : undefined;
  if (!account) return json(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
  seen.apiVersion = req.headers['x-github-api-version'] as string | undefined;
  if (url.pathname === '/user') {
    return json(200, {
      login: account.login,
      id: account.id,
      avatar_url: `https://avatars.githubusercontent.com/u/${account.id}?v=4`,
      type: 'User',
      name: account.name,
      email: null,
    });
  }
  if (url.pathname === '/user/emails') {
    if (account.emails === 'forbidden') return json(403, { message: 'Resource not accessible by integration' });
    return json(200, account.emails);
  }
  json(404, { message: 'Not Found' });
});
await new Promise<void>((resolve) => github.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(github.address() as { port: number }).port}`;
after(() => {
  github.closeAllConnections();
  github.close();
});

accounts.set('octocat', {
  id: 583231,
  login: 'octocat',
  name: 'The Octocat',
  emails: [
    { email: 'octocat-old@example.com', verified: true, primary: false, visibility: null },
    { email: 'Octocat@GitHub.example', verified: true, primary: true, visibility: 'public' },
  ],
});
accounts.set('unverified', {
  id: 1001,
  login: 'unverified',
  name: null,
  emails: [{ email: 'unverified@example.com', verified: false, primary: true, visibility: null }],
});
accounts.set('noemails', { id: 1002, login: 'noemails', name: 'No Emails', emails: 'forbidden' });

describeWithServer(
  "GitHub sign-in against a loopback server speaking GitHub's documented responses",
  (get) => {
    let projectId: string;
    before(async () => {
      const p = await createProject(get(), {
        oauth_providers: [{ id: 'github', type: 'standard', client_id: CLIENT_ID, client_secret: CLIENT_SECRET }],
      });
      projectId = p.projectId;
    });

    async function signIn(login: string) {
      nextLogin = login;
      const server = get();
      const flow = newAppFlow();
      const start = await fetch(authorizeUrl(server, 'github', projectId, flow), { redirect: 'manual' });
      const location = new URL(start.headers.get('location')!);
      assert.equal(`${location.origin}${location.pathname}`, `${base}/login/oauth/authorize`);
      assert.equal(location.searchParams.get('scope'), 'user:email');
      assert.equal(location.searchParams.get('nonce'), null, 'GitHub is not an OpenID provider');
      const atProvider = await fetch(location, { redirect: 'manual' });
      const back = await followCallback(atProvider.headers.get('location')!);
      return { back, flow };
    }

    it('signs up with the primary verified address of /user/emails, the profile name and avatar of /user, and the numeric id as account id', async () => {
      const server = get();
      const { back, flow } = await signIn('octocat');
      const res = await exchangeCode(server, projectId, back.searchParams.get('code')!, flow.verifier);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(seen.tokenRequestAccept, 'application/json', 'GitHub answers JSON only when asked');
      assert.equal(seen.apiVersion, '2022-11-28');
      const me = await api(server, 'GET', '/users/me', { projectId, accessType: 'client', accessToken: res.body.access_token });
      assert.equal(me.body.primary_email, 'octocat@github.example');
      assert.equal(me.body.primary_email_verified, true);
      assert.equal(me.body.display_name, 'The Octocat');
      assert.equal(me.body.profile_image_url, 'https://avatars.githubusercontent.com/u/583231?v=4');
      assert.deepEqual(me.body.oauth_providers, [{ id: 'github', account_id: '583231', email: 'octocat@github.example' }]);
    });

    it('keeps an unverified primary email unverified and falls back to the login as display name', async () => {
      const server = get();
      const { back, flow } = await signIn('unverified');
      const res = await exchangeCode(server, projectId, back.searchParams.get('code')!, flow.verifier);
      const me = await api(server, 'GET', '/users/me', { projectId, accessType: 'client', accessToken: res.body.access_token });
      assert.equal(me.body.primary_email, 'unverified@example.com');
      assert.equal(me.body.primary_email_verified, false);
      assert.equal(me.body.display_name, 'unverified');
    });

    it('sends the user to the error redirect with OAUTH_PROVIDER_ACCESS_DENIED when GitHub refuses the emails endpoint (403)', async () => {
      const { back } = await signIn('noemails');
      assert.equal(back.pathname, '/handler/error');
      assert.equal(back.searchParams.get('errorCode'), 'OAUTH_PROVIDER_ACCESS_DENIED');
    });
  },
  {
    oauthEndpointOverrides: {
      github: {
        authorizationEndpoint: `${base}/login/oauth/authorize`,
        tokenEndpoint: `${base}/login/oauth/access_token`,
        userinfoEndpoint: `${base}/user`,
        emailsEndpoint: `${base}/user/emails`,
      },
    },
  },
);

describe('test-only OAuth endpoint override', () => {
  it('is refused by the runtime in the production environment', async () => {
    // The runtime wraps the adapter's Kysely instance, so it needs a real one (never queried here).
    const storage = createSqliteAdapter({ filename: ':memory:' });
    try {
      assert.throws(
        () =>
          createWiredRuntime({
            storage,
            baseUrl: 'https://auth.example.com',
            secret: 's',
            environment: 'production',
            oauthEndpointOverrides: { github: { tokenEndpoint: 'http://127.0.0.1:1/' } },
          }),
        /test-only/,
      );
      assert.doesNotThrow(() =>
        createWiredRuntime({ storage, baseUrl: 'https://auth.example.com', secret: 's', environment: 'production' }),
      );
    } finally {
      await storage.close();
    }
  });
});
