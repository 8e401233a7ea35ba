import { LRUCache } from 'lru-cache';
import type { Project } from './subjects.ts';
import type { Database } from '../storage/tables.ts';

/**
 * The tables the cached lookups read: `findProject` (projects) and `findProjectKeyExpiry`
 * (internal_api_keys). A write to any of them must invalidate the cache; the runtime's database
 * counts such writes (core/auth/cached-table-writes.ts). Add a table here when a cached lookup
 * starts reading it.
 */
export const REQUEST_CACHE_TABLES: ReadonlySet<keyof Database & string> = new Set(['projects', 'internal_api_keys']);

/**
 * A short-lived cache of the two lookups every request makes before its operation runs: the
 * project (with its parsed config) and the validity of a project key.
 *
 * Consistency (read-your-writes within the process): the runtime's database counts every write
 * to {@link REQUEST_CACHE_TABLES} (`noteWrite`), and each operation clears the cache when it ends
 * if that count moved while it ran (its own write, or one it overlapped, now committed), and
 * when it starts if the count moved since the last clear (a write made outside any operation;
 * one still uncommitted when the next operation starts falls back to the `ttlMs` bound). A load
 * that straddles a clear is not stored, so a value read before a commit never outlives the clear
 * that follows it. Other processes sharing the database see a project or key change
 * within `ttlMs` (default 1 s). Entries age on the real monotonic clock, not the injected one,
 * so tests that move time do not keep stale entries alive. Each of the two maps holds at most
 * 10,000 entries, least recently used evicted first (lru-cache, with its `ttl`).
 */
export interface RequestCache {
  project(id: string, load: () => Promise<Project | null>): Promise<Project | null>;
  /** Cached key lookup: the key's expiry (epoch ms, or null for none), or `false` when not valid. */
  key(cacheKey: string, load: () => Promise<{ expiresAt: number | null } | false>): Promise<{ expiresAt: number | null } | false>;
  /** Forgets every entry, in O(1): entries of an older generation read as misses. */
  clear(): void;
  /** How many writes to the cached tables this process has issued so far (a mark to compare later). */
  writes(): number;
  /** Counts one write to a cached table (called by the runtime database's plugin, before the write runs). */
  noteWrite(): void;
  /** Clears the cache when writes were noted since the last clear (O(1) otherwise). */
  clearIfWrittenSinceLastClear(): void;
}

const MAX_ENTRIES = 10_000;

/** Creates a cache; `ttlMs` 0 disables it. */
export function createRequestCache(ttlMs = 1000): RequestCache {
  // Values are boxed: a missing project (null) and an invalid key (false) are cached answers too.
  // `generation` is the cache generation the value was loaded in; clear() starts a new one.
  type Entry<V> = { value: V; generation: number };
  const lru = <V>() => new LRUCache<string, Entry<V>>({ max: MAX_ENTRIES, ttl: Math.max(ttlMs, 1) });
  const projects = lru<Project | null>();
  const keys = lru<{ expiresAt: number | null } | false>();
  let generation = 0;
  let writes = 0;
  let writesAtLastClear = 0;
  async function cached<V>(cache: LRUCache<string, Entry<V>>, k: string, load: () => Promise<V>): Promise<V> {
    if (ttlMs <= 0) return load();
    const hit = cache.get(k);
    if (hit && hit.generation === generation) return hit.value;
    const loadedIn = generation;
    const value = await load();
    // A clear during the load may mean the value was read before a write committed: do not keep it.
    if (loadedIn === generation) cache.set(k, { value, generation: loadedIn });
    return value;
  }
  function clear(): void {
    generation++;
    writesAtLastClear = writes;
  }
  return {
    project: (id, load) => cached(projects, id, load),
    key: (k, load) => cached(keys, k, load),
    clear,
    writes: () => writes,
    noteWrite: () => {
      writes++;
    },
    clearIfWrittenSinceLastClear: () => {
      if (writes !== writesAtLastClear) clear();
    },
  };
}
