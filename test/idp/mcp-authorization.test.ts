import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createProtectedResource, verifyOAuthAccessToken, type OAuthAccessToken } from '../../sdk/index.ts';
import { api } from '../helpers/api.ts';
import { describeWithServer } from '../helpers/suite.ts';
import { createClient, discover, idpProject } from './idp-fixtures.ts';
import { approveInHostedPages, signedInUser } from './hosted-authorization.ts';
import * as oidc from 'openid-client';

const REDIRECT = 'http://127.0.0.1:9/mcp-callback';

/**
 * A small MCP server (the official SDK's Streamable HTTP transport, stateless) on loopback,
 * protected by the project's issuer with the SDK's createProtectedResource: it serves its
 * protected resource metadata and answers tokens it does not accept with the challenge. Its
 * one tool, `whoami`, answers the token's subject. `paths` records what was asked.
 */
async function startMcpServer(issuer: string) {
  const paths: string[] = [];
  let resource = '';
  let guard: ReturnType<typeof createProtectedResource>;
  const http: Server = createServer(async (req, res) => {
    paths.push(`${req.method} ${req.url}`);
    if (guard.serveMetadata(req, res)) return;
    if (req.url !== '/mcp') return void res.writeHead(404).end();
    const auth = await guard.authorize(req, res);
    if (!auth) return;
    const mcp = new McpServer({ name: 'reports', version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'Who the token is for.' }, async (extra) => ({
      content: [{ type: 'text', text: `hello ${(extra.authInfo as OAuthAccessToken).subject} via ${extra.authInfo!.clientId}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(Object.assign(req, { auth }), res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  resource = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
  guard = createProtectedResource({ issuer, resource, scopes: ['mcp:tools'], resourceName: 'Reports' });
  return { resource, paths, close: () => new Promise<void>((resolve) => http.close(() => resolve())) };
}

/** The MCP client's OAuth state in memory; `redirectToAuthorization` completes sign-in and consent without a browser. */
function memoryOAuthProvider(approve: (url: URL) => Promise<string>) {
  let client: OAuthClientInformationMixed | undefined;
  let tokens: OAuthTokens | undefined;
  let verifier = '';
  const state = { callback: '', authorizationUrl: null as URL | null };
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return REDIRECT;
    },
    get clientMetadata() {
      return {
        client_name: 'MCP test client',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },
    clientInformation: () => client,
    saveClientInformation: (info) => {
      client = info;
    },
    tokens: () => tokens,
    saveTokens: (t) => {
      tokens = t;
    },
    async redirectToAuthorization(url) {
      state.authorizationUrl = url;
      state.callback = await approve(url);
    },
    saveCodeVerifier: (v) => {
      verifier = v;
    },
    codeVerifier: () => verifier,
  };
  return { provider, state, client: () => client, tokens: () => tokens };
}

describeWithServer('Identity provider: MCP authorization with the official MCP SDK (issue 31)', (get) => {
  const closers: Array<() => Promise<void>> = [];
  after(async () => {
    for (const close of closers) await close();
  });

  it('an MCP client discovers, registers, authorizes with PKCE and a resource indicator, and calls a tool', async () => {
    const server = get();
    const p = await idpProject(server, { 'oidc.scopes': ['mcp:tools'], 'oidc.dynamicClientRegistration': 'open' });
    const mcp = await startMcpServer(p.issuer);
    closers.push(mcp.close);
    const user = await signedInUser(server, p);
    const oauth = memoryOAuthProvider((url) => approveInHostedPages(p.projectId, url.href, user, REDIRECT, { expectConsent: true }));

    // First connection: 401 with the challenge → RFC 9728 metadata → RFC 8414 metadata → RFC 7591
    // registration → authorization request (PKCE S256, resource), which our provider approves.
    const first = new StreamableHTTPClientTransport(new URL(mcp.resource), { authProvider: oauth.provider });
    await assert.rejects(new Client({ name: 'test', version: '1.0.0' }).connect(first), UnauthorizedError);
    assert.ok(mcp.paths.includes('GET /.well-known/oauth-protected-resource/mcp'), mcp.paths.join('\n'));
    const request = oauth.state.authorizationUrl!;
    assert.equal(request.origin + request.pathname, `${p.issuer}/auth`);
    assert.equal(request.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(request.searchParams.get('resource'), mcp.resource);
    assert.equal(request.searchParams.get('scope'), 'mcp:tools');
    const registered = await api(server, 'GET', `/internal/oauth-clients/${oauth.client()!.client_id}`, p.admin);
    assert.equal(registered.status, 200, registered.text);
    assert.equal(registered.body.registered_by, 'dynamic');
    assert.equal(registered.body.token_endpoint_auth_method, 'none');

    await first.finishAuth(new URL(oauth.state.callback).searchParams.get('code')!);
    const token = oauth.tokens()!.access_token;
    assert.equal(decodeProtectedHeader(token).typ, 'at+jwt');
    assert.equal(decodeJwt(token).aud, mcp.resource);
    assert.equal(decodeJwt(token).sub, user.id);

    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.resource), { authProvider: oauth.provider }));
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    assert.deepEqual(result.content, [{ type: 'text', text: `hello ${user.id} via ${oauth.client()!.client_id}` }]);
    await client.close();
  });

  it('the SDK helpers refuse a missing, malformed, foreign-audience, opaque or under-scoped token with the RFC 6750 challenge', async () => {
    const server = get();
    const p = await idpProject(server, { 'oidc.scopes': ['mcp:tools', 'reports:read'] });
    const mcp = await startMcpServer(p.issuer);
    closers.push(mcp.close);
    const metadataUrl = mcp.resource.replace('/mcp', '/.well-known/oauth-protected-resource/mcp');
    const metadata = await (await fetch(metadataUrl)).json();
    assert.deepEqual(metadata, {
      resource: mcp.resource,
      authorization_servers: [p.issuer],
      jwks_uri: `${p.issuer}/jwks`,
      scopes_supported: ['mcp:tools'],
      bearer_methods_supported: ['header'],
      resource_signing_alg_values_supported: ['ES256'],
      resource_name: 'Reports',
    });
    const service = await createClient(server, p.admin, {
      client_name: 'Service',
      grant_types: ['client_credentials'],
      scope: 'mcp:tools reports:read',
    });
    const config = await discover(p.issuer, service.client_id, service.client_secret);
    const call = (authorization?: string) =>
      fetch(mcp.resource, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });

    const none = await call();
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), `Bearer resource_metadata="${metadataUrl}", scope="mcp:tools"`);
    const malformed = await call('Basic abc');
    assert.equal(malformed.status, 400);
    assert.match(malformed.headers.get('www-authenticate')!, /error="invalid_request"/);

    const foreign = (await oidc.clientCredentialsGrant(config, { scope: 'mcp:tools', resource: 'https://other.example.com/mcp' }))
      .access_token;
    const opaque = (await oidc.clientCredentialsGrant(config, { scope: 'mcp:tools' })).access_token;
    for (const token of [foreign, opaque, `${foreign.slice(0, -4)}AAAA`]) {
      const res = await call(`Bearer ${token}`);
      assert.equal(res.status, 401);
      assert.match(
        res.headers.get('www-authenticate')!,
        /^Bearer resource_metadata="[^"]+", error="invalid_token", error_description="[^"]+", scope="mcp:tools"$/,
      );
      assert.equal((await res.json()).error, 'invalid_token');
    }
    const narrow = (await oidc.clientCredentialsGrant(config, { scope: 'reports:read', resource: mcp.resource })).access_token;
    const under = await call(`Bearer ${narrow}`);
    assert.equal(under.status, 403);
    assert.match(under.headers.get('www-authenticate')!, /error="insufficient_scope"/);

    const good = (await oidc.clientCredentialsGrant(config, { scope: 'mcp:tools', resource: mcp.resource })).access_token;
    const ok = await call(`Bearer ${good}`);
    assert.equal(ok.status, 200, await ok.clone().text());
    const verified = await verifyOAuthAccessToken(good, {
      projectId: p.projectId,
      baseUrl: server.url,
      resource: mcp.resource,
      scopes: ['mcp:tools'],
    });
    assert.equal(verified.status, 'ok');
    if (verified.status === 'ok') {
      assert.equal(verified.data.clientId, service.client_id);
      assert.equal(verified.data.isUser, false);
      assert.deepEqual(verified.data.scopes, ['mcp:tools']);
    }
    // Another project's issuer does not accept it.
    const other = await idpProject(server);
    const elsewhere = await verifyOAuthAccessToken(good, { issuer: other.issuer, resource: mcp.resource });
    assert.equal(elsewhere.status, 'error');
  });
});
