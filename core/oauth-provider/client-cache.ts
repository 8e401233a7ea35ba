import { LRUCache } from 'lru-cache';

/**
 * Clients as the provider reads them (client-record.ts clientForProvider), by project and id, for
 * one second: the token endpoint authenticates the client on every grant, and this saves its
 * query, JSON parse and secret unsealing each time. A change made in this process (admin API,
 * dynamic registration: every writer goes through queries.ts upsertClientRow / deleteClientRow)
 * forgets them all at once; other processes see it within the second, as with project keys
 * (core/auth/request-cache.ts). At most 2,000 clients, least recently used out.
 */
const clients = new LRUCache<string, { value: Record<string, unknown> | null }>({ max: 2000, ttl: 1000 });
let generation = 0;

/** The client `clientId` of `projectId` from the cache, else from `load` (null: no such client, cached too). */
export async function cachedClient(
  projectId: string,
  clientId: string,
  load: () => Promise<Record<string, unknown> | null>,
): Promise<Record<string, unknown> | null> {
  const key = `${projectId}\n${clientId}`;
  const hit = clients.get(key);
  if (hit) return hit.value && { ...hit.value };
  const loadedIn = generation;
  const value = await load();
  // A write during the load may have changed the client: keep nothing read before it.
  if (loadedIn === generation) clients.set(key, { value });
  return value && { ...value };
}

/** Forgets every cached client (a client was written or removed in this process). */
export function forgetCachedClients(): void {
  generation++;
  clients.clear();
}
