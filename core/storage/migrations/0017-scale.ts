import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * Indexes behind `GET /users` search and ordering.
 *
 * - Ordering by `last_active_at` (keyset, like `signed_up_at`): `(project_id, coalesce(last_active_at,
 *   signed_up_at), id)`; a user never active sorts at its sign-up time.
 * - Search (`query`, a case-insensitive substring of id, email or display name):
 *   PostgreSQL: `pg_trgm` GIN indexes on `lower(id)`, `lower(primary_email)` and `lower(display_name)`, used by
 *   `lower(col) like '%…%'` for patterns of 3 characters or more. The extension is created when
 *   missing (it is a trusted extension: a database owner may create it), in `public` when that
 *   schema exists and may be written, else in the current schema. Not in Gatehouse's own schema
 *   when another one will do: dropping a schema drops the extensions in it and, by cascade, every
 *   index of every other schema built on its operator classes (taking their tables' locks: test
 *   runs that drop their schemas deadlocked other schemas' queries that way).
 *   SQLite: an FTS5 table with the `trigram` tokenizer (SQLite ≥ 3.34), contentless, over
 *   `lower(id) ‖ U+0001 ‖ lower(email) ‖ U+0001 ‖ lower(display_name)`, keyed by a stable integer per user
 *   (`users_search_keys`, since a rowid of `users` may change on VACUUM) and kept in step by
 *   triggers; a phrase query (`"…"`) finds the substrings, the LIKE re-check drops false positives.
 */
export const scale: Migration = {
  async up(db: Kysely<any>) {
    await sql`create index users_project_last_active on users (project_id, coalesce(last_active_at, signed_up_at), id)`.execute(db);
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      const installed = await sql<{
        schema: string;
      }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db);
      let schema = installed.rows[0]?.schema;
      if (!schema) {
        const shared = await sql<{
          ok: boolean;
        }>`select has_schema_privilege(oid, 'CREATE') as ok from pg_namespace where nspname = 'public'`.execute(db);
        try {
          await (shared.rows[0]?.ok
            ? sql`create extension if not exists pg_trgm with schema public`
            : sql`create extension if not exists pg_trgm`
          ).execute(db);
        } catch (error) {
          // Another process created it at the same moment (a unique violation on pg_extension).
          if ((error as { code?: string }).code !== '23505') throw error;
        }
        schema = (
          await sql<{
            schema: string;
          }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db)
        ).rows[0]!.schema;
      }
      const ops = sql.raw(`${schema}.gin_trgm_ops`);
      await sql`create index users_email_trgm on users using gin (lower(primary_email) ${ops})`.execute(db);
      await sql`create index users_display_name_trgm on users using gin (lower(display_name) ${ops})`.execute(db);
      await sql`create index users_id_trgm on users using gin (lower(id) ${ops})`.execute(db);
      return;
    }
    await sql`create table users_search_keys (n integer primary key, user_id text not null unique)`.execute(db);
    await sql`create virtual table users_search using fts5(text, tokenize = 'trigram', content = '', contentless_delete = 1)`.execute(db);
    const text = (row: 'new' | 'old') =>
      sql.raw(
        `lower(${row}.id) || char(1) || lower(coalesce(${row}.primary_email, '')) || char(1) || lower(coalesce(${row}.display_name, ''))`,
      );
    await sql`create trigger users_search_insert after insert on users begin
      insert into users_search_keys (user_id) values (new.id);
      insert into users_search (rowid, text) values (last_insert_rowid(), ${text('new')});
    end`.execute(db);
    await sql`create trigger users_search_update after update of primary_email, display_name on users begin
      delete from users_search where rowid = (select n from users_search_keys where user_id = old.id);
      insert into users_search (rowid, text) values ((select n from users_search_keys where user_id = new.id), ${text('new')});
    end`.execute(db);
    await sql`create trigger users_search_delete after delete on users begin
      delete from users_search where rowid = (select n from users_search_keys where user_id = old.id);
      delete from users_search_keys where user_id = old.id;
    end`.execute(db);
    await sql`insert into users_search_keys (user_id) select id from users order by signed_up_at, id`.execute(db);
    await sql`insert into users_search (rowid, text) select k.n, lower(u.id) || char(1) || lower(coalesce(u.primary_email, '')) || char(1) || lower(coalesce(u.display_name, '')) from users u join users_search_keys k on k.user_id = u.id`.execute(
      db,
    );
  },
};
