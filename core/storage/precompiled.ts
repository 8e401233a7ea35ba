import type { Compilable, CompiledQuery, DialectAdapter, Kysely } from 'kysely';
import type { Database } from './tables.ts';
import { isObservingPlugin } from './observing-plugins.ts';

/** A value a precompiled query may take as an argument: one bound parameter, never a list. */
export type PrecompiledArg = string | number | bigint | boolean | null;

/** The named arguments of a precompiled query. */
export type PrecompiledArgs = Record<string, PrecompiledArg>;

/** A query built and compiled once per dialect, then run with new argument values. */
export interface PrecompiledQuery<A extends PrecompiledArgs, R> {
  /** Runs the query on `db` (the root instance or a transaction) and returns every row. */
  execute(db: Kysely<Database>, args: A): Promise<R[]>;
  /** Runs the query on `db` and returns the first row, or undefined (no `limit` is added). */
  executeTakeFirst(db: Kysely<Database>, args: A): Promise<R | undefined>;
}

/** Where one bound parameter of the compiled SQL comes from: a named argument or a constant. */
type Slot = { arg: string } | { value: unknown };

/** A compiled query whose parameters are yet to be filled in from the slots. */
interface Template extends Omit<CompiledQuery, 'parameters'> {
  readonly slots: readonly Slot[];
}

/** The SQL text of every precompiled query compiled in this process, with its prepared-statement name (see {@link preparedStatementName}). */
const statementNames = new Map<string, string>();

/**
 * The name under which a driver may keep `sql` prepared on each connection (node-postgres
 * `{ name, text, values }`: parsed and planned once per connection, then only bound and run), when
 * `sql` is the text of a precompiled query; undefined for any other statement. Names are unique per
 * text within the process (`gh_pq_<n>`, under PostgreSQL's 63-byte limit).
 */
export function preparedStatementName(sql: string): string | undefined {
  return statementNames.get(sql);
}

/** Private-use code point around each placeholder: never in our SQL, never a NUL for drivers. */
const MARK = '\u{E000}';
let nextSentinel = 0;

/**
 * Makes a query whose Kysely building and compiling happen once per dialect instead of on every
 * call (15–18 % of the CPU of `GET /users/me` went to rebuilding a few fixed queries).
 *
 * `build` receives the database and a stand-in for the arguments: each property read gives a
 * unique placeholder string (`\u{E000}gh-param-N\u{E000}`) that the builder must use as a plain
 * value, exactly once. After compiling, every bound parameter that is a placeholder becomes a slot
 * for that named argument; the other parameters (constants written in the builder) are kept. Each
 * later call only copies the caller's values into a fresh parameter list and runs the stored SQL
 * through `db.executeQuery`, so a transaction's connection is used when `db` is a transaction.
 *
 * The compiled template is cached per Kysely dialect adapter (`db.getExecutor().adapter`), which
 * a Kysely instance shares with its transactions (Kysely 0.28 `withConnectionProvider` keeps it):
 * SQLite's `?` and PostgreSQL's `$1` each get their own template, and every database opened in
 * one process (tests open many) compiles its own once.
 *
 * Rules for `build`, checked where they can be: it must not branch on argument values (they are
 * placeholders while building); it must pass each argument it reads as one bound value, so a value
 * needed twice takes two names; arguments are scalars (no arrays for `in`, no `sql.lit` or
 * `sql.raw` of an argument). A placeholder bound zero or several times, or found in the SQL text,
 * throws on the first call, so a misuse fails in any test that runs the query.
 *
 * Kysely plugins: a plugin that only observes queries (core/storage/observing-plugins.ts, such
 * as the request cache's write watch on the runtime's database) is shown the template's query
 * node on every call and changes nothing; on an instance with any other plugin every call builds
 * and compiles the query anew through the plugins instead. `transformResult` runs either way
 * (inside `executeQuery`).
 *
 * @throws Error on the first call on a dialect when `build` breaks the rules above.
 */
export function precompiled<A extends PrecompiledArgs, R>(build: (db: Kysely<Database>, args: A) => Compilable<R>): PrecompiledQuery<A, R> {
  const templates = new WeakMap<DialectAdapter, Template>();

  function compiled(db: Kysely<Database>, args: A): CompiledQuery<R> {
    const executor = db.getExecutor();
    const plugins = executor.plugins;
    if (plugins.length > 0 && !plugins.every(isObservingPlugin)) return build(db, args).compile();
    let template = templates.get(executor.adapter);
    if (!template) {
      // Compiling runs the plugins' transformQuery once, with the placeholders.
      template = compileTemplate(db, build);
      templates.set(executor.adapter, template);
    } else {
      // Observing plugins (the request cache's write watch) still see every query that runs.
      for (const plugin of plugins) plugin.transformQuery({ node: template.query, queryId: template.queryId });
    }
    const parameters = new Array<unknown>(template.slots.length);
    for (let i = 0; i < parameters.length; i++) {
      const slot = template.slots[i]!;
      parameters[i] = 'arg' in slot ? args[slot.arg] : slot.value;
    }
    return { query: template.query, queryId: template.queryId, sql: template.sql, parameters };
  }

  return {
    async execute(db, args) {
      return (await db.executeQuery(compiled(db, args))).rows;
    },
    async executeTakeFirst(db, args) {
      return (await db.executeQuery(compiled(db, args))).rows[0];
    },
  };
}

/** Builds and compiles `build`'s query with placeholders, and maps its parameters to slots. */
function compileTemplate<A extends PrecompiledArgs, R>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>, args: A) => Compilable<R>,
): Template {
  const sentinels = new Map<string, string>();
  const args = new Proxy({} as A, {
    get(_target, key) {
      if (typeof key !== 'string') return undefined;
      let sentinel = sentinels.get(key);
      if (sentinel === undefined) {
        sentinel = `${MARK}gh-param-${nextSentinel++}${MARK}`;
        sentinels.set(key, sentinel);
      }
      return sentinel;
    },
  });
  const { query, queryId, sql, parameters } = build(db, args).compile();
  if (sql.includes(MARK)) throw new Error(`precompiled query: an argument was written into the SQL text instead of bound (${sql})`);
  const names = new Map([...sentinels].map(([name, sentinel]) => [sentinel, name]));
  const uses = new Map<string, number>();
  const slots = parameters.map((value): Slot => {
    const name = typeof value === 'string' ? names.get(value) : undefined;
    if (name === undefined) {
      if (typeof value === 'string' && value.includes(MARK))
        throw new Error(`precompiled query: an argument was altered or concatenated before binding (${sql})`);
      return { value };
    }
    uses.set(name, (uses.get(name) ?? 0) + 1);
    return { arg: name };
  });
  for (const name of sentinels.keys()) {
    const count = uses.get(name) ?? 0;
    if (count !== 1) throw new Error(`precompiled query: argument "${name}" is bound ${count} times, expected exactly once (${sql})`);
  }
  if (!statementNames.has(sql)) statementNames.set(sql, `gh_pq_${statementNames.size}`);
  return { query, queryId, sql, slots };
}
