import assert from 'node:assert/strict';
import { it } from 'node:test';
import * as oidc from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { api, assertKnownError } from '../helpers/api.ts';
import { describeWithServer } from '../helpers/suite.ts';
import { createClient, discover, idpProject, postForm } from './idp-fixtures.ts';

describeWithServer('Identity provider: machine-to-machine clients (issue 31)', (get) => {
  it('issues client-credentials tokens limited to the client scopes, introspects and revokes them', async () => {
    const server = get();
    const { admin, issuer } = await idpProject(server, { 'oidc.scopes': ['reports:read', 'reports:write'] });
    const client = await createClient(server, admin, {
      client_name: 'Nightly job',
      grant_types: ['client_credentials'],
      scope: 'reports:read',
    });
    assert.match(client.client_secret!, /^[A-Za-z0-9_-]{43}$/);
    const config = await discover(issuer, client.client_id, client.client_secret);

    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'reports:read' });
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
    assert.equal(tokens.scope, 'reports:read');
    await assert.rejects(oidc.clientCredentialsGrant(config, { scope: 'reports:write' }), (e: any) => e.error === 'invalid_scope');

    const active = await oidc.tokenIntrospection(config, tokens.access_token);
    assert.equal(active.active, true);
    assert.equal(active.client_id, client.client_id);
    assert.equal(active.scope, 'reports:read');

    await oidc.tokenRevocation(config, tokens.access_token);
    assert.equal((await oidc.tokenIntrospection(config, tokens.access_token)).active, false);
  });

  it('answers a resource indicator with an ES256 JWT access token (RFC 9068) for that audience', async () => {
    const server = get();
    const { admin, issuer } = await idpProject(server, { 'oidc.scopes': ['mcp:tools'] });
    const client = await createClient(server, admin, { client_name: 'Agent', grant_types: ['client_credentials'], scope: 'mcp:tools' });
    const config = await discover(issuer, client.client_id, client.client_secret);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'mcp:tools', resource: 'https://mcp.example.com' });
    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, { issuer, audience: 'https://mcp.example.com' });
    assert.equal(protectedHeader.alg, 'ES256');
    assert.equal(protectedHeader.typ, 'at+jwt');
    assert.equal(payload.client_id, client.client_id);
    assert.equal(payload.scope, 'mcp:tools');
    const bad = await postForm(
      `${issuer}/token`,
      { grant_type: 'client_credentials', scope: 'mcp:tools', resource: 'https://mcp.example.com/#fragment' },
      { id: client.client_id, secret: client.client_secret! },
    );
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.body.error, 'invalid_target');
  });

  it('refuses bad credentials and bad requests with the RFC 6749 error codes, never 500', async () => {
    const server = get();
    const { admin, issuer } = await idpProject(server);
    const client = await createClient(server, admin, { client_name: 'Job', grant_types: ['client_credentials'], scope: 'openid' });
    const token = `${issuer}/token`;
    const wrong = await postForm(token, { grant_type: 'client_credentials' }, { id: client.client_id, secret: 'wrong' });
    assert.equal(wrong.status, 401, wrong.text);
    assert.equal(wrong.body.error, 'invalid_client');
    const unknown = await postForm(token, { grant_type: 'client_credentials' }, { id: 'nobody', secret: 'x' });
    assert.equal(unknown.body.error, 'invalid_client');
    const grant = await postForm(
      token,
      { grant_type: 'password', username: 'a', password: 'b' },
      { id: client.client_id, secret: client.client_secret! },
    );
    assert.equal(grant.status, 400);
    assert.equal(grant.body.error, 'unsupported_grant_type');
    const noGrant = await postForm(token, {}, { id: client.client_id, secret: client.client_secret! });
    assert.equal(noGrant.status, 400);
    assert.equal(noGrant.body.error, 'invalid_request');
    const garbage = await fetch(token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    assert.ok(garbage.status >= 400 && garbage.status < 500, String(garbage.status));
    const huge = await fetch(token, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&pad=${'a'.repeat(12 * 1024 * 1024)}`,
    });
    assert.equal(huge.status, 400);
    assert.equal(((await huge.json()) as any).error, 'invalid_request');
    const refresh = await postForm(
      token,
      { grant_type: 'refresh_token', refresh_token: 'nope' },
      { id: client.client_id, secret: client.client_secret! },
    );
    assert.equal(refresh.body.error, 'unauthorized_client', refresh.text);
    assert.equal(refresh.status, 400);
  });

  it("refuses one project's tokens and clients at another project's issuer", async () => {
    const server = get();
    const a = await idpProject(server);
    const b = await idpProject(server);
    const client = await createClient(server, a.admin, { client_name: 'A job', grant_types: ['client_credentials'], scope: 'openid' });
    const bClient = await createClient(server, b.admin, { client_name: 'B job', grant_types: ['client_credentials'], scope: 'openid' });
    const tokens = await oidc.clientCredentialsGrant(await discover(a.issuer, client.client_id, client.client_secret), {});
    const atB = await postForm(
      `${b.issuer}/token`,
      { grant_type: 'client_credentials' },
      { id: client.client_id, secret: client.client_secret! },
    );
    assert.equal(atB.status, 401);
    assert.equal(atB.body.error, 'invalid_client');
    const introspected = await oidc.tokenIntrospection(
      await discover(b.issuer, bClient.client_id, bClient.client_secret),
      tokens.access_token,
    );
    assert.equal(introspected.active, false);
  });

  it('manages clients through the admin API: secret once, list, get, patch, delete, validation', async () => {
    const server = get();
    const { admin, client: clientCaller, issuer } = await idpProject(server);
    const created = await createClient(server, admin, {
      client_name: 'Web app',
      redirect_uris: ['https://app.example.com/callback'],
      logo_uri: 'https://app.example.com/logo.png',
      skip_consent: true,
    });
    assert.equal(created.token_endpoint_auth_method, 'client_secret_basic');
    assert.deepEqual(created.grant_types, ['authorization_code', 'refresh_token']);
    const list = await api(server, 'GET', '/internal/oauth-clients', admin);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.items.map((c: any) => c.client_id),
      [created.client_id],
    );
    assert.equal('client_secret' in list.body.items[0], false);
    const one = await api(server, 'GET', `/internal/oauth-clients/${created.client_id}`, admin);
    assert.equal(one.body.skip_consent, true);
    assert.equal(one.body.logo_uri, 'https://app.example.com/logo.png');
    const patched = await api(server, 'PATCH', `/internal/oauth-clients/${created.client_id}`, admin, {
      client_name: 'Web app 2',
      skip_consent: false,
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.client_name, 'Web app 2');
    assert.equal(patched.body.skip_consent, false);

    const publicClient = await createClient(server, admin, {
      client_name: 'CLI',
      redirect_uris: ['http://127.0.0.1:8976/callback'],
      token_endpoint_auth_method: 'none',
    });
    assert.equal(publicClient.client_secret, null);

    for (const [body, why] of [
      [{ client_name: 'x', redirect_uris: [] }, 'code client without redirect URIs'],
      [{ client_name: 'x', redirect_uris: ['http://evil.example.com/cb'] }, 'plain http redirect'],
      [{ client_name: 'x', redirect_uris: ['https://a.example.com/cb#frag'] }, 'fragment'],
      [{ client_name: 'x', grant_types: ['client_credentials'], token_endpoint_auth_method: 'none' }, 'public client credentials'],
      [
        { client_name: 'x', grant_types: ['client_credentials'], token_endpoint_auth_method: 'private_key_jwt' },
        'private_key_jwt without keys',
      ],
      [{ client_name: 'x', grant_types: ['client_credentials'], scope: 'undeclared:scope' }, 'unknown scope'],
    ] as const) {
      const res = await api(server, 'POST', '/internal/oauth-clients', admin, body);
      assert.equal(res.status, 400, `${why}: ${res.text}`);
    }
    assertKnownError(
      await api(server, 'POST', '/internal/oauth-clients', admin, { client_name: 'x', grant_types: ['implicit'] }),
      'SCHEMA_ERROR',
      400,
    );
    assertKnownError(await api(server, 'POST', '/internal/oauth-clients', admin, { client_name: 'x', colour: 'red' }), 'SCHEMA_ERROR', 400);
    assert.equal((await api(server, 'GET', '/internal/oauth-clients', clientCaller)).status >= 400, true);

    assert.equal((await api(server, 'DELETE', `/internal/oauth-clients/${created.client_id}`, admin)).status, 200);
    assert.equal((await api(server, 'GET', `/internal/oauth-clients/${created.client_id}`, admin)).status, 404);
    assert.equal((await api(server, 'DELETE', `/internal/oauth-clients/${created.client_id}`, admin)).status, 404);
    const gone = await postForm(
      `${issuer}/token`,
      { grant_type: 'client_credentials' },
      { id: created.client_id, secret: created.client_secret! },
    );
    assert.equal(gone.body.error, 'invalid_client');
  });
});
