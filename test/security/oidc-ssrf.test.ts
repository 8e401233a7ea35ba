import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { assertKnownError, createProject, type ApiResponse } from '../helpers/api.ts';
import { CookieJar, signInAtProvider, startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';
import { APP_ERROR_URL, authorizeUrl, exchangeCode, followCallback, newAppFlow } from '../helpers/oauth-flow.ts';
import type { TestServer } from '../helpers/server.ts';

// A generic OpenID provider's `issuer_url` is a tenant-set URL. On a
// production server its discovery document was fetched from loopback, and so were the token,
// JWKS and userinfo endpoints that discovery named: server-side request forgery. SMTP and
// webhooks already refused such addresses (core/lib/outbound.ts); OpenID providers now do too,
// unless the operator lists the host (GATEHOUSE_OUTBOUND_PRIVATE_HOSTS).

/** A loopback "internal service" that records every request it receives. */
interface Recorder {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

async function startRecorder(answer: (path: string, base: string) => unknown): Promise<Recorder> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer(req.url ?? '', url)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Discovery whose issuer is the recorder's 127.0.0.1 address but whose token and JWKS endpoints are on `localhost`. */
function discoveryPointingAt(localhostBase: string) {
  return (path: string, base: string) =>
    path.startsWith('/.well-known/openid-configuration')
      ? {
          issuer: base,
          authorization_endpoint: `${base}/auth`,
          token_endpoint: `${localhostBase}/token`,
          jwks_uri: `${localhostBase}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        }
      : { error: 'nothing here' };
}

async function startAuthorize(server: TestServer, projectId: string, providerId: string): Promise<ApiResponse> {
  const res = await fetch(authorizeUrl(server, providerId, projectId, newAppFlow(), { stack_response_mode: 'json' }));
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
}

describeWithServer(
  'OpenID provider URLs on a production server (issue 27 finding 6)',
  (get) => {
    let internal: Recorder;
    let tokenSide: Recorder;
    before(async () => {
      tokenSide = await startRecorder(() => ({ error: 'invalid_grant' }));
      internal = await startRecorder(discoveryPointingAt(tokenSide.url.replace('127.0.0.1', 'localhost')));
    });
    after(async () => {
      await internal?.close();
      await tokenSide?.close();
    });

    it('refuses a loopback issuer with OAUTH_PROVIDER_URL_NOT_ALLOWED without sending it a request', async () => {
      const server = get();
      const recorder = await startRecorder(discoveryPointingAt('http://127.0.0.1:1'));
      try {
        const project = await createProject(server, {
          oauth_providers: [
            { id: 'corp', type: 'standard', client_id: 'c', client_secret: 's', issuer_url: recorder.url, display_name: 'Corp' },
          ],
        });
        const res = await startAuthorize(server, project.projectId, 'corp');
        assertKnownError(res, 'OAUTH_PROVIDER_URL_NOT_ALLOWED', 400);
        assert.match(res.body.error, /GATEHOUSE_OUTBOUND_PRIVATE_HOSTS/);
        assert.deepEqual(recorder.hits, [], 'the internal service received nothing');
      } finally {
        await recorder.close();
      }
    });

    it('refuses an issuer whose name resolves to loopback (localhost), the IPv4-mapped form and the cloud metadata address', async () => {
      const server = get();
      const port = new URL(internal.url).port;
      // (Plain http is accepted for loopback names only; the mapped form comes with https, as an attacker would send it.)
      for (const issuer of [`http://localhost:${port}`, `https://[::ffff:127.0.0.1]:${port}`, 'https://169.254.169.254']) {
        const project = await createProject(server, {
          oauth_providers: [{ id: 'corp', type: 'standard', client_id: 'c', client_secret: 's', issuer_url: issuer, display_name: 'Corp' }],
        });
        assertKnownError(await startAuthorize(server, project.projectId, 'corp'), 'OAUTH_PROVIDER_URL_NOT_ALLOWED', 400);
      }
      assert.deepEqual(internal.hits, []);
    });
  },
  { environment: 'production' },
);

describeWithServer(
  'OpenID provider on a private network, allowed by the operator (issue 27 finding 6)',
  (get) => {
    let idp: TestOidcProvider;
    let tokenSide: Recorder;
    let internal: Recorder;
    before(async () => {
      idp = await startOidcProvider([`${get().url}/api/v1/auth/oauth/callback/corp`]);
      tokenSide = await startRecorder(() => ({ error: 'invalid_grant' }));
      internal = await startRecorder(discoveryPointingAt(tokenSide.url.replace('127.0.0.1', 'localhost')));
    });
    after(async () => {
      await idp?.close();
      await internal?.close();
      await tokenSide?.close();
    });

    it('signs in through an identity provider whose host the operator listed', async () => {
      const server = get();
      const project = await createProject(server, {
        oauth_providers: [
          {
            id: 'corp',
            type: 'standard',
            client_id: idp.clientId,
            client_secret: idp.clientSecret,
            issuer_url: idp.issuer,
            display_name: 'Corp',
          },
        ],
      });
      const flow = newAppFlow();
      const start = await fetch(authorizeUrl(server, 'corp', project.projectId, flow, { stack_response_mode: 'json' }));
      const { location } = (await start.json()) as { location: string };
      assert.equal(start.status, 200, location);
      const back = await followCallback(
        await signInAtProvider(new CookieJar(), location, 'employee', `${server.url}/api/v1/auth/oauth/callback/`),
      );
      const tokens = await exchangeCode(server, project.projectId, back.searchParams.get('code')!, flow.verifier);
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
    });

    it('still refuses a token endpoint that discovery names on an unlisted private host', async () => {
      const server = get();
      const project = await createProject(server, {
        oauth_providers: [
          { id: 'corp2', type: 'standard', client_id: 'c', client_secret: 's', issuer_url: internal.url, display_name: 'Corp 2' },
        ],
      });
      const start = await startAuthorize(server, project.projectId, 'corp2');
      assert.equal(start.status, 200, start.text);
      const state = new URL(start.body.location).searchParams.get('state')!;
      const back = await followCallback(`${server.url}/api/v1/auth/oauth/callback/corp2?code=stolen&state=${state}`);
      assert.equal(`${back.origin}${back.pathname}`, APP_ERROR_URL);
      assert.equal(back.searchParams.get('errorCode'), 'OAUTH_PROVIDER_URL_NOT_ALLOWED');
      assert.deepEqual(tokenSide.hits, [], 'the token endpoint on localhost received nothing');
    });
  },
  { environment: 'production', outboundPrivateHosts: ['127.0.0.1'] },
);

describeWithServer(
  'OpenID provider on loopback in development mode (issue 27 finding 6)',
  (get) => {
    let idp: TestOidcProvider;
    before(async () => {
      idp = await startOidcProvider([`${get().url}/api/v1/auth/oauth/callback/corp`]);
    });
    after(async () => {
      await idp?.close();
    });

    it('allows a loopback issuer for trying things locally', async () => {
      const server = get();
      const project = await createProject(server, {
        oauth_providers: [
          {
            id: 'corp',
            type: 'standard',
            client_id: idp.clientId,
            client_secret: idp.clientSecret,
            issuer_url: idp.issuer,
            display_name: 'Corp',
          },
        ],
      });
      const res = await startAuthorize(server, project.projectId, 'corp');
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.location.startsWith(`${idp.issuer}/`));
    });
  },
  { environment: 'development' },
);
