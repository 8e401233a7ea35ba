import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type { StorageAdapter } from '../../core/storage/adapter.ts';
import type { Database } from '../../core/storage/tables.ts';

export interface PostgresAdapterOptions {
  /** `postgres://user:pass@host:port/db`. */
  connectionString: string;
  /** Schema to use (created if missing); default `public`. Tests use one schema per file. */
  schema?: string;
  /** Pool size; default 10. */
  max?: number;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * Opens a PostgreSQL pool through Kysely's PostgresDialect. `int8` (our epoch-ms times) and
 * `numeric` are parsed as JS numbers, which is exact for every value we store.
 */
export function createPostgresAdapter(options: PostgresAdapterOptions): StorageAdapter {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid PostgreSQL schema name: ${schema}`);
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === INT8_OID || oid === NUMERIC_OID) return (v: string) => Number(v);
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    types: types as pg.CustomTypesConfig,
    ...(schema !== 'public' ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client's network error must not crash the process; the next query reports it.
  pool.on('error', () => {});
  let ensured: Promise<void> | undefined;
  const ensureSchema = () => (ensured ??= (async () => {
    if (schema === 'public') return;
    const client = await pool.connect();
    try { await client.query(`create schema if not exists "${schema}"`); } finally { client.release(); }
  })());
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: async () => { await ensureSchema(); return pool; },
    }),
  });
  return {
    dialect: 'postgres',
    db,
    schema,
    isUniqueViolation: (error) => typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505',
    ping: async () => { await sql`select 1`.execute(db); },
    close: () => db.destroy(),
  };
}
