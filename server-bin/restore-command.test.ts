import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { backupSqlite } from './backup.ts';
import { ConfigError } from './config.ts';
import { runRestoreCommand } from './restore-command.ts';

/**
 * `gatehouse restore`: a backup made by `gatehouse backup` replaces the database, the replaced
 * file is kept beside it, and damaged files, non-Gatehouse files and a database in use are refused
 * with the database left as it was.
 */
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-restore-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A minimal database shaped like Gatehouse's (a migrator table and one table of rows). */
function makeDatabase(file: string, rows: string[]): void {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.exec('create table gatehouse_migrations (name text primary key, timestamp text)');
  db.exec('create table users (id text primary key)');
  for (const id of rows) db.prepare('insert into users (id) values (?)').run(id);
  db.close();
}

const ids = (file: string) => {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return (db.prepare('select id from users order by id').all() as { id: string }[]).map((r) => r.id);
  } finally {
    db.close();
  }
};

it('puts the backup in place and keeps the replaced database beside it', async () => {
  const data = join(dir, 'a');
  const database = join(data, 'gatehouse.db');
  mkdirSync(data, { recursive: true });
  makeDatabase(database, ['u1', 'u2']);
  const backup = join(dir, 'a.backup.db');
  await backupSqlite(database, backup);
  // Changes after the backup: one user more, one deleted.
  const db = new BetterSqlite3(database);
  db.exec("insert into users (id) values ('u3'); delete from users where id = 'u1'");
  db.close();
  assert.deepEqual(ids(database), ['u2', 'u3']);

  await runRestoreCommand([backup, '--data-dir', data], {});
  assert.deepEqual(ids(database), ['u1', 'u2']);
  assert.equal(statSync(database).mode & 0o777, 0o600);
  const kept = readdirSync(data).filter((f) => f.startsWith('gatehouse.db.before-restore-'));
  assert.equal(kept.length, 1);
  assert.deepEqual(ids(join(data, kept[0]!)), ['u2', 'u3']);
  assert.ok(!existsSync(`${database}.partial`));
});

it('refuses a database in use, a damaged backup and a file that is not Gatehouse’s, changing nothing', async () => {
  const data = join(dir, 'b');
  mkdirSync(data, { recursive: true });
  const database = join(data, 'gatehouse.db');
  makeDatabase(database, ['keep']);
  const backup = join(dir, 'b.backup.db');
  await backupSqlite(database, backup);

  const server = new BetterSqlite3(database);
  server.prepare('select count(*) from users').get();
  try {
    await assert.rejects(runRestoreCommand([backup, '--database-url', `sqlite:${database}`], {}), /is in use/);
  } finally {
    server.close();
  }

  const damaged = join(dir, 'damaged.db');
  writeFileSync(damaged, 'SQLite format 3\0 but not really a database');
  await assert.rejects(runRestoreCommand([damaged, '--data-dir', data], {}), ConfigError);

  const foreign = join(dir, 'foreign.db');
  new BetterSqlite3(foreign).exec('create table t (x)');
  await assert.rejects(runRestoreCommand([foreign, '--data-dir', data], {}), /not a Gatehouse database/);

  await assert.rejects(runRestoreCommand([join(dir, 'missing.db'), '--data-dir', data], {}), /No backup/);
  await assert.rejects(runRestoreCommand([backup, '--database-url', 'postgres://x@127.0.0.1/db'], {}), /pg_restore/);
  assert.deepEqual(ids(database), ['keep']);
  assert.deepEqual(
    readdirSync(data).filter((f) => !f.startsWith('gatehouse.db-')),
    ['gatehouse.db'],
  );
});
