import pg from 'pg';
import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type { StorageAdapter } from '../../core/storage/adapter.ts';
import type { Database } from '../../core/storage/tables.ts';
import { HEALTH_CHECK_DEFAULTS, createHealthMonitor, isDatabaseDown, type HealthCheckOptions } from '../../core/storage/health-monitor.ts';
import { createPostgresProbe, destroyConnection } from './health-probe.ts';
import { fromDriverRows, toDriverParameters } from '../boolean-columns.ts';
import { preparedStatementName } from '../../core/storage/precompiled.ts';

export interface PostgresAdapterOptions {
  /** `postgres://user:pass@host:port/db`. */
  connectionString: string;
  /** Schema to use (created if missing); default `public`. Tests use one schema per file. */
  schema?: string;
  /** Pool size; default 10. */
  max?: number;
  /**
   * Longest wait for a connection, in ms: a free pool slot plus the TCP connect and PostgreSQL
   * start-up; default 5000. On expiry the request fails with DATABASE_UNAVAILABLE.
   */
  connectTimeoutMs?: number;
  /**
   * PostgreSQL's `statement_timeout` in ms (the server cancels a longer statement); default
   * 10000, 0 turns it off. The client also gives up on a statement whose answer has not arrived
   * 1 s after this bound (a stalled network never lets the server's cancel reach us), and drops
   * that connection.
   */
  statementTimeoutMs?: number;
  /**
   * PostgreSQL's `idle_in_transaction_session_timeout` in ms: the server ends a session that
   * sits inside a transaction doing nothing for this long, releasing its locks; default 10000,
   * 0 turns it off.
   */
  idleInTransactionTimeoutMs?: number;
  /**
   * The connection-health monitor (core/storage/health-monitor.ts): `select 1` every
   * `intervalMs` on a connection outside the pool; no answer within `deadlineMs` marks the
   * database down, and while down every request fails at once with DATABASE_UNAVAILABLE (waits
   * for a pool client and statements in flight are released). Defaults: HEALTH_CHECK_DEFAULTS (250 / 1000 ms);
   * `intervalMs: 0` turns it off.
   */
  healthCheck?: Partial<HealthCheckOptions>;
}

/** The defaults of PostgresAdapterOptions' timeouts, in ms (documented in README "Database faults"). */
export const POSTGRES_TIMEOUT_DEFAULTS = {
  connectTimeoutMs: 5000,
  statementTimeoutMs: 10_000,
  idleInTransactionTimeoutMs: 10_000,
} as const;

/** Grace after `statement_timeout` before the client stops waiting for an answer, in ms. */
const READ_GRACE_MS = 1000;

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * SQLSTATE classes and codes that mean "the database cannot serve us now" rather than "this
 * query is wrong": connection exceptions (08), operator intervention (57: admin shutdown,
 * pg_terminate_backend, statement timeout, cannot connect now), insufficient resources (53),
 * and the session ended by idle_in_transaction_session_timeout (25P03).
 * @see https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
const UNAVAILABLE_SQLSTATE = /^(08|53|57)|^25P03$/;
/** Node socket errors of a dead or unreachable server. */
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
/** node-postgres and pg-pool raise these as plain Errors without a code. */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Client was closed and is not queryable)/;

/**
 * True when `error` says the database is unreachable, stalled or shutting connections down (a
 * reset, pg_terminate_backend, a timeout), as opposed to a fault of the query itself.
 */
export function isPostgresUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (isDatabaseDown(error)) return true;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message);
}

/**
 * Opens a PostgreSQL pool through Kysely's PostgresDialect. `int8` (our epoch-ms times) and
 * `numeric` are parsed as JS numbers, which is exact for every value we store.
 *
 * Faults: every client, idle or checked out, has an `error` listener, so a
 * reset connection or `pg_terminate_backend` never becomes an "Unhandled 'error' event"; connect,
 * statement and idle-in-transaction timeouts bound every wait; a client whose statement failed
 * for a connection reason is dropped from the pool instead of reused; and `isUnavailable` lets
 * the core answer such failures with DATABASE_UNAVAILABLE (503). New connections are opened on
 * demand, so service resumes by itself when the database is back.
 */
export function createPostgresAdapter(options: PostgresAdapterOptions): StorageAdapter {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid PostgreSQL schema name: ${schema}`);
  const connectTimeoutMs = options.connectTimeoutMs ?? POSTGRES_TIMEOUT_DEFAULTS.connectTimeoutMs;
  const statementTimeoutMs = options.statementTimeoutMs ?? POSTGRES_TIMEOUT_DEFAULTS.statementTimeoutMs;
  const idleInTransactionTimeoutMs = options.idleInTransactionTimeoutMs ?? POSTGRES_TIMEOUT_DEFAULTS.idleInTransactionTimeoutMs;
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
    connectionTimeoutMillis: connectTimeoutMs,
    // Start-up parameters: the server enforces these per session. 0 means no limit.
    statement_timeout: statementTimeoutMs,
    idle_in_transaction_session_timeout: idleInTransactionTimeoutMs,
    ...(statementTimeoutMs > 0 ? { query_timeout: statementTimeoutMs + READ_GRACE_MS } : {}),
    keepAlive: true,
  });
  // An idle client's network error must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // Nor may a checked-out client's: pg-pool removes its idle listener while a client is lent out,
  // and a connection that dies between two statements (no query to fail) emits 'error'.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });

  const health = { ...HEALTH_CHECK_DEFAULTS, ...options.healthCheck };
  const monitor = health.intervalMs > 0 ? createHealthMonitor(createPostgresProbe(options.connectionString), health) : undefined;
  /** `work`, released early with the down error when the monitor marks the database down. */
  const unlessDown = <T>(work: Promise<T>, dispose?: (value: T) => void) => (monitor ? monitor.race(work, dispose) : work);

  let ensured: Promise<void> | undefined;
  const ensureSchema = () =>
    (ensured ??= (async () => {
      if (schema === 'public') return;
      const client = await pool.connect();
      try {
        await client.query(`create schema if not exists "${schema}"`);
      } finally {
        client.release();
      }
    })().catch((error: unknown) => {
      ensured = undefined;
      throw error;
    }));

  /**
   * Lends a pool client to Kysely behind a guard: once a statement fails for a connection
   * reason, later statements on it fail at once with that error (Kysely's ROLLBACK does not wait
   * for a stalled socket), and release drops it from the pool. While the health monitor says the
   * database is down, lending fails at once; when it marks it down, waits for a client end and
   * the sockets of lent clients are destroyed, so statements in flight fail now rather than at
   * the statement timeout. A statement cut off this way may still have committed on the server:
   * the request answers an error, never a success it cannot vouch for.
   */
  const guardedPool: PostgresPool = {
    async connect() {
      monitor?.assertUp();
      await unlessDown(ensureSchema());
      const client = await unlessDown(pool.connect(), (late) => late.release());
      let broken: unknown;
      const stopWatching = monitor?.onDown((error) => {
        broken ??= error;
        destroyConnection(client);
      });
      const guarded: PostgresPoolClient = {
        // Kysely calls query(sql, parameters) only: we configure no cursor (streaming). Flags are
        // converted both ways here (adapters/boolean-columns.ts).
        query: (async (text: string, values?: readonly unknown[]) => {
          if (broken) throw broken;
          try {
            const parameters = values && toDriverParameters(values as unknown[]);
            // A precompiled query's statement is prepared once per connection under its name (no parse and plan per call).
            const name = preparedStatementName(text);
            const result = await (name ? client.query({ name, text, values: parameters }) : client.query(text, parameters));
            fromDriverRows(result.rows);
            return result;
          } catch (error) {
            if (!isPostgresUnavailable(error)) throw error;
            broken ??= error;
            throw broken;
          }
        }) as unknown as PostgresPoolClient['query'],
        release: () => {
          stopWatching?.();
          client.release(broken ? (broken as Error) : undefined);
        },
      };
      return guarded;
    },
    end: () => pool.end(),
  };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: guardedPool }) });
  return {
    dialect: 'postgres',
    db,
    schema,
    isUniqueViolation: (error) => typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505',
    isUnavailable: isPostgresUnavailable,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      monitor?.stop();
      await db.destroy();
    },
  };
}
