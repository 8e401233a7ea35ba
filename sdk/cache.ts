import type { SdkEnvironment } from './env.ts';

/** Entries are dropped this long after their last subscriber leaves (upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/stack-shared/src/schema-fields.ts): 5000 ms. */
export const CACHE_UNSUBSCRIBE_DELAY_MS = 5000;
/** Refetches of one entry are throttled to one at a time, at most every 300 ms. */
export const CACHE_REFETCH_THROTTLE_MS = 300;

/** A cache entry's state, as hooks read it. */
export type CacheState<T> =
  | { status: 'pending'; promise: Promise<T> }
  | { status: 'ok'; value: T; promise: Promise<T> }
  | { status: 'error'; error: unknown; promise: Promise<T> };

interface Entry<T> {
  state: CacheState<T>;
  listeners: Set<() => void>;
  dropTimer: (() => void) | null;
  refetching: Promise<T> | null;
  followUp: Promise<T> | null;
  /** Set when the session changed: readers wait for `fresh` instead of the old value. */
  fresh: Promise<T | undefined> | null;
  lastFetchStart: number;
}

/**
 * A keyed async cache (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/packages/template/src/lib/stack-app/ "Client caching"): the first read fetches; concurrent
 * reads share it; subscribers are told of changes; an entry with no subscribers is dropped 5 s
 * later; refetches run one at a time per entry, at most one per 300 ms, and calls that arrive
 * while one runs collapse into a single follow-up.
 */
export class AsyncCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  private readonly fetcher: (key: string) => Promise<T>;
  private readonly env: Pick<SdkEnvironment, 'now' | 'sleep' | 'setTimer'>;

  constructor(fetcher: (key: string) => Promise<T>, env: Pick<SdkEnvironment, 'now' | 'sleep' | 'setTimer'>) {
    this.fetcher = fetcher;
    this.env = env;
  }

  private start(entry: Entry<T>, key: string): Promise<T> {
    entry.lastFetchStart = this.env.now();
    const promise = this.fetcher(key);
    promise.catch(() => {
      /* surfaced through the state */
    });
    return promise;
  }

  private entry(key: string): Entry<T> {
    let entry = this.entries.get(key);
    if (!entry) {
      const created: Entry<T> = {
        state: undefined as never,
        listeners: new Set(),
        dropTimer: null,
        refetching: null,
        followUp: null,
        fresh: null,
        lastFetchStart: 0,
      };
      const promise = this.start(created, key);
      created.state = { status: 'pending', promise };
      this.settle(key, created, promise);
      this.entries.set(key, created);
      this.scheduleDrop(key, created);
      entry = created;
    }
    return entry;
  }

  private settle(key: string, entry: Entry<T>, promise: Promise<T>): void {
    promise.then(
      (value) => {
        if (this.entries.get(key) === entry || entry.state.promise === promise) {
          entry.state = { status: 'ok', value, promise: Promise.resolve(value) };
          entry.listeners.forEach((l) => l());
        }
      },
      (error: unknown) => {
        if (entry.state.promise === promise || entry.state.status !== 'ok') {
          const rejected = Promise.reject(error);
          rejected.catch(() => {});
          entry.state = { status: 'error', error, promise: rejected };
          entry.listeners.forEach((l) => l());
        }
      },
    );
  }

  private scheduleDrop(key: string, entry: Entry<T>): void {
    entry.dropTimer?.();
    entry.dropTimer = this.env.setTimer(() => {
      if (entry.listeners.size === 0 && this.entries.get(key) === entry) this.entries.delete(key);
    }, CACHE_UNSUBSCRIBE_DELAY_MS);
  }

  /**
   * Holds `value` for `key` without fetching, when the key is not held yet (a value the page
   * already carries, such as the project's public settings the hosted pages' HTML inlines); it
   * is dropped, refreshed and invalidated like a fetched one.
   */
  prime(key: string, value: T): void {
    if (this.entries.has(key)) return;
    const entry: Entry<T> = {
      state: { status: 'ok', value, promise: Promise.resolve(value) },
      listeners: new Set(),
      dropTimer: null,
      refetching: null,
      followUp: null,
      fresh: null,
      lastFetchStart: this.env.now(),
    };
    this.entries.set(key, entry);
    this.scheduleDrop(key, entry);
  }

  /** The entry's state, creating (and fetching) it if absent. */
  getState(key: string): CacheState<T> {
    return this.entry(key).state;
  }

  /** Resolves with the value (fetching once if needed; after a session change, the new value). */
  get(key: string): Promise<T> {
    const entry = this.entry(key);
    if (entry.fresh) return entry.fresh.then(() => entry.state.promise);
    return entry.state.promise;
  }

  /** True when the key is held (for tests and diagnostics). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Subscribes to changes of `key`; the returned function unsubscribes (drop 5 s after the last). */
  subscribe(key: string, listener: () => void): () => void {
    const entry = this.entry(key);
    entry.listeners.add(listener);
    entry.dropTimer?.();
    entry.dropTimer = null;
    return () => {
      entry.listeners.delete(listener);
      if (entry.listeners.size === 0) this.scheduleDrop(key, entry);
    };
  }

  /** Replaces the value directly (after a mutation that returned it). */
  set(key: string, value: T): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.state = { status: 'ok', value, promise: Promise.resolve(value) };
    entry.listeners.forEach((l) => l());
  }

  /**
   * Refetches `key` (concurrency 1, throttled to 300 ms). Resolves with the new value; callers
   * arriving while a refetch runs share one follow-up refetch. Absent keys are not fetched.
   */
  refresh(key: string): Promise<T | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return Promise.resolve(undefined);
    if (entry.refetching) {
      entry.followUp ??= entry.refetching
        .catch(() => undefined)
        .then(() => {
          entry.followUp = null;
          return this.runRefetch(key, entry);
        });
      return entry.followUp;
    }
    return this.runRefetch(key, entry);
  }

  private runRefetch(key: string, entry: Entry<T>): Promise<T> {
    let run!: Promise<T>;
    run = (async () => {
      const wait = entry.lastFetchStart + CACHE_REFETCH_THROTTLE_MS - this.env.now();
      if (wait > 0) await this.env.sleep(wait);
      const promise = this.start(entry, key);
      try {
        const value = await promise;
        entry.state = { status: 'ok', value, promise: Promise.resolve(value) };
        entry.listeners.forEach((l) => l());
        return value;
      } catch (error) {
        // A failed background refetch keeps the value readers already show (a form being
        // edited must not be replaced by an error); only the caller of refresh sees the error.
        if (entry.state.status !== 'ok') {
          const rejected = Promise.reject(error);
          rejected.catch(() => {});
          entry.state = { status: 'error', error, promise: rejected };
          entry.listeners.forEach((l) => l());
        }
        throw error;
      } finally {
        if (entry.refetching === run) entry.refetching = null;
      }
    })();
    entry.refetching = run;
    return run;
  }

  /**
   * After a sign-in or sign-out: drops entries nobody watches, and refetches watched ones while
   * they keep showing the old value (so mounted components re-render instead of suspending);
   * `get` waits for the new value.
   */
  invalidateAll(): void {
    for (const [key, entry] of [...this.entries]) {
      if (entry.listeners.size === 0) {
        entry.dropTimer?.();
        this.entries.delete(key);
        continue;
      }
      const fresh = this.refresh(key)
        .catch(() => undefined)
        .finally(() => {
          if (entry.fresh === fresh) entry.fresh = null;
        });
      entry.fresh = fresh;
    }
  }

  /** Drops every entry. */
  clear(): void {
    for (const entry of this.entries.values()) entry.dropTimer?.();
    this.entries.clear();
  }

  /** Refetches every held entry. */
  async refreshAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((k) => this.refresh(k).catch(() => undefined)));
  }
}
