import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type KyselyPlugin } from 'kysely';
import { migrateToLatest, type StorageAdapter } from './adapter.ts';
import { precompiled } from './precompiled.ts';
import { observingPlugin } from './observing-plugins.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/helpers/dialects.ts';

/** A projects row with the given id, display name and production flag (the rest fixed). */
function projectRow(id: string, displayName: string, production: boolean) {
  return {
    id,
    display_name: displayName,
    description: '',
    created_at: 1_700_000_000_000,
    is_production_mode: production,
    is_development_environment: false,
    owner_team_id: null,
    logo_url: null,
    logo_full_url: null,
    logo_dark_mode_url: null,
    logo_full_dark_mode_url: null,
    config: '{}',
  };
}

/** One query for every dialect's suite below, as the domain queries are: each database compiles its own SQL. */
const sharedById = precompiled((db, a: { id: string }) => db.selectFrom('projects').select('display_name').where('id', '=', a.id));

for (const dialect of testDialects()) {
  describe(`precompiled queries [${dialect}]`, () => {
    let database: TestDatabase;
    let adapter: StorageAdapter;

    before(async () => {
      database = await createTestDatabase(dialect);
      adapter = database.open();
      await migrateToLatest(adapter);
      await adapter.db
        .insertInto('projects')
        .values([projectRow('pc-a', 'Alpha', true), projectRow('pc-b', 'Beta', false), projectRow('pc-c', 'Gamma', true)])
        .execute();
    });
    after(async () => {
      await adapter.close();
      await database.drop();
    });

    it("returns the rows of each call's argument values and keeps the constants written in the builder", async () => {
      let builds = 0;
      const production = precompiled((db, a: { from: string; to: string }) => {
        builds++;
        return db
          .selectFrom('projects')
          .select(['id', 'display_name', 'created_at'])
          .where('is_production_mode', '=', true)
          .where('id', '>=', a.from)
          .where('id', '<=', a.to)
          .orderBy('id');
      });
      assert.deepEqual(await production.execute(adapter.db, { from: 'pc-a', to: 'pc-c' }), [
        { id: 'pc-a', display_name: 'Alpha', created_at: 1_700_000_000_000 },
        { id: 'pc-c', display_name: 'Gamma', created_at: 1_700_000_000_000 },
      ]);
      assert.deepEqual(
        (await production.execute(adapter.db, { from: 'pc-b', to: 'pc-z' })).map((r) => r.id),
        ['pc-c'],
      );
      assert.deepEqual(await production.execute(adapter.db, { from: 'pc-b', to: 'pc-b' }), []);
      assert.equal((await production.executeTakeFirst(adapter.db, { from: 'pc-a', to: 'pc-z' }))?.id, 'pc-a');
      assert.equal(await production.executeTakeFirst(adapter.db, { from: 'x', to: 'y' }), undefined);
      assert.equal(builds, 1, 'built once for this database');
    });

    it("gives a query shared by the suites of every configured dialect this dialect's own SQL", async () => {
      assert.equal((await sharedById.executeTakeFirst(adapter.db, { id: 'pc-b' }))?.display_name, 'Beta');
      assert.equal(await sharedById.executeTakeFirst(adapter.db, { id: 'pc-none' }), undefined);
    });

    it('binds numbers, nulls and booleans (flags, stored 0/1) given at call time', async () => {
      const byFlag = precompiled((db, a: { production: boolean; after: number }) =>
        db
          .selectFrom('projects')
          .select('id')
          .where('is_production_mode', '=', a.production)
          .where('created_at', '>', a.after)
          .orderBy('id'),
      );
      assert.deepEqual(
        (await byFlag.execute(adapter.db, { production: false, after: 0 })).map((r) => r.id),
        ['pc-b'],
      );
      assert.deepEqual(
        (await byFlag.execute(adapter.db, { production: true, after: 0 })).map((r) => r.id),
        ['pc-a', 'pc-c'],
      );
      assert.deepEqual(await byFlag.execute(adapter.db, { production: true, after: 1_700_000_000_000 }), []);
      const byOwner = precompiled((db, a: { owner: string | null }) =>
        db.selectFrom('projects').select('id').where('owner_team_id', '=', a.owner),
      );
      assert.deepEqual(await byOwner.execute(adapter.db, { owner: null }), [], '= NULL matches nothing, as Kysely would bind it');
    });

    it('compiles once per database: later calls, on the instance or in a transaction, reuse the SQL', async () => {
      let builds = 0;
      const byId = precompiled((db, a: { id: string }) => {
        builds++;
        return db.selectFrom('projects').select('display_name').where('id', '=', a.id);
      });
      const executor = adapter.db.getExecutor();
      const compileQuery = executor.compileQuery;
      let compiles = 0;
      executor.compileQuery = (...args) => {
        compiles++;
        return compileQuery.apply(executor, args);
      };
      try {
        for (const id of ['pc-a', 'pc-b', 'pc-c', 'pc-a']) await byId.executeTakeFirst(adapter.db, { id });
        await adapter.db.transaction().execute(async (trx) => {
          assert.equal((await byId.executeTakeFirst(trx, { id: 'pc-b' }))?.display_name, 'Beta');
        });
      } finally {
        executor.compileQuery = compileQuery;
      }
      assert.equal(compiles, 1, 'Kysely compiled the query once');
      assert.equal(builds, 1, 'the builder ran once');
    });

    it("runs inside a transaction on its connection: it sees the transaction's writes, which a rollback undoes", async () => {
      const byId = precompiled((db, a: { id: string }) => db.selectFrom('projects').select(['id', 'display_name']).where('id', '=', a.id));
      const rollback = new Error('roll back');
      await assert.rejects(
        adapter.db.transaction().execute(async (trx) => {
          await trx
            .insertInto('projects')
            .values(projectRow('pc-tx', 'In transaction', false))
            .execute();
          assert.deepEqual(await byId.executeTakeFirst(trx, { id: 'pc-tx' }), { id: 'pc-tx', display_name: 'In transaction' });
          throw rollback;
        }),
        rollback,
      );
      assert.equal(await byId.executeTakeFirst(adapter.db, { id: 'pc-tx' }), undefined);
    });

    it('refuses a builder that drops, repeats, alters or inlines an argument, on the first call', async () => {
      const misuses = {
        dropped: precompiled((db, a: { id: string; name: string }) =>
          db
            .selectFrom('projects')
            .select('id')
            .where('id', '=', a.id)
            .where(() => sql<boolean>`${a.name ? 1 : 0} = 1`),
        ),
        repeated: precompiled((db, a: { id: string }) =>
          db.selectFrom('projects').select('id').where('id', '=', a.id).where('display_name', '!=', a.id),
        ),
        altered: precompiled((db, a: { prefix: string }) => db.selectFrom('projects').select('id').where('id', 'like', `${a.prefix}%`)),
        inlined: precompiled((db, a: { id: string }) => db.selectFrom('projects').select('id').where('id', '=', sql.lit(a.id))),
      };
      await assert.rejects(misuses.dropped.execute(adapter.db, { id: 'pc-a', name: 'Alpha' }), /argument "name" is bound 0 times/);
      await assert.rejects(misuses.repeated.execute(adapter.db, { id: 'pc-a' }), /argument "id" is bound 2 times/);
      await assert.rejects(misuses.altered.execute(adapter.db, { prefix: 'pc' }), /altered or concatenated/);
      await assert.rejects(misuses.inlined.execute(adapter.db, { id: 'pc-a' }), /written into the SQL text/);
    });

    it('builds and compiles through the plugins of an instance that has some, on every call', async () => {
      let transforms = 0;
      const counting: KyselyPlugin = {
        transformQuery: ({ node }) => {
          transforms++;
          return node;
        },
        transformResult: async ({ result }) => result,
      };
      const byId = precompiled((db, a: { id: string }) => db.selectFrom('projects').select('display_name').where('id', '=', a.id));
      const withPlugin = adapter.db.withPlugin(counting);
      assert.equal((await byId.executeTakeFirst(withPlugin, { id: 'pc-a' }))?.display_name, 'Alpha');
      assert.equal((await byId.executeTakeFirst(withPlugin, { id: 'pc-c' }))?.display_name, 'Gamma');
      assert.equal(transforms, 2);
    });

    it('keeps its compiled SQL on an instance whose plugins only observe, and shows them every run', async () => {
      const seen: string[] = [];
      const watching = observingPlugin<KyselyPlugin>({
        transformQuery: ({ node }) => {
          seen.push(node.kind);
          return node;
        },
        transformResult: async ({ result }) => result,
      });
      let builds = 0;
      const byId = precompiled((db, a: { id: string }) => {
        builds++;
        return db.selectFrom('projects').select('display_name').where('id', '=', a.id);
      });
      const observed = adapter.db.withPlugin(watching);
      assert.equal((await byId.executeTakeFirst(observed, { id: 'pc-a' }))?.display_name, 'Alpha');
      assert.equal((await byId.executeTakeFirst(observed, { id: 'pc-b' }))?.display_name, 'Beta');
      await observed
        .transaction()
        .execute(async (tx) => assert.equal((await byId.executeTakeFirst(tx, { id: 'pc-c' }))?.display_name, 'Gamma'));
      assert.equal(builds, 1, 'built once for the dialect, not once per call');
      assert.deepEqual(seen, ['SelectQueryNode', 'SelectQueryNode', 'SelectQueryNode']);
    });
  });
}
