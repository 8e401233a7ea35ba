import { existsSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { ConfigError } from '../config.ts';

/**
 * A vendor's database read by `gatehouse import` (Better Auth, Supabase, Stack Auth): a SQLite
 * file (path, `sqlite:` or `file:`) opened read-only, or a PostgreSQL URL. Queries use `$1`-style
 * parameters on both (rewritten to `?` for SQLite).
 */
export interface SqlSource {
  readonly dialect: 'sqlite' | 'postgres';
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

/** Opens `location`. @throws ConfigError when the SQLite file is missing or PostgreSQL cannot be reached. */
export async function openSqlSource(location: string): Promise<SqlSource> {
  if (/^postgres(ql)?:\/\//.test(location)) {
    const client = new pg.Client({ connectionString: location });
    try {
      await client.connect();
    } catch (error) {
      throw new ConfigError(`cannot reach ${location.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@')} (${(error as Error).message})`);
    }
    return {
      dialect: 'postgres',
      query: async <R>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as R[],
      close: () => client.end(),
    };
  }
  const file = location.replace(/^(sqlite|file):/, '');
  if (!existsSync(file)) throw new ConfigError(`no database at ${file}`);
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  return {
    dialect: 'sqlite',
    query: async <R>(text: string, params: unknown[] = []) => db.prepare(text.replace(/\$\d+/g, '?')).all(...params) as R[],
    close: async () => {
      db.close();
    },
  };
}

/** Rows per page when a source is read in key order. */
export const SOURCE_PAGE = 1000;

/** Epoch milliseconds of a date as a driver returns it (Date, ISO text, or a number), or undefined. */
export function millis(value: unknown): number | undefined {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value < 1e12 ? value * 1000 : value;
  if (typeof value === 'string') {
    const parsed = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

/** A JSON object column (PostgreSQL jsonb arrives parsed, SQLite text does not), or undefined. */
export function jsonObject(value: unknown): Record<string, unknown> | undefined {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) && Object.keys(parsed).length > 0
    ? (parsed as Record<string, unknown>)
    : undefined;
}
