import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import bcrypt from 'bcryptjs';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject } from '../../test/helpers/api.ts';

/**
 * `POST /internal/users/import` takes NDJSON lines, reports per line (malformed
 * JSON, bad hash, duplicate email, unknown team, unknown permission) without affecting the other
 * lines, writes nothing in a dry run, and is idempotent by `source_id`.
 */
const PASSWORD = 'imported password 1';

describeWithServer('bulk user import (issue 30)', (get) => {
  it('imports users and teams, reports each bad line alone, and the imported users sign in with their passwords', async () => {
    const server = get();
    const { admin, client, server: serverCaller } = await createProject(server);
    const db = server.gatehouse.core.runtime.db;
    const existing = await api(server, 'POST', '/users', serverCaller, { primary_email: 'taken@example.com' });
    assert.equal(existing.status, 201, existing.text);
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

    const dry = await api(server, 'POST', '/internal/users/import?dry_run=true', admin, { lines });
    assert.equal(dry.status, 200, dry.text);
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
    ];
    const summary = (body: any) => body.results.map((r: any) => (r.error ? [r.line, r.status, r.error.code] : [r.line, r.status]));
    assert.deepEqual(summary(dry.body), expected('would_create'));
    assert.equal(dry.body.created, 3);
    assert.equal(dry.body.failed, 7);

    const real = await api(server, 'POST', '/internal/users/import', admin, { lines });
    assert.equal(real.status, 200, real.text);
    assert.deepEqual(summary(real.body), expected('created'));
    assert.deepEqual(await counts(), { users: before.users + 2, teams: before.teams + 1 });
    const oneId = real.body.results[1].id;

    const user = await api(server, 'GET', `/users/${oneId}`, serverCaller);
    assert.equal(user.status, 200, user.text);
    assert.equal(user.body.primary_email, 'one@example.com');
    assert.equal(user.body.primary_email_verified, true);
    assert.equal(user.body.signed_up_at_millis, 1_600_000_000_000);
    assert.deepEqual(user.body.server_metadata, { plan: 'pro' });
    const members = await api(server, 'GET', `/team-member-profiles?team_id=${teamId}`, serverCaller);
    assert.equal(members.status, 200, members.text);
    assert.equal(members.body.items.length, 2);
    const permissions = await api(server, 'GET', `/team-permissions?team_id=${teamId}&user_id=${oneId}`, serverCaller);
    assert.deepEqual(
      permissions.body.items.map((p: any) => p.id),
      ['team_admin'],
    );

    assertKnownError(
      await api(server, 'POST', '/auth/password/sign-in', client, { email: 'one@example.com', password: 'wrong' }),
      'EMAIL_PASSWORD_MISMATCH',
    );
    const signIn = await api(server, 'POST', '/auth/password/sign-in', client, { email: 'one@example.com', password: PASSWORD });
    assert.equal(signIn.status, 200, signIn.text);
    const stored = await db.selectFrom('users').select('password_hash').where('id', '=', oneId).executeTakeFirstOrThrow();
    assert.match(stored.password_hash ?? '', /^\$argon2id\$/);

    // Re-running updates by source_id: same ids, no new rows, the changed field applied.
    const again = await api(server, 'POST', '/internal/users/import', admin, {
      lines: [lines[0], JSON.stringify({ source_id: 'u1', display_name: 'One again' })],
      first_line: 100,
    });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(summary(again.body), [
      [100, 'updated'],
      [101, 'updated'],
    ]);
    assert.equal(again.body.results[1].id, oneId);
    assert.deepEqual(await counts(), { users: before.users + 2, teams: before.teams + 1 });
    assert.equal((await api(server, 'GET', `/users/${oneId}`, serverCaller)).body.display_name, 'One again');
    assert.equal(
      (await api(server, 'POST', '/auth/password/sign-in', client, { email: 'one@example.com', password: PASSWORD })).status,
      200,
      'the update kept the password',
    );
  });

  it('admits legacy digests only with allow_insecure_hashes, and only admins may import', async () => {
    const server = get();
    const { admin, client, server: serverCaller } = await createProject(server);
    const md5 = `$legacy-md5$$${(await import('node:crypto')).createHash('md5').update(PASSWORD).digest('hex')}`;
    const lines = [JSON.stringify({ primary_email: 'legacy@example.com', password_hash: md5 })];
    const refused = await api(server, 'POST', '/internal/users/import', admin, { lines });
    assert.equal(refused.body.results[0].error.code, 'UNSUPPORTED_PASSWORD_HASH');
    assert.match(refused.body.results[0].error.message, /allow_insecure_hashes/);
    const accepted = await api(server, 'POST', '/internal/users/import?allow_insecure_hashes=true', admin, { lines });
    assert.equal(accepted.body.results[0].status, 'created', accepted.text);
    assert.equal(
      (await api(server, 'POST', '/auth/password/sign-in', client, { email: 'legacy@example.com', password: PASSWORD })).status,
      200,
    );
    const notAdmin = await api(server, 'POST', '/internal/users/import', serverCaller, { lines });
    assert.ok(notAdmin.status === 401 || notAdmin.status === 403, notAdmin.text);
  });

  it('streams NDJSON in and results out, is idempotent by a non-UUID source_id kept on the user, and the search finds imported users', async () => {
    const server = get();
    const { admin, server: serverCaller } = await createProject(server);
    const db = server.gatehouse.core.runtime.db;
    const ndjson = { ...admin, headers: { 'content-type': 'application/x-ndjson' } };
    const parse = (text: string) =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    // More lines than one batch of the stream (5,000), so results come back batch by batch.
    const bulk = Array.from({ length: 5_050 }, (_, i) => JSON.stringify({ source_id: `bulk-${i}`, primary_email: `bulk${i}@example.com` }));
    const body = [
      '{"type":"export","format":"gatehouse-users/1"}',
      JSON.stringify({ source_id: 'auth0|abc', primary_email: 'streamed-one@example.com', display_name: 'Zebedee Streamed' }),
      '',
      'not json',
      JSON.stringify({ source_id: 'user_2abc', primary_email: 'streamed-two@example.com' }),
      ...bulk,
    ].join('\n');
    const first = await api(server, 'POST', '/internal/users/import?first_line=10', ndjson, body);
    assert.equal(first.status, 200, first.text);
    assert.match(first.headers.get('content-type') ?? '', /application\/x-ndjson/);
    const out = parse(first.text);
    const summary = out.at(-1);
    assert.deepEqual(summary, { type: 'summary', dry_run: false, records: 5_053, created: 5_052, updated: 0, failed: 1 });
    assert.deepEqual(
      out.slice(0, 3).map((r) => [r.line, r.status, r.error?.code]),
      [
        [11, 'created', undefined],
        [13, 'failed', 'MALFORMED_RECORD'],
        [14, 'created', undefined],
      ],
    );
    assert.equal(out.at(-2).line, 14 + 5_050);
    const stored = await db
      .selectFrom('users')
      .select(['id', 'source_id'])
      .where('source_id', 'in', ['auth0|abc', 'user_2abc'])
      .orderBy('source_id')
      .execute();
    assert.deepEqual(
      stored.map((u) => u.source_id),
      ['auth0|abc', 'user_2abc'],
    );
    assert.equal(stored[0]!.id, out[0].id);

    // The users search finds them (SQLite: the FTS rows the import wrote; PostgreSQL: trigram indexes).
    for (const query of ['zebedee', 'streamed-two@', 'bulk5049@']) {
      const found = await api(server, 'GET', `/users?query=${encodeURIComponent(query)}`, serverCaller);
      assert.equal(found.status, 200, found.text);
      assert.equal(found.body.items.length, 1, `${query}: ${found.text}`);
    }

    // Again: every user updated in place, found by its source id; none added.
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const users = await count();
    const rename = body.replace('Zebedee Streamed', 'Zebedee Renamed').split('\n').slice(0, 7).join('\n');
    const again = parse((await api(server, 'POST', '/internal/users/import', ndjson, rename)).text);
    assert.deepEqual(again.at(-1), { type: 'summary', dry_run: false, records: 5, created: 0, updated: 4, failed: 1 });
    assert.equal(again[0].id, out[0].id);
    assert.equal(await count(), users);
    assert.equal((await api(server, 'GET', '/users?query=renamed', serverCaller)).body.items.length, 1);
    assert.equal((await api(server, 'GET', '/users?query=zebedee%20streamed', serverCaller)).body.items.length, 0);

    // A user imported before source ids were kept (id derived from the source id, column empty) is found by its id.
    await db.updateTable('users').set({ source_id: null }).where('id', '=', out[0].id).execute();
    const old = parse((await api(server, 'POST', '/internal/users/import?dry_run=true', ndjson, body.split('\n')[1]!)).text);
    assert.deepEqual(
      old.map((r) => r.status ?? r.type),
      ['would_update', 'summary'],
    );
    assert.equal(old[0].id, out[0].id);

    // The JSON form still answers in one object.
    const json = await api(server, 'POST', '/internal/users/import', admin, { lines: [body.split('\n')[4]] });
    assert.equal(json.body.results[0].status, 'updated', json.text);
  });
});
