import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { createCoreProjectKeys, refusal, refusesWithStatus } from '../../test/helpers/core-fixtures-b.ts';
import type { Credentials } from '../index.ts';

const CLIENT_KEYS = [
  'auth_with_email',
  'client_metadata',
  'client_read_only_metadata',
  'display_name',
  'has_password',
  'id',
  'is_anonymous',
  'is_restricted',
  'oauth_providers',
  'otp_auth_enabled',
  'passkey_auth_enabled',
  'primary_email',
  'primary_email_verified',
  'profile_image_url',
  'requires_totp_mfa',
  'restricted_by_admin',
  'restricted_by_admin_reason',
  'restricted_reason',
  'selected_team',
  'selected_team_id',
  'signed_up_at_millis',
];
const SERVER_KEYS = [
  ...CLIENT_KEYS,
  'country_code',
  'last_active_at_millis',
  'primary_email_auth_enabled',
  'restricted_by_admin_private_details',
  'risk_scores',
  'server_metadata',
].sort();

/** A user created by the server key, with a session; returns callers as that user. */
async function userWithSession(t: TestCore, p: { client: Credentials; server: Credentials }, fields: Record<string, unknown> = {}) {
  const created = await t.call<any>('users.create', p.server, { body: fields });
  const session = await t.call<any>('sessions.create', p.server, { body: { user_id: created.id } });
  return {
    id: created.id as string,
    client: { ...p.client, accessToken: session.access_token } as Credentials,
    server: { ...p.server, accessToken: session.access_token } as Credentials,
  };
}

/** Users, in-process (test/helpers/core-client.ts). */
describeWithCore('users', (get) => {
  it('shows each access level exactly its field set on /users/me and /users/{id}', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const u = await userWithSession(t, p, { primary_email: 'view@example.com', server_metadata: { secret: 1 } });
    const asClient = await t.call<any>('users.getCurrent', u.client);
    assert.deepEqual(Object.keys(asClient).sort(), [...CLIENT_KEYS].sort());
    const asServer = await t.call<any>('users.getCurrent', u.server);
    assert.deepEqual(Object.keys(asServer).sort(), SERVER_KEYS);
    assert.deepEqual(asServer.risk_scores, { sign_up: { bot: 0, free_trial_abuse: 0 } });
    const byId = await t.call<any>('users.get', p.admin, { params: { user_id: u.id } });
    assert.deepEqual(Object.keys(byId).sort(), SERVER_KEYS);
    assert.deepEqual(byId.server_metadata, { secret: 1 });
  });

  it('lets a client update its own client fields, storing an empty display name as null', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const u = await userWithSession(t, p);
    const res = await t.call<any>('users.updateCurrent', u.client, {
      body: { display_name: 'Ann', client_metadata: { theme: 'dark' }, profile_image_url: 'https://example.com/a.png' },
    });
    assert.equal(res.display_name, 'Ann');
    assert.deepEqual(res.client_metadata, { theme: 'dark' });
    assert.equal('server_metadata' in res, false);
    const cleared = await t.call<any>('users.updateCurrent', u.client, { body: { display_name: '' } });
    assert.equal(cleared.display_name, null);
    const me = await t.call<any>('users.getCurrent', u.client);
    assert.equal(me.display_name, null);
    assert.deepEqual(me.client_metadata, { theme: 'dark' });
    assert.equal(me.profile_image_url, 'https://example.com/a.png');
  });

  it('refuses server fields from a client with SCHEMA_ERROR, and accepts them from the server', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const u = await userWithSession(t, p);
    const bad = await t.refuses(
      'users.updateCurrent',
      u.client,
      { body: { server_metadata: { a: 1 }, client_read_only_metadata: {} } },
      'SCHEMA_ERROR',
    );
    assert.equal(bad.status, 400);
    assert.match(bad.message, /body contains unknown properties: server_metadata, client_read_only_metadata/);
    const ok = await t.call<any>('users.updateCurrent', u.server, {
      body: { server_metadata: { a: 1 }, client_read_only_metadata: { plan: 'pro' }, country_code: 'DE' },
    });
    assert.deepEqual(ok.server_metadata, { a: 1 });
    assert.equal(ok.country_code, 'DE');
    const me = await t.call<any>('users.getCurrent', u.client);
    assert.deepEqual(me.client_read_only_metadata, { plan: 'pro' });
  });

  it('rejects bad user input: long display name, bad image, bad email, unknown field', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const u = await userWithSession(t, p);
    assert.equal(
      (await t.refuses('users.updateCurrent', u.client, { body: { display_name: 'x'.repeat(257) } }, 'SCHEMA_ERROR')).status,
      400,
    );
    assert.equal(
      (await t.refuses('users.updateCurrent', u.client, { body: { profile_image_url: 'not a url' } }, 'SCHEMA_ERROR')).status,
      400,
    );
    assert.equal(
      (await t.refuses('users.updateCurrent', u.client, { body: { primary_email: 'not-an-email' } }, 'SCHEMA_ERROR')).status,
      400,
    );
    assert.equal(
      (await t.refuses('users.update', p.server, { params: { user_id: u.id }, body: { nope: true } }, 'SCHEMA_ERROR')).status,
      400,
    );
    assert.equal((await t.refuses('users.get', p.server, { params: { user_id: 'not-a-uuid' } }, 'SCHEMA_ERROR')).status, 400);
    const big = `data:image/png;base64,${'A'.repeat(140_000)}`;
    assert.equal((await t.refuses('users.updateCurrent', u.client, { body: { profile_image_url: big } }, 'SCHEMA_ERROR')).status, 400);
    // A real PNG (its bytes must match its type: issue 14 item 8).
    const small = `data:image/png;base64,${Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(700)]).toString('base64')}`;
    assert.ok(await t.call<any>('users.updateCurrent', u.client, { body: { profile_image_url: small } }));
  });

  it('answers CANNOT_GET_OWN_USER_WITHOUT_USER for /users/me without a user, at every level', async () => {
    const t = get();
    const p = await createCoreProject(t);
    for (const caller of [p.client, p.server, p.admin]) {
      assert.equal((await t.refuses('users.getCurrent', caller, {}, 'CANNOT_GET_OWN_USER_WITHOUT_USER')).status, 400);
      assert.equal(
        (await t.refuses('users.updateCurrent', caller, { body: { display_name: 'x' } }, 'CANNOT_GET_OWN_USER_WITHOUT_USER')).status,
        400,
      );
      assert.equal((await t.refuses('users.deleteCurrent', caller, {}, 'CANNOT_GET_OWN_USER_WITHOUT_USER')).status, 400);
    }
    assert.equal((await t.refuses('users.getCurrent', { projectId: p.projectId }, {}, 'ACCESS_TYPE_REQUIRED')).status, 400);
  });

  it('keeps auth emails unique with USER_EMAIL_ALREADY_EXISTS on update, normalizing case', async () => {
    const t = get();
    const p = await createCoreProject(t);
    await userWithSession(t, p, { primary_email: 'taken@example.com' });
    const u = await userWithSession(t, p, { primary_email: 'mine@example.com', primary_email_verified: true });
    const res = await t.refuses(
      'users.updateCurrent',
      u.client,
      { body: { primary_email: 'TAKEN@example.com' } },
      'USER_EMAIL_ALREADY_EXISTS',
    );
    assert.equal(res.status, 409);
    assert.equal(res.details.email, 'taken@example.com');
    assert.equal(
      (
        await t.refuses(
          'users.update',
          p.server,
          { params: { user_id: u.id }, body: { primary_email: 'taken@example.com' } },
          'USER_EMAIL_ALREADY_EXISTS',
        )
      ).status,
      409,
    );
    assert.equal(
      (
        await t.refuses(
          'users.create',
          p.server,
          { body: { primary_email: 'Taken@Example.com', primary_email_auth_enabled: true } },
          'USER_EMAIL_ALREADY_EXISTS',
        )
      ).status,
      409,
    );
    // Unasked, a server-created user gets the address without email sign-in, as upstream answers.
    assert.equal(
      (await t.call<any>('users.create', p.server, { body: { primary_email: 'Taken@Example.com' } })).primary_email_auth_enabled,
      false,
    );
    // Without email sign-in the address may be shared.
    assert.ok(
      await t.call<any>('users.update', p.server, {
        params: { user_id: u.id },
        body: { primary_email: 'taken@example.com', primary_email_auth_enabled: false },
      }),
    );
    const changed = await t.call<any>('users.updateCurrent', u.client, { body: { primary_email: 'New@Example.com' } });
    assert.equal(changed.primary_email, 'new@example.com');
    assert.equal(changed.primary_email_verified, false);
  });

  it('allows selecting only a team the user belongs to (TEAM_MEMBERSHIP_NOT_FOUND otherwise)', async () => {
    const t = get();
    const p = await createCoreProject(t, { create_team_on_sign_up: true });
    const u = await userWithSession(t, p, { display_name: 'Tea' });
    const other = await userWithSession(t, p, { display_name: 'Other' });
    const mine = await t.call<any>('users.getCurrent', u.client);
    assert.equal(mine.selected_team.display_name, "Tea's Team");
    const theirs = (await t.call<any>('users.getCurrent', other.client)).selected_team_id as string;
    const res = await t.refuses('users.updateCurrent', u.client, { body: { selected_team_id: theirs } }, 'TEAM_MEMBERSHIP_NOT_FOUND');
    assert.equal(res.status, 404);
    assert.deepEqual(res.details, { team_id: theirs, user_id: u.id });
    const none = await t.call<any>('users.updateCurrent', u.client, { body: { selected_team_id: null } });
    assert.equal(none.selected_team, null);
    const back = await t.call<any>('users.updateCurrent', u.client, { body: { selected_team_id: mine.selected_team_id } });
    assert.equal(back.selected_team.id, mine.selected_team_id);
    assert.equal('created_at_millis' in back.selected_team, false);
    const asServer = await t.call<any>('users.get', p.server, { params: { user_id: u.id } });
    assert.equal(typeof asServer.selected_team.created_at_millis, 'number');
  });

  it('lets a client delete itself only with client_user_deletion_enabled', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const u = await userWithSession(t, p);
    const refused = await t.core.invoke('users.deleteCurrent', u.client).then(
      () => null,
      (error: Error & { kind?: string }) => error,
    );
    assert.equal(refused?.kind, 'bad-request', String(refused));
    assert.match(refused!.message, /Client user deletion is not enabled/);
    assert.ok(await t.call<any>('projects.updateCurrent', p.admin, { body: { config: { client_user_deletion_enabled: true } } }));
    const ok = await t.call<any>('users.deleteCurrent', u.client);
    assert.deepEqual(ok, { success: true });
    assert.equal((await t.refuses('users.get', p.server, { params: { user_id: u.id } }, 'USER_NOT_FOUND')).status, 404);
    // The server may always delete its users' own accounts.
    const v = await userWithSession(t, p);
    assert.deepEqual(await t.call<any>('users.deleteCurrent', v.server), { success: true });
  });

  it('gets, updates and deletes a user by id (server and admin), with USER_NOT_FOUND and access denial for clients', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const u = await userWithSession(t, p, { primary_email: 'byid@example.com' });
    const missing = '0b5c8e1a-2f4d-4c6b-9a1e-3d7f5e2c1b0a';
    for (const caller of [p.server, p.admin]) {
      const got = await t.call<any>('users.get', caller, { params: { user_id: u.id } });
      assert.equal(got.primary_email, 'byid@example.com');
      assert.equal((await t.refuses('users.get', caller, { params: { user_id: missing } }, 'USER_NOT_FOUND')).status, 404);
      assert.equal(
        (await t.refuses('users.update', caller, { params: { user_id: missing }, body: { display_name: 'x' } }, 'USER_NOT_FOUND')).status,
        404,
      );
      assert.equal((await t.refuses('users.delete', caller, { params: { user_id: missing } }, 'USER_NOT_FOUND')).status, 404);
    }
    const updated = await t.call<any>('users.update', p.server, {
      params: { user_id: u.id },
      body: { display_name: 'Server Set', server_metadata: { k: 'v' }, restricted_by_admin: true, restricted_by_admin_reason: 'spam' },
    });
    assert.equal(updated.display_name, 'Server Set');
    assert.equal(updated.is_restricted, true);
    assert.deepEqual(updated.restricted_reason, { type: 'restricted_by_administrator' });
    await t.refuses('users.getCurrent', { ...p.server, accessToken: u.server.accessToken }, {}, 'RESTRICTED_USER_NOT_ALLOWED');
    const byMe = await t.call<any>('users.getCurrent', { ...u.server, allowRestrictedUser: true });
    assert.equal(byMe.restricted_by_admin_reason, 'spam');
    for (const [operationId, body] of [
      ['users.get', undefined],
      ['users.update', { display_name: 'x' }],
      ['users.delete', undefined],
    ] as const) {
      const res = await t.refuses(operationId, p.client, { params: { user_id: u.id }, body }, 'INSUFFICIENT_ACCESS_TYPE');
      assert.equal(res.status, 401);
      assert.deepEqual(res.details, { actual_access_type: 'client', allowed_access_types: ['server', 'admin'] });
    }
    assert.deepEqual(await t.call<any>('users.delete', p.admin, { params: { user_id: u.id } }), { success: true });
    assert.equal((await t.refuses('users.get', p.server, { params: { user_id: u.id } }, 'USER_NOT_FOUND')).status, 404);
    // The deleted user's token no longer works.
    assert.equal((await t.refuses('users.getCurrent', u.client, {}, 'UNPARSABLE_ACCESS_TOKEN')).status, 401);
  });

  it('keeps users of other projects invisible (tenant isolation)', async () => {
    const t = get();
    const a = await createCoreProject(t);
    const b = await createCoreProject(t);
    const u = await userWithSession(t, a, { primary_email: 'iso@example.com' });
    assert.equal((await t.refuses('users.get', b.server, { params: { user_id: u.id } }, 'USER_NOT_FOUND')).status, 404);
    assert.equal(
      (await t.refuses('users.update', b.server, { params: { user_id: u.id }, body: { display_name: 'x' } }, 'USER_NOT_FOUND')).status,
      404,
    );
    assert.equal((await t.refuses('users.delete', b.server, { params: { user_id: u.id } }, 'USER_NOT_FOUND')).status, 404);
    assert.deepEqual((await t.call<any>('users.list', b.server)).items, []);
    // The same email may sign in to another project.
    assert.ok(await t.call<any>('users.create', b.server, { body: { primary_email: 'iso@example.com' } }));
  });

  it('lists users paginated by sign-up time with cursor, limit and desc', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000);
      const res = await t.call<any>('users.create', p.server, {
        body: { display_name: `User ${i}`, primary_email: `list${i}@example.com` },
      });
      ids.push(res.id);
    }
    const all = await t.call<any>('users.list', p.server);
    assert.deepEqual(
      all.items.map((u: { id: string }) => u.id),
      ids,
    );
    assert.equal(all.is_paginated, true);
    assert.deepEqual(all.pagination, { next_cursor: null });
    assert.ok('risk_scores' in all.items[0]);

    const page1 = await t.call<any>('users.list', p.server, { query: { limit: '2', order_by: 'signed_up_at' } });
    assert.deepEqual(
      page1.items.map((u: { id: string }) => u.id),
      ids.slice(0, 2),
    );
    assert.equal(page1.pagination.next_cursor, ids[2]);
    const page2 = await t.call<any>('users.list', p.server, { query: { limit: '2', cursor: page1.pagination.next_cursor } });
    assert.deepEqual(
      page2.items.map((u: { id: string }) => u.id),
      ids.slice(2, 4),
    );
    const page3 = await t.call<any>('users.list', p.admin, { query: { limit: '2', cursor: page2.pagination.next_cursor } });
    assert.deepEqual(
      page3.items.map((u: { id: string }) => u.id),
      ids.slice(4),
    );
    assert.equal(page3.pagination.next_cursor, null);

    const desc = await t.call<any>('users.list', p.server, { query: { desc: 'true', limit: '3' } });
    assert.deepEqual(
      desc.items.map((u: { id: string }) => u.id),
      [...ids].reverse().slice(0, 3),
    );
    const descNext = await t.call<any>('users.list', p.server, {
      query: { desc: 'true', limit: '3', cursor: desc.pagination.next_cursor },
    });
    assert.deepEqual(
      descNext.items.map((u: { id: string }) => u.id),
      [...ids].reverse().slice(3),
    );
  });

  it('filters the list by free text, team, anonymous and restricted users', async () => {
    const t = get();
    const p = await createCoreProject(t, { create_team_on_sign_up: true });
    const alice = await t.call<any>('users.create', p.server, {
      body: { display_name: 'Alice Smith', primary_email: 'alice@example.com' },
    });
    const bob = await t.call<any>('users.create', p.server, { body: { display_name: 'Bob', primary_email: 'bob_100%@example.com' } });
    const restricted = await t.call<any>('users.create', p.server, { body: { display_name: 'Rex', restricted_by_admin: true } });
    const anon = await t.call<any>('anonymous.signUp', p.client);
    const ids = (list: { items: Array<{ id: string }> }) => list.items.map((u) => u.id).sort();

    assert.deepEqual(ids(await t.call<any>('users.list', p.server, { query: { query: 'SMITH' } })), [alice.id]);
    assert.deepEqual(ids(await t.call<any>('users.list', p.server, { query: { query: 'alice@example' } })), [alice.id]);
    assert.deepEqual(ids(await t.call<any>('users.list', p.server, { query: { query: '100%' } })), [bob.id]);
    assert.deepEqual(ids(await t.call<any>('users.list', p.server, { query: { query: '%' } })), [bob.id]);
    assert.deepEqual(ids(await t.call<any>('users.list', p.server, { query: { query: alice.id.slice(0, 8) } })), [alice.id]);

    assert.deepEqual(ids(await t.call<any>('users.list', p.server)), [alice.id, bob.id].sort());
    assert.deepEqual(
      ids(await t.call<any>('users.list', p.server, { query: { include_restricted: 'true' } })),
      [alice.id, bob.id, restricted.id].sort(),
    );
    assert.deepEqual(
      ids(await t.call<any>('users.list', p.server, { query: { include_anonymous: 'true' } })),
      [alice.id, bob.id, restricted.id, anon.user_id].sort(),
    );
    assert.deepEqual(ids(await t.call<any>('users.list', p.server, { query: { include_anonymous: 'true', only_anonymous: 'true' } })), [
      anon.user_id,
    ]);
    await refusesWithStatus(
      t,
      'users.list',
      p.server,
      { query: { only_anonymous: 'true' } },
      'bad-request',
      'only_anonymous=true requires include_anonymous=true',
    );

    const aliceTeam = (await t.call<any>('users.get', p.server, { params: { user_id: alice.id } })).selected_team_id;
    assert.deepEqual(ids(await t.call<any>('users.list', p.server, { query: { team_id: aliceTeam } })), [alice.id]);
  });

  it('rejects bad list queries and client callers', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const keys = await createCoreProjectKeys(t, p.admin);
    assert.equal((await t.refuses('users.list', p.server, { query: { limit: '0' } }, 'SCHEMA_ERROR')).status, 400);
    assert.equal((await t.refuses('users.list', p.server, { query: { limit: 'abc' } }, 'SCHEMA_ERROR')).status, 400);
    assert.equal((await t.refuses('users.list', p.server, { query: { cursor: 'nope' } }, 'SCHEMA_ERROR')).status, 400);
    assert.equal((await t.refuses('users.list', p.server, { query: { order_by: 'name' } }, 'SCHEMA_ERROR')).status, 400);
    assert.equal((await t.refuses('users.list', p.server, { query: { desc: 'yes' } }, 'SCHEMA_ERROR')).status, 400);
    assert.equal((await t.refuses('users.list', p.server, { query: { extra: '1' } }, 'SCHEMA_ERROR')).status, 400);
    await refusesWithStatus(
      t,
      'users.list',
      p.server,
      { query: { cursor: '0b5c8e1a-2f4d-4c6b-9a1e-3d7f5e2c1b0a' } },
      'bad-request',
      'cursor does not name a user of this project',
    );
    assert.equal(
      (
        await t.refuses(
          'users.list',
          { projectId: p.projectId, accessType: 'client', publishableClientKey: keys.publishableClientKey },
          {},
          'INSUFFICIENT_ACCESS_TYPE',
        )
      ).status,
      401,
    );
    assert.equal(
      (
        await t.refuses(
          'users.list',
          { projectId: p.projectId, accessType: 'server', secretServerKey: 'ssk_bad' },
          {},
          'INVALID_SECRET_SERVER_KEY',
        )
      ).status,
      401,
    );
    assert.equal(
      (
        await t.refuses(
          'users.list',
          { projectId: p.projectId, accessType: 'admin', superSecretAdminKey: 'sak_bad' },
          {},
          'INVALID_SUPER_SECRET_ADMIN_KEY',
        )
      ).status,
      401,
    );
    assert.ok(
      await t.call<any>('users.list', { projectId: p.projectId, accessType: 'admin', superSecretAdminKey: keys.superSecretAdminKey }),
    );
  });

  it('sets and clears a password through the server update, and rejects password with password_hash', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const u = await userWithSession(t, p, { primary_email: 'pw@example.com' });
    assert.equal(
      (await t.refuses('users.update', p.server, { params: { user_id: u.id }, body: { password: 'short' } }, 'PASSWORD_TOO_SHORT')).status,
      400,
    );
    assert.equal(
      (await t.refuses('users.update', p.server, { params: { user_id: u.id }, body: { password: 'x'.repeat(71) } }, 'PASSWORD_TOO_LONG'))
        .status,
      400,
    );
    await refusesWithStatus(
      t,
      'users.update',
      p.server,
      {
        params: { user_id: u.id },
        body: { password: 'long enough pw', password_hash: '$2a$10$abcdefghijklmnopqrstuuJ0W7bUZkN1u8Dk2gk3rB4xI0jz6oTqS' },
      },
      'bad-request',
      'Cannot set both password and password_hash at the same time.',
    );
    const set = await t.call<any>('users.update', p.server, { params: { user_id: u.id }, body: { password: 'long enough pw' } });
    assert.equal(set.has_password, true);
    assert.ok(await t.call<any>('authPassword.signIn', p.client, { body: { email: 'pw@example.com', password: 'long enough pw' } }));
    const cleared = await t.call<any>('users.update', p.server, { params: { user_id: u.id }, body: { password: null } });
    assert.equal(cleared.has_password, false);
    assert.equal(
      await refusal(t, 'users.update', p.server, { params: { user_id: u.id }, body: { is_anonymous: true } }),
      'status:bad-request',
    );
  });
});
