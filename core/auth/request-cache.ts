import { LRUCache } from 'lru-cache';
import type { Project } from '../projects/queries.ts';

/**
 * A short-lived cache of the two lookups every request makes before its operation runs: the
 * project (with its parsed config) and the validity of a project key.
 *
 * Consistency: this process clears the whole cache after every operation that may write (any
 * non-GET request), so its own changes are seen at once. Other processes sharing the database
 * see a project or key change within `ttlMs` (default 1 s). Entries age on the real monotonic
 * clock, not the injected one, so tests that move time do not keep stale entries alive.
 * Each of the two maps holds at most 10,000 entries, least recently used evicted first
 * (lru-cache, with its `ttl`).
 */
export interface RequestCache {
  project(id: string, load: () => Promise<Project | null>): Promise<Project | null>;
  /** Cached key lookup: the key's expiry (epoch ms, or null for none), or `false` when not valid. */
  key(cacheKey: string, load: () => Promise<{ expiresAt: number | null } | false>): Promise<{ expiresAt: number | null } | false>;
  clear(): void;
}

const MAX_ENTRIES = 10_000;

/** Creates a cache; `ttlMs` 0 disables it. */
export function createRequestCache(ttlMs = 1000): RequestCache {
  // Values are boxed: a missing project (null) and an invalid key (false) are cached answers too.
  const lru = <V>() => new LRUCache<string, { value: V }>({ max: MAX_ENTRIES, ttl: Math.max(ttlMs, 1) });
  const projects = lru<Project | null>();
  const keys = lru<{ expiresAt: number | null } | false>();
  async function cached<V>(cache: LRUCache<string, { value: V }>, k: string, load: () => Promise<V>): Promise<V> {
    if (ttlMs <= 0) return load();
    const hit = cache.get(k);
    if (hit) return hit.value;
    const value = await load();
    cache.set(k, { value });
    return value;
  }
  return {
    project: (id, load) => cached(projects, id, load),
    key: (k, load) => cached(keys, k, load),
    clear: () => { projects.clear(); keys.clear(); },
  };
}
