import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createSqliteAdapter, isSqliteBusy } from './index.ts';

describe('SQLite transactions with two connections on one file (--workers)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-sqlite-tx-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a transaction that reads, then writes, commits though another connection wrote in between', async () => {
    const filename = join(dir, 'two.db');
    const first = createSqliteAdapter({ filename });
    // The other process, waiting at most 50 ms for the write lock.
    const second = createSqliteAdapter({ filename, busyTimeoutMs: 50 });
    try {
      await sql`create table counters (id text primary key, n integer not null)`.execute(first.db);
      await sql`insert into counters values ('a', 0)`.execute(first.db);
      let otherWrite: 'committed' | 'waited for the lock' | undefined;
      await first.db.transaction().execute(async (tx) => {
        const { rows } = await sql<{ n: number }>`select n from counters where id = 'a'`.execute(tx);
        // Another process writes between this transaction's read and its write. With a deferred
        // BEGIN it commits, and this transaction's write then fails at once (SQLITE_BUSY: its read
        // snapshot is stale). BEGIN IMMEDIATE holds the write lock from the start: the other one waits.
        try {
          await sql`update counters set n = n + 100 where id = 'a'`.execute(second.db);
          otherWrite = 'committed';
        } catch (error) {
          assert.ok(isSqliteBusy(error), String(error));
          otherWrite = 'waited for the lock';
        }
        await sql`update counters set n = ${rows[0]!.n + 1} where id = 'a'`.execute(tx);
      });
      assert.equal(otherWrite, 'waited for the lock');
      const { rows } = await sql<{ n: number }>`select n from counters where id = 'a'`.execute(second.db);
      assert.equal(rows[0]!.n, 1);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
