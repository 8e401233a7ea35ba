import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql } from 'kysely';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { createCoreProjectKeys } from '../../test/helpers/core-fixtures-b.ts';
import type { Credentials } from '../index.ts';
import type { Database } from '../storage/tables.ts';
import { createRequestCache, REQUEST_CACHE_TABLES } from './request-cache.ts';
import { watchCachedTableWrites } from './cached-table-writes.ts';

/** Counts the project loads (cache misses) of the core's request cache while `fn` runs. */
async function countProjectLoads(t: TestCore, fn: () => Promise<void>): Promise<number> {
  const cache = t.core.runtime.requestCache as { project: typeof t.core.runtime.requestCache.project };
  const original = cache.project;
  let loads = 0;
  cache.project = (id, load) =>
    original(id, () => {
      loads++;
      return load();
    });
  try {
    await fn();
  } finally {
    cache.project = original;
  }
  return loads;
}

/** A fresh project with a user session and a client caller using a publishable key. */
async function projectWithSession(t: TestCore) {
  const p = await createCoreProject(t);
  const keys = await createCoreProjectKeys(t, p.admin);
  const client: Credentials = { projectId: p.projectId, accessType: 'client', publishableClientKey: keys.publishableClientKey };
  const user = await t.call<any>('users.create', p.server, {
    body: { primary_email: `u${Math.random().toString(36).slice(2)}@example.com` },
  });
  const session = await t.call<any>('sessions.create', p.server, { body: { user_id: user.id } });
  return { p, keys, client, refreshToken: session.refresh_token as string };
}

/** Request-cache invalidation, in-process (test/helpers/core-client.ts): each call is a request. */
describeWithCore('request cache invalidation', (get) => {
  it('shows a project update through the API to the very next request of the process', async () => {
    const t = get();
    const { p, client } = await projectWithSession(t);
    assert.equal((await t.call<any>('projects.getCurrent', client)).display_name, 'New Project');
    assert.equal((await t.call<any>('projects.updateCurrent', p.admin, { body: { display_name: 'Renamed' } })).display_name, 'Renamed');
    assert.equal((await t.call<any>('projects.getCurrent', client)).display_name, 'Renamed');
  });

  it('refuses a revoked key on the very next request of the process', async () => {
    const t = get();
    const { p, keys, client } = await projectWithSession(t);
    assert.ok(await t.call<any>('projects.getCurrent', client));
    const list = await t.call<any>('internalApiKeys.list', p.admin);
    const keyId = (list.items as Array<{ id: string }>)[0]!.id;
    assert.ok(await t.call<any>('internalApiKeys.update', p.admin, { params: { api_key_id: keyId }, body: { revoked: true } }));
    assert.equal(
      (
        await t.refuses(
          'projects.getCurrent',
          { ...client, publishableClientKey: keys.publishableClientKey },
          {},
          'INVALID_PUBLISHABLE_CLIENT_KEY',
        )
      ).status,
      401,
    );
  });

  it('keeps the cached project through a refresh (a non-GET that writes no cached table)', async () => {
    const t = get();
    const { client, refreshToken } = await projectWithSession(t);
    assert.ok(await t.call<any>('projects.getCurrent', client));
    const loads = await countProjectLoads(t, async () => {
      assert.ok(await t.call<any>('sessions.refreshCurrent', { ...client, refreshToken }));
      assert.ok(await t.call<any>('projects.getCurrent', client));
    });
    assert.equal(loads, 0);
  });

  it('sees a write made outside any operation (through the runtime database) at the next request', async () => {
    const t = get();
    const { p, client } = await projectWithSession(t);
    assert.ok(await t.call<any>('projects.getCurrent', client));
    await t.core.runtime.db.updateTable('projects').set({ display_name: 'Set directly' }).where('id', '=', p.projectId).execute();
    assert.equal((await t.call<any>('projects.getCurrent', client)).display_name, 'Set directly');
  });
});

describe('request cache', () => {
  it('forgets every entry on clear(): the next lookup loads again', async () => {
    const cache = createRequestCache(60_000);
    let loads = 0;
    const load = async () => {
      loads++;
      return { expiresAt: null };
    };
    await cache.key('k', load);
    await cache.key('k', load);
    assert.equal(loads, 1);
    cache.clear();
    await cache.key('k', load);
    await cache.key('k', load);
    assert.equal(loads, 2);
  });

  it('does not keep a value whose load straddled a clear', async () => {
    const cache = createRequestCache(60_000);
    let loads = 0;
    let release!: () => void;
    const slow = () =>
      new Promise<false>((resolve) => {
        loads++;
        release = () => resolve(false);
      });
    const pending = cache.key('k', slow);
    cache.clear();
    release();
    assert.equal(await pending, false);
    const again = cache.key('k', async () => {
      loads++;
      return { expiresAt: 5 };
    });
    assert.deepEqual(await again, { expiresAt: 5 });
    assert.equal(loads, 2);
  });

  it('clears only when writes were noted since the last clear', async () => {
    const cache = createRequestCache(60_000);
    let loads = 0;
    const load = async () => {
      loads++;
      return null;
    };
    await cache.project('p', load);
    cache.clearIfWrittenSinceLastClear();
    await cache.project('p', load);
    assert.equal(loads, 1);
    const mark = cache.writes();
    cache.noteWrite();
    assert.equal(cache.writes(), mark + 1);
    cache.clearIfWrittenSinceLastClear();
    await cache.project('p', load);
    assert.equal(loads, 2);
  });

  it('expires entries after ttlMs and caches nothing with ttlMs 0', async () => {
    const cache = createRequestCache(20);
    let loads = 0;
    const load = async () => {
      loads++;
      return null;
    };
    await cache.project('p', load);
    await cache.project('p', load);
    assert.equal(loads, 1);
    await sleep(60);
    await cache.project('p', load);
    assert.equal(loads, 2);
    const off = createRequestCache(0);
    await off.project('p', load);
    await off.project('p', load);
    assert.equal(loads, 4);
  });
});

describe('watchCachedTableWrites', () => {
  // Compiling runs the plugin; no database is needed (Kysely's DummyDriver).
  let writes = 0;
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new SqliteIntrospector(k),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
    plugins: [
      watchCachedTableWrites(REQUEST_CACHE_TABLES, () => {
        writes++;
      }),
    ],
  });
  const counted = (compile: () => unknown): number => {
    const before = writes;
    compile();
    return writes - before;
  };

  it('counts inserts, updates and deletes of projects and internal_api_keys', () => {
    assert.equal(
      counted(() => db.updateTable('projects').set({ display_name: 'x' }).where('id', '=', 'p').compile()),
      1,
    );
    assert.equal(
      counted(() => db.deleteFrom('projects').where('id', '=', 'p').compile()),
      1,
    );
    assert.equal(
      counted(() => db.updateTable('internal_api_keys as k').set({ description: 'x' }).compile()),
      1,
    );
    assert.equal(
      counted(() =>
        db
          .insertInto('internal_api_keys')
          .values({ id: 'k' } as never)
          .compile(),
      ),
      1,
    );
  });

  it('counts a raw SQL write naming a cached table, and a data-modifying WITH', () => {
    assert.equal(
      counted(() => sql`update projects set display_name = 'x'`.compile(db)),
      1,
    );
    assert.equal(
      counted(() => sql`delete from ${sql.table('internal_api_keys')} where id = ${'k'}`.compile(db)),
      1,
    );
    assert.equal(
      counted(() =>
        db
          .with('gone', (q) => q.deleteFrom('projects').returning('id'))
          .selectFrom('gone')
          .selectAll()
          .compile(),
      ),
      1,
    );
  });

  it('ignores reads, and writes of other tables', () => {
    assert.equal(
      counted(() => db.selectFrom('projects').selectAll().compile()),
      0,
    );
    assert.equal(
      counted(() => db.updateTable('users').set({ last_active_at: 1 }).where('id', '=', 'u').compile()),
      0,
    );
    assert.equal(
      counted(() => db.insertInto('user_active_days').values({ project_id: 'p', day: 'd', user_id: 'u' }).compile()),
      0,
    );
    assert.equal(
      counted(() => sql`select id from projects where updated_at > 0`.compile(db)),
      0,
    );
    assert.equal(
      counted(() => sql`update users set display_name = null`.compile(db)),
      0,
    );
  });
});
