import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, createProject, type ApiResponse, type Caller } from '../../test/helpers/api.ts';
import type { TestServer } from '../../test/helpers/server.ts';

/**
 * Issue 19 "A million users": `GET /users` pages by keyset for each sort key (`signed_up_at`,
 * `last_active_at`) and answers `query` through trigram indexes (migration 0017), which stay in
 * step with inserts, updates and deletes. Speed is measured by `npm run bench:users-table`.
 */

type Item = { id: string; primary_email: string | null; display_name: string | null; signed_up_at_millis: number; last_active_at_millis: number | null };

async function allPages(server: TestServer, caller: Caller, query: string, limit: number): Promise<Item[]> {
  const out: Item[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const res: ApiResponse = await api(server, 'GET', `/users?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`, caller);
    assert.equal(res.status, 200, res.text);
    out.push(...(res.body.items as Item[]));
    cursor = res.body.pagination.next_cursor;
    if (!cursor) return out;
  }
  throw new Error('pagination did not end');
}

describeWithServer('users list order and search (issue 19)', (get) => {
  it('pages by keyset through every order, ascending and descending, with ties broken by id', async () => {
    const server = get();
    const p = await createProject(server);
    const users: Array<{ id: string }> = [];
    for (let i = 0; i < 9; i++) {
      // Three users per sign-up instant: ties on the sort key.
      if (i % 3 === 0) server.clock.advance(1000);
      users.push((await api(server, 'POST', '/users', p.server, { primary_email: `order${i}@example.com` })).body);
    }
    // Activity in an order unrelated to sign-up: a refresh touches last_active_at.
    for (const i of [4, 1, 7, 0]) {
      const session = await api(server, 'POST', '/auth/sessions', p.server, { user_id: users[i]!.id });
      assert.equal(session.status, 200, session.text);
      server.clock.advance(1000);
      const refreshed = await api(server, 'POST', '/auth/sessions/current/refresh', { ...p.client, refreshToken: session.body.refresh_token });
      assert.equal(refreshed.status, 200, refreshed.text);
    }
    const full = (await api(server, 'GET', '/users', p.server)).body.items as Item[];
    for (const order of ['signed_up_at', 'last_active_at'] as const) {
      const value = (u: Item) => order === 'signed_up_at' ? u.signed_up_at_millis : u.last_active_at_millis ?? u.signed_up_at_millis;
      const ascending = [...full].sort((a, b) => value(a) - value(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      for (const desc of [false, true]) {
        const expected = desc ? [...ascending].reverse() : ascending;
        for (const limit of [1, 2, 4]) {
          const got = await allPages(server, p.server, `&order_by=${order}&desc=${desc}`, limit);
          assert.deepEqual(got.map((u) => u.id), expected.map((u) => u.id), `${order} desc=${desc} limit=${limit}`);
        }
      }
    }
    // The activity made the two orders differ, so each key was really used.
    const bySignUp = (await api(server, 'GET', '/users?order_by=signed_up_at', p.server)).body.items.map((u: Item) => u.id);
    const byActivity = (await api(server, 'GET', '/users?order_by=last_active_at', p.server)).body.items.map((u: Item) => u.id);
    assert.notDeepEqual(bySignUp, byActivity);
  });

  it('finds substrings of id, email and display name through the index, kept in step with updates and deletes', async () => {
    const server = get();
    const p = await createProject(server);
    const other = await createProject(server);
    const make = async (body: Record<string, unknown>, caller = p.server) => (await api(server, 'POST', '/users', caller, body)).body as Item;
    const ann = await make({ primary_email: 'ann.lee@example.com', display_name: 'Ann "The Hammer" Lee' });
    const zoe = await make({ primary_email: 'zoe@Mail.Example.org', display_name: 'Zoë Ünal' });
    const bob = await make({ primary_email: 'bob@example.com', display_name: null });
    await make({ primary_email: 'ann.lee@other.example', display_name: 'Ann elsewhere' }, other.server);
    const find = async (text: string) => ((await api(server, 'GET', `/users?query=${encodeURIComponent(text)}`, p.server)).body.items as Item[]).map((u) => u.id).sort();
    const sorted = (...items: Item[]) => items.map((u) => u.id).sort();

    assert.deepEqual(await find('ANN.LEE'), sorted(ann), 'case-insensitive, and never another project');
    assert.deepEqual(await find('example'), sorted(ann, zoe, bob));
    assert.deepEqual(await find('"the hammer"'), sorted(ann), 'double quotes in the text');
    assert.deepEqual(await find('ünal'), sorted(zoe), 'non-ASCII letters');
    assert.deepEqual(await find('mail.example.org'), sorted(zoe));
    assert.deepEqual(await find(zoe.id.slice(9, 23)), sorted(zoe), 'inside the id');
    assert.deepEqual(await find('lee@example.comx'), []);
    assert.deepEqual(await find('ob'), sorted(bob), 'shorter than a trigram: scanned');
    // The index text joins the fields; a match must lie inside one of them.
    assert.deepEqual(await find('.comann'), []);

    assert.equal((await api(server, 'PATCH', `/users/${bob.id}`, p.server, { primary_email: 'robert@example.net', display_name: 'Robert Tables' })).status, 200);
    assert.deepEqual(await find('bob@'), []);
    assert.deepEqual(await find('robert@example.net'), sorted(bob));
    assert.deepEqual(await find('tables'), sorted(bob));
    assert.equal((await api(server, 'DELETE', `/users/${ann.id}`, p.server)).status, 200);
    assert.deepEqual(await find('ann.lee'), []);
    assert.deepEqual(await find('example'), sorted(zoe, bob));
  });
});
