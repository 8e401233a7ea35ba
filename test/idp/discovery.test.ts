import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createProject } from '../helpers/api.ts';
import { describeWithServer } from '../helpers/suite.ts';
import { idpProject, issuerOf } from './idp-fixtures.ts';

describeWithServer('Identity provider discovery (issue 31)', (get) => {
  it('answers 404 at the issuer while the project has not turned oidc.enabled on', async () => {
    const server = get();
    const { projectId } = await createProject(server);
    const res = await fetch(`${issuerOf(server, projectId)}/.well-known/openid-configuration`);
    assert.equal(res.status, 404);
  });

  it('serves OpenID discovery and RFC 8414 metadata at both places, with the project keys as JWKS', async () => {
    const server = get();
    const { projectId, issuer } = await idpProject(server);
    const discovery = await fetch(`${issuer}/.well-known/openid-configuration`);
    assert.equal(discovery.status, 200);
    const doc = (await discovery.json()) as Record<string, any>;
    assert.equal(doc.issuer, issuer);
    assert.equal(doc.token_endpoint, `${issuer}/token`);
    assert.deepEqual(doc.code_challenge_methods_supported, ['S256']);
    assert.ok(doc.grant_types_supported.includes('client_credentials'));
    assert.ok(doc.grant_types_supported.includes('urn:ietf:params:oauth:grant-type:device_code'));
    assert.equal(doc.registration_endpoint, undefined, 'dynamic registration is off by default');
    for (const url of [
      `${issuer}/.well-known/oauth-authorization-server`,
      `${server.url}/.well-known/oauth-authorization-server/api/v1/projects/${projectId}/oidc`,
    ]) {
      const res = await fetch(url);
      assert.equal(res.status, 200, url);
      assert.deepEqual(await res.json(), doc, url);
    }
    const jwks = (await (await fetch(doc.jwks_uri)).json()) as { keys: Array<Record<string, string>> };
    const projectJwks = (await (await fetch(`${server.url}/api/v1/projects/${projectId}/.well-known/jwks.json`)).json()) as typeof jwks;
    assert.deepEqual(
      jwks.keys.map((k) => k.kid),
      projectJwks.keys.map((k) => k.kid),
    );
    assert.ok(jwks.keys.every((k) => k.alg === 'ES256' && k.d === undefined));
  });

  it('answers 404 for an unknown project and for a malformed project id', async () => {
    const server = get();
    for (const id of ['8a7f3b1e-0000-4000-8000-000000000000', 'not-a-project', '%E0%A4%A']) {
      const res = await fetch(`${server.url}/api/v1/projects/${id}/oidc/.well-known/openid-configuration`);
      assert.equal(res.status, 404, id);
    }
  });
});
