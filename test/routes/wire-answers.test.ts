import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject } from '../helpers/api.ts';

/**
 * Wire checks moved out of core tests (issue 33, "Core tests without HTTP"): what the HTTP host
 * makes of a request's headers and body and of core's answers (status, known-error headers,
 * exact bodies, cookies). Each test names the core test file its domain behaviour stayed in.
 */
describeWithServer('wire answers moved from core tests', (get) => {
  // From core/anonymous/anonymous.test.ts.
  it('anonymous sign-up: a POST with no body and no content-type (as the official SDK sends it) answers 200 with the tokens', async () => {
    const server = get();
    const { client, projectId } = await createProject(server);
    const res = await fetch(`${server.url}/api/v1/auth/anonymous/sign-up`, { method: 'POST', headers: { 'x-stack-project-id': projectId, 'x-stack-access-type': 'client', 'x-stack-admin-access-token': client.adminAccessToken! } });
    assert.equal(res.status, 200);
    const body = await res.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'refresh_token', 'user_id']);
  });

  // From core/anonymous/anonymous.test.ts.
  it('anonymous tokens: x-stack-allow-anonymous-user: true admits them, its absence is ANONYMOUS_AUTHENTICATION_NOT_ALLOWED with the known-error headers', async () => {
    const server = get();
    const { client } = await createProject(server);
    const anon = await api(server, 'POST', '/auth/anonymous/sign-up', client);
    assert.equal(anon.status, 200, anon.text);
    const me = await api(server, 'GET', '/users/me', { ...client, accessToken: anon.body.access_token, headers: { 'x-stack-allow-anonymous-user': 'true' } });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.id, anon.body.user_id);
    assertKnownError(await api(server, 'GET', '/users/me', { ...client, accessToken: anon.body.access_token }), 'ANONYMOUS_AUTHENTICATION_NOT_ALLOWED', 401);
    assertKnownError(await api(server, 'GET', '/users/me', { ...client, accessToken: anon.body.access_token, headers: { 'x-stack-allow-restricted-user': 'true' } }), 'ANONYMOUS_AUTHENTICATION_NOT_ALLOWED', 401);
    assertKnownError(await api(server, 'POST', '/auth/anonymous/sign-up', { projectId: client.projectId, accessType: 'client' }, { display_name: 'x' }), 'SCHEMA_ERROR', 400);
  });
});
