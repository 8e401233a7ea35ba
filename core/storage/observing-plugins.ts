import type { KyselyPlugin } from 'kysely';

const observing = new WeakSet<KyselyPlugin>();

/**
 * Marks `plugin` as one that only looks at queries: its `transformQuery` returns the node it is
 * given and its `transformResult` the result (core/auth/cached-table-writes.ts). Precompiled
 * queries (core/storage/precompiled.ts) keep their compiled SQL on an instance whose plugins
 * are all observing, and show each of them the query node on every run; any other plugin makes
 * them build and compile through it on every call.
 *
 * @returns `plugin` itself.
 */
export function observingPlugin<P extends KyselyPlugin>(plugin: P): P {
  observing.add(plugin);
  return plugin;
}

/** Whether `plugin` was marked with {@link observingPlugin}. */
export function isObservingPlugin(plugin: KyselyPlugin): boolean {
  return observing.has(plugin);
}
