import pg from 'pg';
import type { HealthProbe } from '../../core/storage/health-monitor.ts';

/**
 * Closes a pg client's socket at once, failing its query in flight with "Connection terminated".
 * pg has no public destroy, and `end()` politely waits for a stalled network.
 */
export function destroyConnection(client: pg.ClientBase): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/**
 * The health monitor's probe for PostgreSQL: `select 1` on a connection of its own, outside the
 * pool, so probing never waits for (or takes) a pool slot. A stalled or failed connection is
 * destroyed at once (its socket, not a polite `end()` that would wait on the stalled network)
 * and the next attempt opens a new one.
 */
export function createPostgresProbe(connectionString: string): HealthProbe {
  let client: pg.Client | undefined;
  let connected: Promise<unknown> | undefined;
  const abandon = () => {
    if (client) destroyConnection(client);
    client = undefined;
    connected = undefined;
  };
  return {
    async attempt() {
      if (!client) {
        const fresh = new pg.Client({ connectionString, keepAlive: true });
        // The probe alone never keeps the process alive (a tool or test that forgot close()).
        (fresh as unknown as { connection?: { stream?: { unref?(): void } } }).connection?.stream?.unref?.();
        // A network error on an idle probe connection must not crash the process.
        fresh.on('error', () => {
          if (client === fresh) abandon();
        });
        fresh.on('end', () => {
          if (client === fresh) abandon();
        });
        client = fresh;
        connected = fresh.connect();
      }
      const current = client;
      await connected;
      await current.query('select 1');
    },
    abandon,
    close: abandon,
  };
}
