import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, createProject } from '../helpers/api.ts';

/**
 * `POST /internal/users/import` with an `application/x-ndjson` body: the host streams the lines in
 * and the results out (NDJSON, batch by batch), which only HTTP shows. The import's rules (per line
 * reports, dry runs, idempotence, who may import) are core/user-import/user-import.test.ts, in-process.
 */
describeWithServer('bulk user import streamed over HTTP (issue 30)', (get) => {
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
