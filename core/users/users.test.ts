import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject, createProjectKeys, type Caller } from '../../test/helpers/api.ts';
import type { TestServer } from '../../test/helpers/server.ts';

const CLIENT_KEYS = [
  'auth_with_email', 'client_metadata', 'client_read_only_metadata', 'display_name', 'has_password', 'id', 'is_anonymous',
  'is_restricted', 'oauth_providers', 'otp_auth_enabled', 'passkey_auth_enabled', 'primary_email', 'primary_email_verified',
  'profile_image_url', 'requires_totp_mfa', 'restricted_by_admin', 'restricted_by_admin_reason', 'restricted_reason',
  'selected_team', 'selected_team_id', 'signed_up_at_millis',
];
const SERVER_KEYS = [...CLIENT_KEYS, 'country_code', 'last_active_at_millis', 'primary_email_auth_enabled', 'restricted_by_admin_private_details', 'risk_scores', 'server_metadata'].sort();

/** A user created by the server key, with a session; returns callers as that user. */
async function userWithSession(server: TestServer, p: { client: Caller; server: Caller }, fields: Record<string, unknown> = {}) {
  const created = await api(server, 'POST', '/users', p.server, fields);
  assert.equal(created.status, 201, created.text);
  const session = await api(server, 'POST', '/auth/sessions', p.server, { user_id: created.body.id });
  assert.equal(session.status, 200, session.text);
  return {
    id: created.body.id as string,
    client: { ...p.client, accessToken: session.body.access_token } as Caller,
    server: { ...p.server, accessToken: session.body.access_token } as Caller,
  };
}

describeWithServer('users', (get) => {
  it('shows each access level exactly its field set on /users/me and /users/{id}', async () => {
    const server = get();
    const p = await createProject(server);
    const u = await userWithSession(server, p, { primary_email: 'view@example.com', server_metadata: { secret: 1 } });
    const asClient = await api(server, 'GET', '/users/me', u.client);
    assert.deepEqual(Object.keys(asClient.body).sort(), [...CLIENT_KEYS].sort());
    const asServer = await api(server, 'GET', '/users/me', u.server);
    assert.deepEqual(Object.keys(asServer.body).sort(), SERVER_KEYS);
    assert.deepEqual(asServer.body.risk_scores, { sign_up: { bot: 0, free_trial_abuse: 0 } });
    const byId = await api(server, 'GET', `/users/${u.id}`, p.admin);
    assert.deepEqual(Object.keys(byId.body).sort(), SERVER_KEYS);
    assert.deepEqual(byId.body.server_metadata, { secret: 1 });
  });

  it('lets a client update its own client fields, storing an empty display name as null', async () => {
    const server = get();
    const p = await createProject(server);
    const u = await userWithSession(server, p);
    const res = await api(server, 'PATCH', '/users/me', u.client, { display_name: 'Ann', client_metadata: { theme: 'dark' }, profile_image_url: 'https://example.com/a.png' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.display_name, 'Ann');
    assert.deepEqual(res.body.client_metadata, { theme: 'dark' });
    assert.equal('server_metadata' in res.body, false);
    const cleared = await api(server, 'PATCH', '/users/me', u.client, { display_name: '' });
    assert.equal(cleared.body.display_name, null);
    const me = await api(server, 'GET', '/users/me', u.client);
    assert.equal(me.body.display_name, null);
    assert.deepEqual(me.body.client_metadata, { theme: 'dark' });
    assert.equal(me.body.profile_image_url, 'https://example.com/a.png');
  });

  it('refuses server fields from a client with SCHEMA_ERROR, and accepts them from the server', async () => {
    const server = get();
    const p = await createProject(server);
    const u = await userWithSession(server, p);
    const bad = await api(server, 'PATCH', '/users/me', u.client, { server_metadata: { a: 1 }, client_read_only_metadata: {} });
    assertKnownError(bad, 'SCHEMA_ERROR', 400);
    assert.match(bad.body.error, /body contains unknown properties: server_metadata, client_read_only_metadata/);
    const ok = await api(server, 'PATCH', '/users/me', u.server, { server_metadata: { a: 1 }, client_read_only_metadata: { plan: 'pro' }, country_code: 'DE' });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body.server_metadata, { a: 1 });
    assert.equal(ok.body.country_code, 'DE');
    const me = await api(server, 'GET', '/users/me', u.client);
    assert.deepEqual(me.body.client_read_only_metadata, { plan: 'pro' });
  });

  it('rejects bad user input: long display name, bad image, bad email, unknown field', async () => {
    const server = get();
    const p = await createProject(server);
    const u = await userWithSession(server, p);
    assertKnownError(await api(server, 'PATCH', '/users/me', u.client, { display_name: 'x'.repeat(257) }), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'PATCH', '/users/me', u.client, { profile_image_url: 'not a url' }), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'PATCH', '/users/me', u.client, { primary_email: 'not-an-email' }), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'PATCH', `/users/${u.id}`, p.server, { nope: true }), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'GET', '/users/not-a-uuid', p.server), 'SCHEMA_ERROR', 400);
    const big = `data:image/png;base64,${'A'.repeat(140_000)}`;
    assertKnownError(await api(server, 'PATCH', '/users/me', u.client, { profile_image_url: big }), 'SCHEMA_ERROR', 400);
    // A real PNG (its bytes must match its type: issue 14 item 8).
    const small = `data:image/png;base64,${Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(700)]).toString('base64')}`;
    assert.equal((await api(server, 'PATCH', '/users/me', u.client, { profile_image_url: small })).status, 200);
  });

  it('answers CANNOT_GET_OWN_USER_WITHOUT_USER for /users/me without a user, at every level', async () => {
    const server = get();
    const p = await createProject(server);
    for (const caller of [p.client, p.server, p.admin]) {
      assertKnownError(await api(server, 'GET', '/users/me', caller), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
      assertKnownError(await api(server, 'PATCH', '/users/me', caller, { display_name: 'x' }), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
      assertKnownError(await api(server, 'DELETE', '/users/me', caller), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    }
    assertKnownError(await api(server, 'GET', '/users/me', { projectId: p.projectId }), 'ACCESS_TYPE_REQUIRED', 400);
  });

  it('keeps auth emails unique with USER_EMAIL_ALREADY_EXISTS on update, normalizing case', async () => {
    const server = get();
    const p = await createProject(server);
    await userWithSession(server, p, { primary_email: 'taken@example.com' });
    const u = await userWithSession(server, p, { primary_email: 'mine@example.com', primary_email_verified: true });
    const res = await api(server, 'PATCH', '/users/me', u.client, { primary_email: 'TAKEN@example.com' });
    assertKnownError(res, 'USER_EMAIL_ALREADY_EXISTS', 409);
    assert.equal(res.body.details.email, 'taken@example.com');
    assertKnownError(await api(server, 'PATCH', `/users/${u.id}`, p.server, { primary_email: 'taken@example.com' }), 'USER_EMAIL_ALREADY_EXISTS', 409);
    assertKnownError(await api(server, 'POST', '/users', p.server, { primary_email: 'Taken@Example.com', primary_email_auth_enabled: true }), 'USER_EMAIL_ALREADY_EXISTS', 409);
    // Unasked, a server-created user gets the address without email sign-in, as upstream answers.
    assert.equal((await api(server, 'POST', '/users', p.server, { primary_email: 'Taken@Example.com' })).body.primary_email_auth_enabled, false);
    // Without email sign-in the address may be shared.
    assert.equal((await api(server, 'PATCH', `/users/${u.id}`, p.server, { primary_email: 'taken@example.com', primary_email_auth_enabled: false })).status, 200);
    const changed = await api(server, 'PATCH', '/users/me', u.client, { primary_email: 'New@Example.com' });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.primary_email, 'new@example.com');
    assert.equal(changed.body.primary_email_verified, false);
  });

  it('allows selecting only a team the user belongs to (TEAM_MEMBERSHIP_NOT_FOUND otherwise)', async () => {
    const server = get();
    const p = await createProject(server, { create_team_on_sign_up: true });
    const u = await userWithSession(server, p, { display_name: 'Tea' });
    const other = await userWithSession(server, p, { display_name: 'Other' });
    const mine = (await api(server, 'GET', '/users/me', u.client)).body;
    assert.equal(mine.selected_team.display_name, "Tea's Team");
    const theirs = (await api(server, 'GET', '/users/me', other.client)).body.selected_team_id as string;
    const res = await api(server, 'PATCH', '/users/me', u.client, { selected_team_id: theirs });
    assertKnownError(res, 'TEAM_MEMBERSHIP_NOT_FOUND', 404);
    assert.deepEqual(res.body.details, { team_id: theirs, user_id: u.id });
    const none = await api(server, 'PATCH', '/users/me', u.client, { selected_team_id: null });
    assert.equal(none.body.selected_team, null);
    const back = await api(server, 'PATCH', '/users/me', u.client, { selected_team_id: mine.selected_team_id });
    assert.equal(back.body.selected_team.id, mine.selected_team_id);
    assert.equal('created_at_millis' in back.body.selected_team, false);
    const asServer = await api(server, 'GET', `/users/${u.id}`, p.server);
    assert.equal(typeof asServer.body.selected_team.created_at_millis, 'number');
  });

  it('lets a client delete itself only with client_user_deletion_enabled', async () => {
    const server = get();
    const p = await createProject(server);
    const u = await userWithSession(server, p);
    const refused = await api(server, 'DELETE', '/users/me', u.client);
    assert.equal(refused.status, 400);
    assert.match(refused.text, /Client user deletion is not enabled/);
    assert.equal((await api(server, 'PATCH', '/internal/projects/current', p.admin, { config: { client_user_deletion_enabled: true } })).status, 200);
    const ok = await api(server, 'DELETE', '/users/me', u.client);
    assert.deepEqual(ok.body, { success: true });
    assertKnownError(await api(server, 'GET', `/users/${u.id}`, p.server), 'USER_NOT_FOUND', 404);
    // The server may always delete its users' own accounts.
    const v = await userWithSession(server, p);
    assert.deepEqual((await api(server, 'DELETE', '/users/me', v.server)).body, { success: true });
  });

  it('gets, updates and deletes a user by id (server and admin), with USER_NOT_FOUND and access denial for clients', async () => {
    const server = get();
    const p = await createProject(server);
    const u = await userWithSession(server, p, { primary_email: 'byid@example.com' });
    const missing = '0b5c8e1a-2f4d-4c6b-9a1e-3d7f5e2c1b0a';
    for (const caller of [p.server, p.admin]) {
      const got = await api(server, 'GET', `/users/${u.id}`, caller);
      assert.equal(got.body.primary_email, 'byid@example.com');
      assertKnownError(await api(server, 'GET', `/users/${missing}`, caller), 'USER_NOT_FOUND', 404);
      assertKnownError(await api(server, 'PATCH', `/users/${missing}`, caller, { display_name: 'x' }), 'USER_NOT_FOUND', 404);
      assertKnownError(await api(server, 'DELETE', `/users/${missing}`, caller), 'USER_NOT_FOUND', 404);
    }
    const updated = await api(server, 'PATCH', `/users/${u.id}`, p.server, { display_name: 'Server Set', server_metadata: { k: 'v' }, restricted_by_admin: true, restricted_by_admin_reason: 'spam' });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.display_name, 'Server Set');
    assert.equal(updated.body.is_restricted, true);
    assert.deepEqual(updated.body.restricted_reason, { type: 'restricted_by_administrator' });
    assert.deepEqual(await api(server, 'GET', `/users/me`, { ...p.server, accessToken: u.server.accessToken }).then((r) => r.body.code), 'RESTRICTED_USER_NOT_ALLOWED');
    const byMe = await api(server, 'GET', '/users/me', { ...u.server, headers: { 'x-stack-allow-restricted-user': 'true' } });
    assert.equal(byMe.body.restricted_by_admin_reason, 'spam');
    for (const [method, body] of [['GET', undefined], ['PATCH', { display_name: 'x' }], ['DELETE', undefined]] as const) {
      const res = await api(server, method, `/users/${u.id}`, p.client, body);
      assertKnownError(res, 'INSUFFICIENT_ACCESS_TYPE', 401);
      assert.deepEqual(res.body.details, { actual_access_type: 'client', allowed_access_types: ['server', 'admin'] });
    }
    assert.deepEqual((await api(server, 'DELETE', `/users/${u.id}`, p.admin)).body, { success: true });
    assertKnownError(await api(server, 'GET', `/users/${u.id}`, p.server), 'USER_NOT_FOUND', 404);
    // The deleted user's token no longer works.
    assertKnownError(await api(server, 'GET', '/users/me', u.client), 'UNPARSABLE_ACCESS_TOKEN', 401);
  });

  it('keeps users of other projects invisible (tenant isolation)', async () => {
    const server = get();
    const a = await createProject(server);
    const b = await createProject(server);
    const u = await userWithSession(server, a, { primary_email: 'iso@example.com' });
    assertKnownError(await api(server, 'GET', `/users/${u.id}`, b.server), 'USER_NOT_FOUND', 404);
    assertKnownError(await api(server, 'PATCH', `/users/${u.id}`, b.server, { display_name: 'x' }), 'USER_NOT_FOUND', 404);
    assertKnownError(await api(server, 'DELETE', `/users/${u.id}`, b.server), 'USER_NOT_FOUND', 404);
    assert.deepEqual((await api(server, 'GET', '/users', b.server)).body.items, []);
    // The same email may sign in to another project.
    assert.equal((await api(server, 'POST', '/users', b.server, { primary_email: 'iso@example.com' })).status, 201);
  });

  it('lists users paginated by sign-up time with cursor, limit and desc', async () => {
    const server = get();
    const p = await createProject(server);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      server.clock.advance(1000);
      const res = await api(server, 'POST', '/users', p.server, { display_name: `User ${i}`, primary_email: `list${i}@example.com` });
      ids.push(res.body.id);
    }
    const all = await api(server, 'GET', '/users', p.server);
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(all.body.items.map((u: { id: string }) => u.id), ids);
    assert.equal(all.body.is_paginated, true);
    assert.deepEqual(all.body.pagination, { next_cursor: null });
    assert.ok('risk_scores' in all.body.items[0]);

    const page1 = await api(server, 'GET', '/users?limit=2&order_by=signed_up_at', p.server);
    assert.deepEqual(page1.body.items.map((u: { id: string }) => u.id), ids.slice(0, 2));
    assert.equal(page1.body.pagination.next_cursor, ids[2]);
    const page2 = await api(server, 'GET', `/users?limit=2&cursor=${page1.body.pagination.next_cursor}`, p.server);
    assert.deepEqual(page2.body.items.map((u: { id: string }) => u.id), ids.slice(2, 4));
    const page3 = await api(server, 'GET', `/users?limit=2&cursor=${page2.body.pagination.next_cursor}`, p.admin);
    assert.deepEqual(page3.body.items.map((u: { id: string }) => u.id), ids.slice(4));
    assert.equal(page3.body.pagination.next_cursor, null);

    const desc = await api(server, 'GET', '/users?desc=true&limit=3', p.server);
    assert.deepEqual(desc.body.items.map((u: { id: string }) => u.id), [...ids].reverse().slice(0, 3));
    const descNext = await api(server, 'GET', `/users?desc=true&limit=3&cursor=${desc.body.pagination.next_cursor}`, p.server);
    assert.deepEqual(descNext.body.items.map((u: { id: string }) => u.id), [...ids].reverse().slice(3));
  });

  it('filters the list by free text, team, anonymous and restricted users', async () => {
    const server = get();
    const p = await createProject(server, { create_team_on_sign_up: true });
    const alice = await api(server, 'POST', '/users', p.server, { display_name: 'Alice Smith', primary_email: 'alice@example.com' });
    const bob = await api(server, 'POST', '/users', p.server, { display_name: 'Bob', primary_email: 'bob_100%@example.com' });
    const restricted = await api(server, 'POST', '/users', p.server, { display_name: 'Rex', restricted_by_admin: true });
    const anon = await api(server, 'POST', '/auth/anonymous/sign-up', p.client);
    const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((u) => u.id).sort();

    assert.deepEqual(ids(await api(server, 'GET', '/users?query=SMITH', p.server)), [alice.body.id]);
    assert.deepEqual(ids(await api(server, 'GET', '/users?query=alice%40example', p.server)), [alice.body.id]);
    assert.deepEqual(ids(await api(server, 'GET', '/users?query=100%25', p.server)), [bob.body.id]);
    assert.deepEqual(ids(await api(server, 'GET', '/users?query=%25', p.server)), [bob.body.id]);
    assert.deepEqual(ids(await api(server, 'GET', `/users?query=${alice.body.id.slice(0, 8)}`, p.server)), [alice.body.id]);

    assert.deepEqual(ids(await api(server, 'GET', '/users', p.server)), [alice.body.id, bob.body.id].sort());
    assert.deepEqual(ids(await api(server, 'GET', '/users?include_restricted=true', p.server)), [alice.body.id, bob.body.id, restricted.body.id].sort());
    assert.deepEqual(ids(await api(server, 'GET', '/users?include_anonymous=true', p.server)), [alice.body.id, bob.body.id, restricted.body.id, anon.body.user_id].sort());
    assert.deepEqual(ids(await api(server, 'GET', '/users?include_anonymous=true&only_anonymous=true', p.server)), [anon.body.user_id]);
    const onlyAnon = await api(server, 'GET', '/users?only_anonymous=true', p.server);
    assert.equal(onlyAnon.status, 400);
    assert.equal(onlyAnon.text, 'only_anonymous=true requires include_anonymous=true');

    const aliceTeam = (await api(server, 'GET', `/users/${alice.body.id}`, p.server)).body.selected_team_id;
    assert.deepEqual(ids(await api(server, 'GET', `/users?team_id=${aliceTeam}`, p.server)), [alice.body.id]);
  });

  it('rejects bad list queries and client callers', async () => {
    const server = get();
    const p = await createProject(server);
    const keys = await createProjectKeys(server, p.admin);
    assertKnownError(await api(server, 'GET', '/users?limit=0', p.server), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'GET', '/users?limit=abc', p.server), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'GET', '/users?cursor=nope', p.server), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'GET', '/users?order_by=name', p.server), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'GET', '/users?desc=yes', p.server), 'SCHEMA_ERROR', 400);
    assertKnownError(await api(server, 'GET', '/users?extra=1', p.server), 'SCHEMA_ERROR', 400);
    const unknownCursor = await api(server, 'GET', '/users?cursor=0b5c8e1a-2f4d-4c6b-9a1e-3d7f5e2c1b0a', p.server);
    assert.equal(unknownCursor.status, 400);
    assertKnownError(await api(server, 'GET', '/users', { projectId: p.projectId, accessType: 'client', publishableClientKey: keys.publishableClientKey }), 'INSUFFICIENT_ACCESS_TYPE', 401);
    assertKnownError(await api(server, 'GET', '/users', { projectId: p.projectId, accessType: 'server', secretServerKey: 'ssk_bad' }), 'INVALID_SECRET_SERVER_KEY', 401);
    assertKnownError(await api(server, 'GET', '/users', { projectId: p.projectId, accessType: 'admin', superSecretAdminKey: 'sak_bad' }), 'INVALID_SUPER_SECRET_ADMIN_KEY', 401);
    assert.equal((await api(server, 'GET', '/users', { projectId: p.projectId, accessType: 'admin', superSecretAdminKey: keys.superSecretAdminKey })).status, 200);
  });

  it('sets and clears a password through the server update, and rejects password with password_hash', async () => {
    const server = get();
    const p = await createProject(server);
    const u = await userWithSession(server, p, { primary_email: 'pw@example.com' });
    assertKnownError(await api(server, 'PATCH', `/users/${u.id}`, p.server, { password: 'short' }), 'PASSWORD_TOO_SHORT', 400);
    assertKnownError(await api(server, 'PATCH', `/users/${u.id}`, p.server, { password: 'x'.repeat(71) }), 'PASSWORD_TOO_LONG', 400);
    const both = await api(server, 'PATCH', `/users/${u.id}`, p.server, { password: 'long enough pw', password_hash: '$2a$10$abcdefghijklmnopqrstuuJ0W7bUZkN1u8Dk2gk3rB4xI0jz6oTqS' });
    assert.equal(both.status, 400);
    const set = await api(server, 'PATCH', `/users/${u.id}`, p.server, { password: 'long enough pw' });
    assert.equal(set.body.has_password, true);
    assert.equal((await api(server, 'POST', '/auth/password/sign-in', p.client, { email: 'pw@example.com', password: 'long enough pw' })).status, 200);
    const cleared = await api(server, 'PATCH', `/users/${u.id}`, p.server, { password: null });
    assert.equal(cleared.body.has_password, false);
    const upgrade = await api(server, 'PATCH', `/users/${u.id}`, p.server, { is_anonymous: true });
    assert.equal(upgrade.status, 400);
  });
});
