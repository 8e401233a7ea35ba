import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import type { Credentials } from '../index.ts';

/**
 * `GET /users` pages by keyset for each sort key (`signed_up_at`,
 * `last_active_at`) and answers `query` through trigram indexes (migration 0017), which stay in
 * step with inserts, updates and deletes. Speed is measured by `npm run bench:users-table`.
 * Domain behaviour only: called through `core.invoke`, no HTTP (test/helpers/core-client.ts).
 */

type Item = {
  id: string;
  primary_email: string | null;
  display_name: string | null;
  signed_up_at_millis: number;
  last_active_at_millis: number | null;
};

type Page = { items: Item[]; pagination: { next_cursor: string | null } };

async function allPages(t: TestCore, caller: Credentials, query: Record<string, string>, limit: number): Promise<Item[]> {
  const out: Item[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const page: Page = await t.call<Page>('users.list', caller, {
      query: { limit: String(limit), ...query, ...(cursor ? { cursor } : {}) },
    });
    out.push(...page.items);
    cursor = page.pagination.next_cursor;
    if (!cursor) return out;
  }
  throw new Error('pagination did not end');
}

describeWithCore('users list order and search (issue 19)', (get) => {
  it('pages by keyset through every order, ascending and descending, with ties broken by id', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const users: Array<{ id: string }> = [];
    for (let i = 0; i < 9; i++) {
      // Three users per sign-up instant: ties on the sort key.
      if (i % 3 === 0) t.clock.advance(1000);
      users.push(await t.call('users.create', p.server, { body: { primary_email: `order${i}@example.com` } }));
    }
    // Activity in an order unrelated to sign-up: a refresh touches last_active_at.
    for (const i of [4, 1, 7, 0]) {
      const session = await t.call('sessions.create', p.server, { body: { user_id: users[i]!.id } });
      t.clock.advance(1000);
      const refreshed = await t.call('sessions.refreshCurrent', { ...p.client, refreshToken: session.refresh_token });
      assert.equal(typeof refreshed.access_token, 'string');
    }
    const full = (await t.call<Page>('users.list', p.server)).items;
    for (const order of ['signed_up_at', 'last_active_at'] as const) {
      const value = (u: Item) => (order === 'signed_up_at' ? u.signed_up_at_millis : (u.last_active_at_millis ?? u.signed_up_at_millis));
      const ascending = [...full].sort((a, b) => value(a) - value(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      for (const desc of [false, true]) {
        const expected = desc ? [...ascending].reverse() : ascending;
        for (const limit of [1, 2, 4]) {
          const got = await allPages(t, p.server, { order_by: order, desc: String(desc) }, limit);
          assert.deepEqual(
            got.map((u) => u.id),
            expected.map((u) => u.id),
            `${order} desc=${desc} limit=${limit}`,
          );
        }
      }
    }
    // The activity made the two orders differ, so each key was really used.
    const bySignUp = (await t.call<Page>('users.list', p.server, { query: { order_by: 'signed_up_at' } })).items.map((u) => u.id);
    const byActivity = (await t.call<Page>('users.list', p.server, { query: { order_by: 'last_active_at' } })).items.map((u) => u.id);
    assert.notDeepEqual(bySignUp, byActivity);
  });

  it('finds substrings of id, email and display name through the index, kept in step with updates and deletes', async () => {
    const t = get();
    const p = await createCoreProject(t);
    const other = await createCoreProject(t);
    const make = (body: Record<string, unknown>, caller = p.server) => t.call<Item>('users.create', caller, { body });
    const ann = await make({ primary_email: 'ann.lee@example.com', display_name: 'Ann "The Hammer" Lee' });
    const zoe = await make({ primary_email: 'zoe@Mail.Example.org', display_name: 'Zoë Ünal' });
    const bob = await make({ primary_email: 'bob@example.com', display_name: null });
    await make({ primary_email: 'ann.lee@other.example', display_name: 'Ann elsewhere' }, other.server);
    const find = async (text: string) =>
      (await t.call<Page>('users.list', p.server, { query: { query: text } })).items.map((u) => u.id).sort();
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

    await t.call('users.update', p.server, {
      params: { user_id: bob.id },
      body: { primary_email: 'robert@example.net', display_name: 'Robert Tables' },
    });
    assert.deepEqual(await find('bob@'), []);
    assert.deepEqual(await find('robert@example.net'), sorted(bob));
    assert.deepEqual(await find('tables'), sorted(bob));
    await t.call('users.delete', p.server, { params: { user_id: ann.id } });
    assert.deepEqual(await find('ann.lee'), []);
    assert.deepEqual(await find('example'), sorted(zoe, bob));
  });
});
