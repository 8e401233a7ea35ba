import assert from 'node:assert/strict';
import { it } from 'node:test';
import * as oidc from 'openid-client';
import { api } from '../helpers/api.ts';
import { describeWithServer } from '../helpers/suite.ts';
import { idpProject, postForm } from './idp-fixtures.ts';

const insecure = { execute: [oidc.allowInsecureRequests] };

describeWithServer('Identity provider: dynamic client registration (issue 31)', (get) => {
  it('is off by default: no registration endpoint, and the path refuses', async () => {
    const server = get();
    const p = await idpProject(server);
    const res = await fetch(`${p.issuer}/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.ok(res.status === 404 || res.status === 400, String(res.status));
  });

  it('registers clients when open (never skipping consent); bad metadata is refused with the RFC 7591 error', async () => {
    const server = get();
    const p = await idpProject(server, { 'oidc.dynamicClientRegistration': 'open' });
    const config = await oidc.dynamicClientRegistration(
      new URL(p.issuer),
      {
        client_name: 'MCP client',
        redirect_uris: ['http://127.0.0.1:33418/callback'],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
      },
      oidc.None(),
      insecure,
    );
    const meta = config.clientMetadata();
    assert.match(meta.client_id, /^gh_/);
    assert.equal(meta.client_secret, undefined);
    const listed = await api(server, 'GET', '/internal/oauth-clients', p.admin);
    const row = listed.body.items.find((c: any) => c.client_id === meta.client_id);
    assert.equal(row.registered_by, 'dynamic');
    assert.equal(row.skip_consent, false);

    // skip_consent is Gatehouse's and admin-only: a registration asking for it gets a client that still asks consent.
    const sneaky = await oidc.dynamicClientRegistration(
      new URL(p.issuer),
      { client_name: 'Sneaky', redirect_uris: ['https://sneaky.example.com/cb'], skip_consent: true } as any,
      undefined,
      insecure,
    );
    const sneakyRow = (await api(server, 'GET', `/internal/oauth-clients/${sneaky.clientMetadata().client_id}`, p.admin)).body;
    assert.equal(sneakyRow.skip_consent, false);

    const bad = await fetch(`${p.issuer}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['not a url'] }),
    });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as any).error, 'invalid_redirect_uri');
  });

  it('needs an initial access token minted by the admin API in initial_access_token mode', async () => {
    const server = get();
    const p = await idpProject(server, { 'oidc.dynamicClientRegistration': 'initial_access_token' });
    const metadata = { client_name: 'Svc', grant_types: ['client_credentials'], response_types: [], redirect_uris: [] };
    const without = await fetch(`${p.issuer}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(metadata),
    });
    assert.equal(without.status, 401);
    const minted = await api(server, 'POST', '/internal/oauth-initial-access-tokens', p.admin, {});
    assert.equal(minted.status, 201, minted.text);
    const config = await oidc.dynamicClientRegistration(new URL(p.issuer), metadata, undefined, {
      ...insecure,
      initialAccessToken: minted.body.initial_access_token,
    });
    const { client_id, client_secret } = config.clientMetadata();
    assert.ok(client_secret);
    const token = await postForm(
      `${p.issuer}/token`,
      { grant_type: 'client_credentials' },
      { id: client_id, secret: client_secret as string },
    );
    assert.equal(token.status, 200, token.text);
  });
});
