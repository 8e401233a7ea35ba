import assert from 'node:assert/strict';
import { it } from 'node:test';
import * as oidc from 'openid-client';
import { describeWithServer } from '../helpers/suite.ts';
import { createClient, discover, idpProject, postForm } from './idp-fixtures.ts';

describeWithServer('Identity provider: throttling of the token and device endpoints (issue 31)', (get) => {
  it('answers 429 too_many_requests with Retry-After past the per-address token limit, and again after the window refills', async () => {
    const server = get();
    const p = await idpProject(server, {});
    const limited = await idpProject(server, { 'rateLimits.rules.oauth_token_per_address': { limit: 3, windowSeconds: 60 } });
    for (const project of [p, limited]) {
      const client = await createClient(server, project.admin, { client_name: 'Job', grant_types: ['client_credentials'] });
      Object.assign(project, { client_id: client.client_id, secret: client.client_secret });
    }
    const grant = (project: typeof p) =>
      postForm(
        `${project.issuer}/token`,
        { grant_type: 'client_credentials' },
        { id: (project as any).client_id, secret: (project as any).secret },
      );
    for (let i = 0; i < 3; i++) assert.equal((await grant(limited)).status, 200);
    const refused = await grant(limited);
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.body.error, 'too_many_requests');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    // Introspection and revocation share the bucket.
    const introspect = await postForm(`${limited.issuer}/token/introspection`, { token: 'x' });
    assert.equal(introspect.status, 429);
    // openid-client sees the refusal as an error response.
    const config = await discover(limited.issuer, (limited as any).client_id, (limited as any).secret);
    await assert.rejects(oidc.clientCredentialsGrant(config), (e: any) => e.status === 429 || e.cause?.status === 429);
    // Another project's issuer has its own buckets (and the default limit).
    assert.equal((await grant(p)).status, 200);
    server.clock.advance(60_000);
    assert.equal((await grant(limited)).status, 200);
  });

  it('limits device authorization requests and user-code submissions per address', async () => {
    const server = get();
    const p = await idpProject(server, { 'rateLimits.rules.oauth_device_per_address': { limit: 2, windowSeconds: 300 } });
    const client = await createClient(server, p.admin, {
      client_name: 'TV',
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code'],
      token_endpoint_auth_method: 'none',
      redirect_uris: [],
    });
    const ask = () => postForm(`${p.issuer}/device/auth`, { client_id: client.client_id, scope: 'openid' });
    assert.equal((await ask()).status, 200);
    // A user-code guess (without the page's anti-forgery field) spends a token too.
    const guess = await postForm(`${p.issuer}/device`, { user_code: 'BBBB-BBBB' });
    assert.notEqual(guess.status, 429);
    assert.ok(guess.status < 500);
    const refused = await ask();
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'too_many_requests');
    assert.equal((await postForm(`${p.issuer}/device`, { user_code: 'BBBB-BBBB' })).status, 429);
  });
});
