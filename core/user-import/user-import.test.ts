import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import bcrypt from 'bcryptjs';
import { KnownError, StatusError } from '../errors/index.ts';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';

/**
 * `POST /internal/users/import` takes NDJSON lines, reports per line (malformed
 * JSON, bad hash, duplicate email, unknown team, unknown permission) without affecting the other
 * lines, writes nothing in a dry run, and is idempotent by `source_id`. In-process
 * (test/helpers/core-client.ts); the streamed NDJSON form is test/routes/user-import-stream.test.ts.
 */
const PASSWORD = 'imported password 1';

/** The import operation (admin access): `query` as the route's query string, `body` its JSON body. */
const importUsers = (t: TestCore, caller: Parameters<TestCore['call']>[1], body: unknown, query: Record<string, string> = {}) =>
  t.call<any>('userImport.import', caller, { query, body });

describeWithCore('bulk user import (issue 30)', (get) => {
  it('imports users and teams, reports each bad line alone, and the imported users sign in with their passwords', async () => {
    const t = get();
    const { admin, client, server: serverCaller } = await createCoreProject(t);
    const db = t.core.runtime.db;
    await t.call('users.create', serverCaller, { body: { primary_email: 'taken@example.com' } });
    const teamId = randomUUID();
    const hash = bcrypt.hashSync(PASSWORD, 4);
    const lines = [
      JSON.stringify({ type: 'team', id: teamId, display_name: 'Imported team' }),
      JSON.stringify({
        source_id: 'u1',
        primary_email: 'One@Example.com',
        primary_email_verified: true,
        password_hash: hash,
        display_name: 'One',
        signed_up_at_millis: 1_600_000_000_000,
        teams: [{ id: teamId, permissions: ['team_admin'] }],
        server_metadata: { plan: 'pro' },
      }),
      '{"source_id": "u2", "primary_email": ', // malformed JSON
      JSON.stringify({ source_id: 'u3', primary_email: 'three@example.com', password_hash: '$2a$10$tooShort' }),
      JSON.stringify({ source_id: 'u4', primary_email: 'taken@example.com' }),
      JSON.stringify({ source_id: 'u5', primary_email: 'five@example.com', teams: [{ id: randomUUID() }] }),
      JSON.stringify({ source_id: 'u6', primary_email: 'one@example.com' }), // same email as line 2
      '',
      JSON.stringify({ source_id: 'u7', primary_email: 'seven@example.com', project_permissions: ['no_such_permission'] }),
      JSON.stringify({ source_id: 'u8', primary_email: 'eight@example.com', unknown_field: 1 }),
      JSON.stringify({
        source_id: 'u9',
        primary_email: 'nine@example.com',
        password_hash: bcrypt.hashSync('nine', 4),
        teams: [{ id: teamId }],
      }),
      // NUL: PostgreSQL's text cannot hold it; refused on its line on both dialects, the batch unaffected.
      JSON.stringify({ source_id: 'u10', primary_email: 'ten@example.com', display_name: 'Ten\u0000' }),
    ];
    const counts = async () => ({
      users: Number(
        (
          await db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('project_id', '=', admin.projectId!)
            .executeTakeFirstOrThrow()
        ).n,
      ),
      teams: Number(
        (
          await db
            .selectFrom('teams')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('project_id', '=', admin.projectId!)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    });
    const before = await counts();

    const dry = { body: await importUsers(t, admin, { lines }, { dry_run: 'true' }) };
    assert.deepEqual(await counts(), before, 'a dry run writes nothing');
    assert.equal(dry.body.dry_run, true);
    const expected = (create: string) => [
      [1, create],
      [2, create],
      [3, 'failed', 'MALFORMED_RECORD'],
      [4, 'failed', 'UNSUPPORTED_PASSWORD_HASH'],
      [5, 'failed', 'DUPLICATE_EMAIL'],
      [6, 'failed', 'UNKNOWN_TEAM'],
      [7, 'failed', 'DUPLICATE_EMAIL'],
      [9, 'failed', 'UNKNOWN_PERMISSION'],
      [10, 'failed', 'MALFORMED_RECORD'],
      [11, create],
      [12, 'failed', 'MALFORMED_RECORD'],
    ];
    const summary = (body: any) => body.results.map((r: any) => (r.error ? [r.line, r.status, r.error.code] : [r.line, r.status]));
    assert.deepEqual(summary(dry.body), expected('would_create'));
    assert.equal(dry.body.created, 3);
    assert.equal(dry.body.failed, 8);
    assert.match(dry.body.results.find((r: any) => r.line === 12).error.message, /record\.display_name contains a NUL character/);

    const real = { body: await importUsers(t, admin, { lines }) };
    assert.deepEqual(summary(real.body), expected('created'));
    assert.deepEqual(await counts(), { users: before.users + 2, teams: before.teams + 1 });
    const oneId = real.body.results[1].id;

    const user = { body: await t.call<any>('users.get', serverCaller, { params: { user_id: oneId } }) };
    assert.equal(user.body.primary_email, 'one@example.com');
    assert.equal(user.body.primary_email_verified, true);
    assert.equal(user.body.signed_up_at_millis, 1_600_000_000_000);
    assert.deepEqual(user.body.server_metadata, { plan: 'pro' });
    const members = await t.call<any>('teams.listMemberProfiles', serverCaller, { query: { team_id: teamId } });
    assert.equal(members.items.length, 2);
    const permissions = await t.call<any>('permissions.listTeam', serverCaller, { query: { team_id: teamId, user_id: oneId } });
    assert.deepEqual(
      permissions.items.map((p: any) => p.id),
      ['team_admin'],
    );

    await t.refuses('authPassword.signIn', client, { body: { email: 'one@example.com', password: 'wrong' } }, 'EMAIL_PASSWORD_MISMATCH');
    await t.call('authPassword.signIn', client, { body: { email: 'one@example.com', password: PASSWORD } });
    const stored = await db.selectFrom('users').select('password_hash').where('id', '=', oneId).executeTakeFirstOrThrow();
    assert.match(stored.password_hash ?? '', /^\$argon2id\$/);

    // Re-running updates by source_id: same ids, no new rows, the changed field applied.
    const again = {
      body: await importUsers(t, admin, {
        lines: [lines[0], JSON.stringify({ source_id: 'u1', display_name: 'One again' })],
        first_line: 100,
      }),
    };
    assert.deepEqual(summary(again.body), [
      [100, 'updated'],
      [101, 'updated'],
    ]);
    assert.equal(again.body.results[1].id, oneId);
    assert.deepEqual(await counts(), { users: before.users + 2, teams: before.teams + 1 });
    assert.equal((await t.call<any>('users.get', serverCaller, { params: { user_id: oneId } })).display_name, 'One again');
    // The update kept the password.
    await t.call('authPassword.signIn', client, { body: { email: 'one@example.com', password: PASSWORD } });
  });

  it('admits legacy digests only with allow_insecure_hashes, and only admins may import', async () => {
    const t = get();
    const { admin, client, server: serverCaller } = await createCoreProject(t);
    const md5 = `$legacy-md5$$${(await import('node:crypto')).createHash('md5').update(PASSWORD).digest('hex')}`;
    const lines = [JSON.stringify({ primary_email: 'legacy@example.com', password_hash: md5 })];
    const refused = await importUsers(t, admin, { lines });
    assert.equal(refused.results[0].error.code, 'UNSUPPORTED_PASSWORD_HASH');
    assert.match(refused.results[0].error.message, /allow_insecure_hashes/);
    const accepted = await importUsers(t, admin, { lines }, { allow_insecure_hashes: 'true' });
    assert.equal(accepted.results[0].status, 'created', JSON.stringify(accepted));
    await t.call('authPassword.signIn', client, { body: { email: 'legacy@example.com', password: PASSWORD } });
    const notAdmin = await t.core.invoke('userImport.import', serverCaller, { body: { lines } }).then(
      () => assert.fail('a server key imported users'),
      (error: unknown) => error,
    );
    const status = notAdmin instanceof KnownError ? notAdmin.status : notAdmin instanceof StatusError ? notAdmin.kind : String(notAdmin);
    assert.ok(status === 401 || status === 403 || status === 'unauthorized' || status === 'forbidden', String(notAdmin));
  });
});
