import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
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

  it('keeps the health monitor up while another connection holds the write lock almost all the time but keeps committing', async () => {
    const filename = join(dir, 'saturated.db');
    const adapter = createSqliteAdapter({ filename, healthCheck: { intervalMs: 50, deadlineMs: 1000 } });
    const other = new BetterSqlite3(filename);
    try {
      await sql`create table events (n integer not null)`.execute(adapter.db);
      other.pragma('busy_timeout = 1000');
      // Another process's writers back to back: the lock is free only between a commit and the
      // next BEGIN of the same tick, so the probe never gets it; commits show progress.
      const until = performance.now() + 3000;
      let commits = 0;
      while (performance.now() < until) {
        other.exec('begin immediate');
        other.prepare('insert into events values (?)').run(commits);
        await sleep(10);
        other.exec('commit');
        commits++;
        await adapter.ping(); // throws the monitor's down error if it ever took this for a stall
      }
      assert.ok(commits > 20);
      // The monitor does see a lock held without commits (the contrast): down within its deadline.
      other.exec('begin immediate');
      const started = performance.now();
      let down: unknown;
      while (!down && performance.now() - started < 5000) {
        try {
          await adapter.ping();
          await sleep(20);
        } catch (error) {
          down = error;
        }
      }
      assert.ok(adapter.isUnavailable(down), String(down));
    } finally {
      if (other.inTransaction) other.exec('rollback');
      other.close();
      await adapter.close();
    }
  });
});
