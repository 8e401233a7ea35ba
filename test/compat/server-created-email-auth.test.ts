import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject } from '../helpers/api.ts';

// `POST /users` (server) with a primary email and no `primary_email_auth_enabled`
// answers `primary_email_auth_enabled: false` where upstream does: an address that fails the strict
// email schema, and one another user already signs in with (upstream
// https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/e2e/tests/backend/endpoints/api/v1/users.test.ts). An ordinary address is usable for
// sign-in by default (a documented Gatehouse default, docs/compatibility.md).

describeWithServer('server-created users: primary_email_auth_enabled by default', (get) => {
  it('is false for an address that fails the strict schema, as upstream answers it', async () => {
    const server = get();
    const { server: srv } = await createProject(server);
    const res = await api(server, 'POST', '/users', srv, { primary_email: 'invalid_email@gmai' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.primary_email, 'invalid_email@gmai');
    assert.equal(res.body.primary_email_auth_enabled, false);
    assert.equal(res.body.auth_with_email, false);
    assert.equal(res.body.primary_email_verified, false);
  });

  it('is false when another user signs in with the address, and the first user still signs in', async () => {
    const server = get();
    const { server: srv, client } = await createProject(server, { credential_enabled: true });
    const email = `taken-${Date.now()}@example.com`;
    const first = await api(server, 'POST', '/users', srv, {
      primary_email: email,
      primary_email_auth_enabled: true,
      password: 'a strong password 1',
    });
    assert.equal(first.status, 201, first.text);
    const second = await api(server, 'POST', '/users', srv, { primary_email: email });
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.primary_email_auth_enabled, false);
    assert.equal(second.body.auth_with_email, false);
    const signIn = await api(server, 'POST', '/auth/password/sign-in', client, { email, password: 'a strong password 1' });
    assert.equal(signIn.status, 200, signIn.text);
    assert.equal(signIn.body.user_id, first.body.id);
    const explicit = await api(server, 'POST', '/users', srv, { primary_email: email, primary_email_auth_enabled: true });
    assert.equal(explicit.status, 409, explicit.text);
    assert.equal(explicit.body.code, 'USER_EMAIL_ALREADY_EXISTS');
  });

  it('is true for an ordinary unused address', async () => {
    const server = get();
    const { server: srv } = await createProject(server);
    const res = await api(server, 'POST', '/users', srv, { primary_email: `fresh-${Date.now()}@example.com` });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.primary_email_auth_enabled, true);
  });
});
