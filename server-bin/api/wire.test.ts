import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys, internal } from '../../test/helpers/api.ts';

describeWithServer('HTTP wire format and request authentication', (get) => {
  /** The protocol headers of a response, by name (request id replaced by its shape). */
  const protocolHeaders = (res: Response) =>
    Object.fromEntries(
      [...res.headers]
        .filter(([name]) => /^x-(stack|hexclave)-/.test(name))
        .map(([name, value]) => [name, name.endsWith('request-id') ? /^[0-9a-f-]{36}$/.test(value) : value]),
    );

  it('answers an x-stack-* request with x-stack-* response headers only (4xx as 200 when asked to override)', async () => {
    const res = await fetch(`${get().url}/api/v1/users/me`, {
      headers: { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client', 'x-stack-override-error-status': 'true' },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(protocolHeaders(res), {
      'x-stack-actual-status': '400',
      'x-stack-known-error': 'CANNOT_GET_OWN_USER_WITHOUT_USER',
      'x-stack-request-id': true,
    });
    assert.deepEqual(Object.keys((await res.json()) as object), ['code', 'error'], 'no details key: the error has none');
  });

  it('answers an x-hexclave-* request with x-hexclave-* response headers only', async () => {
    const res = await fetch(`${get().url}/api/v1/users/me`, {
      headers: { 'x-hexclave-project-id': 'internal', 'x-hexclave-access-type': 'client', 'x-hexclave-override-error-status': 'true' },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(protocolHeaders(res), {
      'x-hexclave-actual-status': '400',
      'x-hexclave-known-error': 'CANNOT_GET_OWN_USER_WITHOUT_USER',
      'x-hexclave-request-id': true,
    });
  });

  it('answers a request with both generations of headers, or with neither, with both', async () => {
    const both = await fetch(`${get().url}/api/v1/users/me`, {
      headers: { 'x-stack-project-id': 'internal', 'x-hexclave-access-type': 'client' },
    });
    assert.equal(both.status, 400);
    assert.deepEqual(protocolHeaders(both), {
      'x-stack-known-error': 'CANNOT_GET_OWN_USER_WITHOUT_USER',
      'x-hexclave-known-error': 'CANNOT_GET_OWN_USER_WITHOUT_USER',
      'x-stack-request-id': true,
      'x-hexclave-request-id': true,
    });
    const neither = await fetch(`${get().url}/api/v1/users/me`);
    assert.equal(neither.status, 400);
    assert.deepEqual(protocolHeaders(neither), {
      'x-stack-known-error': 'ACCESS_TYPE_REQUIRED',
      'x-hexclave-known-error': 'ACCESS_TYPE_REQUIRED',
      'x-stack-request-id': true,
      'x-hexclave-request-id': true,
    });
  });

  it('sends `details` only with errors that have details (EMAIL_PASSWORD_MISMATCH has none; SCHEMA_ERROR has its message)', async () => {
    const server = get();
    await api(server, 'POST', '/auth/password/sign-up', internal.client, { email: 'details@example.com', password: 'correct-horse-1' });
    const mismatch = await api(server, 'POST', '/auth/password/sign-in', internal.client, {
      email: 'details@example.com',
      password: 'wrong-horse-1',
    });
    assertKnownError(mismatch, 'EMAIL_PASSWORD_MISMATCH', 400);
    assert.deepEqual(Object.keys(mismatch.body as object), ['code', 'error']);
    const schema = await api(server, 'POST', '/auth/password/sign-in', internal.client, { email: 'details@example.com' });
    assertKnownError(schema, 'SCHEMA_ERROR', 400);
    assert.deepEqual(Object.keys(schema.body as object), ['code', 'details', 'error']);
    assert.equal(typeof (schema.body as { details: { message: unknown } }).details.message, 'string');
  });

  it('sends a request id, no-store caching and CORS on every API response, and short-circuits OPTIONS', async () => {
    const server = get();
    const res = await fetch(`${server.url}/api/v1`);
    assert.match(res.headers.get('x-stack-request-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(res.headers.get('cache-control'), 'no-store, max-age=0');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.match(res.headers.get('access-control-expose-headers') ?? '', /x-hexclave-known-error/);
    const pre = await fetch(`${server.url}/api/v1/users/me`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-hexclave-project-id',
      },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-headers'), 'x-hexclave-project-id');
    assert.equal(pre.headers.get('access-control-max-age'), '86400');
  });

  it('answers unknown API routes with a plain-text 404', async () => {
    const res = await fetch(`${get().url}/api/v1/nope/nothing`);
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(await res.text(), /^404 — this page does not exist/);
  });

  it('greets on GET /api/v1 with the resolved caller, and refuses query parameters', async () => {
    const server = get();
    const none = await fetch(`${server.url}/api/v1`);
    assert.match(await none.text(), /Authentication: None$/);
    const client = await api(server, 'GET', '/', internal.client);
    assert.match(client.text, /Authentication: Client\n {2}Project: internal\n {2}User: None/);
    assertKnownError(await api(server, 'GET', '/?x=1'), 'SCHEMA_ERROR', 400);
  });

  it('serves /api/latest exactly like /api/v1', async () => {
    const res = await fetch(`${get().url}/api/latest/projects/current`, {
      headers: { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' },
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { id: string }).id, 'internal');
    // The root, validation messages naming the path as sent, and no rewrite of a mere look-alike.
    const root = await fetch(`${get().url}/api/latest`, { headers: { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' } });
    assert.match(await root.text(), /Authentication: Client/);
    const schema = await fetch(`${get().url}/api/latest/?x=1`, {
      headers: { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' },
    });
    assert.equal(schema.status, 400);
    assert.match(((await schema.json()) as { error: string }).error, /on GET \/api\/latest\//);
    assert.equal((await fetch(`${get().url}/api/latestx/projects/current`)).status, 404);
  });

  it('accepts x-hexclave-* headers and treats empty key headers as absent', async () => {
    const server = get();
    const p = await createProject(server);
    const res = await api(server, 'GET', '/internal/projects/current', {
      headers: {
        'x-hexclave-project-id': p.projectId,
        'x-hexclave-access-type': 'admin',
        'x-hexclave-admin-access-token': p.owner.accessToken,
        'x-hexclave-secret-server-key': '',
        'x-hexclave-super-secret-admin-key': '',
      },
    });
    assert.equal(res.status, 200, res.text);
    assertKnownError(
      await api(server, 'GET', '/users/me', {
        headers: { 'x-hexclave-project-id': p.projectId, 'x-hexclave-access-type': 'server', 'x-hexclave-secret-server-key': '' },
      }),
      'SERVER_AUTHENTICATION_REQUIRED',
      401,
    );
  });

  it('names every bad and unknown field in one SCHEMA_ERROR', async () => {
    const server = get();
    const p = await createProject(server);
    const res = await api(server, 'POST', '/users', p.server, {
      primary_email: 'not-an-email',
      display_name: 5,
      extra_one: 1,
      extra_two: 2,
    });
    assertKnownError(res, 'SCHEMA_ERROR', 400);
    assert.equal(res.body.details.message, res.body.error);
    assert.match(res.body.error, /^Request validation failed on POST \/api\/v1\/users:\n/);
    assert.match(res.body.error, /body contains unknown properties: extra_one, extra_two/);
    assert.match(res.body.error, /body\.primary_email must be a valid email/);
    assert.match(res.body.error, /body\.display_name must be a `string` type/);
  });

  it('rejects bad JSON with BODY_PARSING_ERROR and pretty-prints JSON for browsers', async () => {
    const server = get();
    const bad = await fetch(`${server.url}/api/v1/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' },
      body: '{oops',
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.headers.get('x-stack-known-error'), 'BODY_PARSING_ERROR');
    const pretty = await fetch(`${server.url}/api/v1/projects/current`, {
      headers: { accept: 'text/html', 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' },
    });
    assert.match(await pretty.text(), /^\{\n {2}"id"/);
  });

  it('checks the parseAuth steps in order: branch, publishable key requirement, bad keys', async () => {
    const server = get();
    const p = await createProject(server, { require_publishable_client_key: true });
    const keys = await createProjectKeys(server, p.admin);
    assertKnownError(
      await api(server, 'GET', '/projects/current', {
        projectId: p.projectId,
        accessType: 'client',
        headers: { 'x-stack-branch-id': 'dev' },
      }),
      'BRANCH_DOES_NOT_EXIST',
      400,
    );
    assertKnownError(
      await api(server, 'GET', '/projects/current', { projectId: p.projectId, accessType: 'client' }),
      'PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT',
      401,
    );
    assert.equal(
      (
        await api(server, 'GET', '/projects/current', {
          projectId: p.projectId,
          accessType: 'client',
          publishableClientKey: keys.publishableClientKey,
        })
      ).status,
      200,
    );
    assertKnownError(
      await api(server, 'GET', '/projects/current', { projectId: p.projectId, accessType: 'client', publishableClientKey: 'pck_wrong' }),
      'INVALID_PUBLISHABLE_CLIENT_KEY',
      401,
    );
    assertKnownError(
      await api(server, 'GET', '/projects/current', {
        projectId: p.projectId,
        accessType: 'server',
        secretServerKey: keys.secretServerKey.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
      }),
      'INVALID_SECRET_SERVER_KEY',
      401,
    );
    // Another project's valid key is not valid here (tenant isolation).
    const other = await createProject(server);
    assertKnownError(
      await api(server, 'GET', '/projects/current', {
        projectId: other.projectId,
        accessType: 'server',
        secretServerKey: keys.secretServerKey,
      }),
      'INVALID_SECRET_SERVER_KEY',
      401,
    );
    assertKnownError(await api(server, 'GET', '/internal/projects/current', p.server), 'INSUFFICIENT_ACCESS_TYPE', 401);
  });

  it('refuses anonymous users without x-stack-allow-anonymous-user and restricted users without allow-restricted', async () => {
    const server = get();
    const p = await createProject(server);
    const anon = await api(server, 'POST', '/users', p.server, { is_anonymous: true });
    const anonSession = await api(server, 'POST', '/auth/sessions', p.server, { user_id: anon.body.id });
    assertKnownError(
      await api(server, 'GET', '/users/me', { ...p.client, accessToken: anonSession.body.access_token }),
      'ANONYMOUS_AUTHENTICATION_NOT_ALLOWED',
      401,
    );
    const allowed = await api(server, 'GET', '/users/me', {
      ...p.client,
      accessToken: anonSession.body.access_token,
      headers: { 'x-stack-allow-anonymous-user': 'true' },
    });
    assert.equal(allowed.body.is_anonymous, true);
    assert.deepEqual(allowed.body.restricted_reason, { type: 'anonymous' });

    const restricted = await api(server, 'POST', '/users', p.server, { restricted_by_admin: true, restricted_by_admin_reason: 'spam' });
    const rs = await api(server, 'POST', '/auth/sessions', p.server, { user_id: restricted.body.id });
    assertKnownError(
      await api(server, 'GET', '/users/me', { ...p.client, accessToken: rs.body.access_token }),
      'RESTRICTED_USER_NOT_ALLOWED',
      403,
    );
    const ok = await api(server, 'GET', '/users/me', {
      ...p.client,
      accessToken: rs.body.access_token,
      headers: { 'x-stack-allow-restricted-user': 'true' },
    });
    assert.deepEqual(ok.body.restricted_reason, { type: 'restricted_by_administrator' });
  });
});
