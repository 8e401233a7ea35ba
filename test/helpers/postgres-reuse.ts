import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * PostgreSQL test databases reused within a test process. A test's database, once released, is
 * renamed (no client of the test can reach it under its old name again, as after DROP DATABASE),
 * checked to have the template's schema, emptied to the template's rows, and handed to the
 * process's next test; the process drops the ones it holds when it ends.
 *
 * Why: a full run made about 170 copies of the migrated template. CREATE DATABASE writes the
 * template's 10 MB again (WAL_LOG strategy: through shared buffers and the WAL, then fsync) and
 * DROP DATABASE forces a checkpoint; with the other tests writing, each copy cost 0.3–0.6 s of
 * kernel CPU in its backend (process accounting of a full run: 96 of PostgreSQL's 114 s of CPU).
 * Emptying 65 small tables costs a few milliseconds.
 */

type Query = (sql: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * Everything a test could change in a database apart from table rows, as one hash: relations with
 * their columns, defaults and options, indexes, constraints, triggers, functions, types, schemas,
 * extensions, policies and the database's own settings. Equal hashes mean emptying the tables
 * restores the template's state.
 */
const SCHEMA_FINGERPRINT = `
with user_ns as (
  select oid, nspname from pg_namespace
  where nspname not in ('pg_catalog', 'information_schema') and nspname not like 'pg\\_toast%' and nspname not like 'pg\\_temp\\_%'
)
select md5(coalesce(string_agg(item, E'\\n' order by item), '')) as fingerprint from (
  select format('rel %s.%s %s %s %s %s %s', n.nspname, c.relname, c.relkind, c.relpersistence, c.relrowsecurity, c.reloptions, (
      select string_agg(format('%s %s %s %s', a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(d.adbin, d.adrelid)), ', ' order by a.attnum)
      from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped)) as item
    from pg_class c join user_ns n on n.oid = c.relnamespace
  union all select format('idx %s', pg_get_indexdef(i.indexrelid))
    from pg_index i join pg_class c on c.oid = i.indexrelid join user_ns n on n.oid = c.relnamespace
  union all select format('con %s %s %s', n.nspname, co.conname, pg_get_constraintdef(co.oid))
    from pg_constraint co join user_ns n on n.oid = co.connamespace
  union all select format('trg %s %s', t.tgenabled, pg_get_triggerdef(t.oid)) from pg_trigger t where not t.tgisinternal
  union all select format('fn %s %s', p.oid::regprocedure, md5(p.prosrc)) from pg_proc p join user_ns n on n.oid = p.pronamespace
  union all select format('type %s.%s', n.nspname, t.typname) from pg_type t join user_ns n on n.oid = t.typnamespace
  union all select format('ns %s', nspname) from user_ns
  union all select format('ext %s %s', extname, extversion) from pg_extension
  union all select format('pol %s %s %s', polrelid::regclass, polname, pg_get_expr(polqual, polrelid)) from pg_policy
  union all select format('set %s', setconfig) from pg_db_role_setting
    where setdatabase = (select oid from pg_database where datname = current_database())
) items`;

/** The user tables of the connected database, quoted (`"schema"."table"`). */
const USER_TABLES = `
select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
where c.relkind in ('r', 'p') and not c.relispartition
  and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp\\_%'
order by 1`;

/** One query giving each listed table's rows as a hash (`name`, `rows`). */
const rowsHashes = (tables: string[]) =>
  tables
    .map(
      (t) =>
        `select '${t.replaceAll("'", "''")}' as name, md5(coalesce(string_agg(r::text, E'\\n' order by r::text), '')) as rows from ${t} r`,
    )
    .join(' union all ');

/** What a reused database must match: the template's schema hash and its tables' rows. */
interface TemplateState {
  fingerprint: string;
  /** Tables the template leaves empty: emptied on reuse. */
  emptied: string[];
  /** Tables holding rows in the template (the migrations' record), with those rows' hash: must be unchanged. */
  kept: Map<string, string>;
}

async function withClient<T>(url: string, use: (query: Query) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use((sql, values) => client.query(sql, values));
  } finally {
    await client.end().catch(() => {});
  }
}

const databaseUrl = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

const EMPTY_ROWS = 'd41d8cd98f00b204e9800998ecf8427e'; // md5('')

/**
 * A source of migrated test databases on the PostgreSQL server at `serverUrl`, copied from
 * `template` or reused (see the file's comment). `take` resolves with a database's name;
 * `release(name)` hands it back when its test is done with it.
 */
export function reusableDatabases(serverUrl: string, template: string) {
  const idle: string[] = [];
  let state: Promise<TemplateState> | undefined;
  const templateState = () =>
    (state ??= withClient(databaseUrl(serverUrl, template), async (query) => {
      const fingerprint = String((await query(SCHEMA_FINGERPRINT)).rows[0]!.fingerprint);
      const tables = (await query(USER_TABLES)).rows.map((r) => String(r.name));
      const hashes = (await query(rowsHashes(tables))).rows;
      const kept = new Map(hashes.filter((r) => r.rows !== EMPTY_ROWS).map((r) => [String(r.name), String(r.rows)]));
      return { fingerprint, emptied: tables.filter((t) => !kept.has(t)), kept };
    }));
  const newName = () => `t_${randomBytes(6).toString('hex')}`;
  const drop = (name: string) => withClient(serverUrl, (query) => query(`drop database if exists "${name}" with (force)`));

  /** A copy of the template; another copy made at the same moment can hold it briefly (55006): retried. */
  async function copy(): Promise<string> {
    const name = newName();
    await withClient(serverUrl, async (query) => {
      for (let attempt = 0; ; attempt++) {
        try {
          await query(`create database "${name}" template "${template}"`);
          return;
        } catch (error) {
          if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    });
    return name;
  }

  /**
   * Ends every session on `name` and renames it (a client left running by the test cannot
   * reconnect to it), then empties it when its schema and the template's rows are unchanged.
   * Resolves with the new name, or undefined when it was dropped instead.
   */
  async function reset(name: string): Promise<string | undefined> {
    const fresh = newName();
    const renamed = await withClient(serverUrl, async (query) => {
      for (let attempt = 0; attempt < 20; attempt++) {
        await query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
        try {
          await query(`alter database "${name}" rename to "${fresh}"`);
          return true;
        } catch (error) {
          if ((error as { code?: string }).code !== '55006') throw error; // still being accessed: its sessions are ending
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      }
      return false;
    });
    if (!renamed) {
      await drop(name);
      return undefined;
    }
    const expected = await templateState();
    const reusable = await withClient(databaseUrl(serverUrl, fresh), async (query) => {
      if (String((await query(SCHEMA_FINGERPRINT)).rows[0]!.fingerprint) !== expected.fingerprint) return false;
      // Foreign keys' triggers off while every table is emptied (needs a superuser, as the tests' role is).
      await query(
        `begin; set local session_replication_role = replica; ${expected.emptied.map((t) => `delete from ${t};`).join(' ')} commit`,
      );
      if (expected.kept.size === 0) return true;
      const rows = (await query(rowsHashes([...expected.kept.keys()]))).rows;
      return rows.every((r) => expected.kept.get(String(r.name)) === r.rows);
    }).catch(() => false);
    if (reusable) return fresh;
    await drop(fresh);
    return undefined;
  }

  let cleanupRegistered = false;
  return {
    /** The name of an empty, migrated database for one test. */
    async take(): Promise<string> {
      if (!cleanupRegistered) {
        cleanupRegistered = true;
        // The event loop is empty when a test process is done: drop what it holds, then it ends.
        process.once('beforeExit', () => {
          const names = idle.splice(0);
          if (names.length) void Promise.allSettled(names.map(drop));
        });
      }
      return idle.pop() ?? (await copy());
    },
    /** Hands `name` back: reused by a later test, or dropped when it cannot be reset. */
    async release(name: string): Promise<void> {
      const fresh = await reset(name).catch(async (error: unknown) => {
        await drop(name).catch(() => {});
        throw error;
      });
      if (fresh) idle.push(fresh);
    },
  };
}
