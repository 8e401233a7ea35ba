import { join, resolve } from 'node:path';
import type { StorageAdapter } from '../core/index.ts';
import { createSqliteAdapter } from '../adapters/sqlite/index.ts';
import { createPostgresAdapter } from '../adapters/postgres/index.ts';
import type { DatabaseTimeouts } from './config.ts';

/**
 * Opens the storage a database URL names: `postgres://` / `postgresql://` → PostgreSQL;
 * `sqlite:<path>` or `file:<path>` → that SQLite file; none → `<dataDir>/gatehouse.db`.
 * `timeouts` bound waits on the database (unset: the adapters' defaults).
 */
export function openStorage(
  databaseUrl: string | undefined,
  dataDir: string,
  nativeBinding?: unknown,
  timeouts: DatabaseTimeouts = {},
): StorageAdapter {
  const { busyTimeoutMs, healthIntervalMs, healthDeadlineMs, ...postgresTimeouts } = timeouts;
  const healthCheck = {
    ...(healthIntervalMs !== undefined ? { intervalMs: healthIntervalMs } : {}),
    ...(healthDeadlineMs !== undefined ? { deadlineMs: healthDeadlineMs } : {}),
  };
  if (!databaseUrl)
    return createSqliteAdapter({ filename: join(resolve(dataDir), 'gatehouse.db'), nativeBinding, busyTimeoutMs, healthCheck });
  if (/^postgres(ql)?:\/\//.test(databaseUrl))
    return createPostgresAdapter({ connectionString: databaseUrl, ...postgresTimeouts, healthCheck });
  const m = /^(?:sqlite|file):(.+)$/.exec(databaseUrl);
  if (m) return createSqliteAdapter({ filename: resolve(m[1]!), nativeBinding, busyTimeoutMs, healthCheck });
  throw new Error(
    `Unsupported database URL "${databaseUrl}": use postgres://…, sqlite:<path>, or leave it unset for SQLite in the data dir.`,
  );
}
