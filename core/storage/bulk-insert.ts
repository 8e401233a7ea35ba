import { CompiledQuery, type Insertable, type Kysely } from 'kysely';
import type { Dialect } from './adapter.ts';
import type { Database } from './tables.ts';
import { isObservingPlugin } from './observing-plugins.ts';

/** Rows per multi-row INSERT on SQLite: 400 × 25 columns stays within its 32,766 bound parameters. */
const SQLITE_ROWS_PER_INSERT = 400;

/** SQL texts of SQLite's multi-row inserts, by table, columns and row count (a few shapes per import). */
const sqliteTexts = new Map<string, string>();
const SQLITE_TEXTS_MAX = 64;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Inserts `rows` into `table` on `db` (the database or a transaction) in as few statements as the
 * dialect allows, without building a Kysely query per row (for bulk writes: 5,000 users of an
 * import cost Kysely about 3–4 % of the server's CPU in node objects and their garbage).
 *
 * - PostgreSQL: one statement for all rows, `insert into t (…) select … from
 *   json_populate_recordset(null::t, $1::json)`: the rows travel as one JSON parameter and
 *   PostgreSQL converts each field to its column's type; one round trip, one short statement to
 *   parse, whatever the number of rows.
 * - SQLite: multi-row `insert … values (?, …), …` of SQLITE_ROWS_PER_INSERT rows, the SQL text
 *   kept per shape so the adapter's statement cache prepares it once; the last rows go one
 *   statement of their own (one more shape).
 *
 * The columns are those of the first row; every row must have the same keys (a missing key is
 * written NULL, not the column's default). Flags (`true`/`false`) are written 1/0 as every flag
 * is stored (adapters/boolean-columns.ts). The table-write plugins that only observe queries
 * (core/storage/observing-plugins.ts: the request cache's write watch) see every statement; on an
 * instance with any other plugin the rows go through Kysely's ordinary insert instead.
 */
export async function insertMany<T extends keyof Database & string>(
  db: Kysely<Database>,
  dialect: Dialect,
  table: T,
  rows: ReadonlyArray<Insertable<Database[T]>>,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const plugins = db.getExecutor().plugins;
  if (!plugins.every(isObservingPlugin)) {
    // Kysely's insert types do not follow a generic table name; the rows are typed by the callers.
    for (let i = 0; i < rows.length; i += SQLITE_ROWS_PER_INSERT)
      await db
        .insertInto(table)
        .values(rows.slice(i, i + SQLITE_ROWS_PER_INSERT) as never)
        .execute();
    return;
  }
  const run = async (text: string, parameters: unknown[]) => {
    const compiled = CompiledQuery.raw(text, parameters);
    for (const plugin of plugins) plugin.transformQuery({ node: compiled.query, queryId: compiled.queryId });
    await db.executeQuery(compiled);
  };
  const list = columns.map(quote).join(', ');
  if (dialect === 'postgres') {
    const json = JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'boolean' ? Number(value) : value));
    await run(`insert into ${quote(table)} (${list}) select ${list} from json_populate_recordset(null::${quote(table)}, $1::json)`, [json]);
    return;
  }
  for (let i = 0; i < rows.length; i += SQLITE_ROWS_PER_INSERT) {
    const chunk = rows.slice(i, i + SQLITE_ROWS_PER_INSERT);
    const parameters: unknown[] = [];
    for (const row of chunk) for (const column of columns) parameters.push((row as Record<string, unknown>)[column] ?? null);
    await run(sqliteInsertText(table, columns, list, chunk.length), parameters);
  }
}

/** The multi-row insert text for `count` rows of `columns` (cached: the statement cache keys on it). */
function sqliteInsertText(table: string, columns: readonly string[], list: string, count: number): string {
  const key = `${table}\0${list}\0${count}`;
  let text = sqliteTexts.get(key);
  if (text === undefined) {
    const row = `(${columns.map(() => '?').join(', ')})`;
    text = `insert into ${quote(table)} (${list}) values ${Array.from({ length: count }, () => row).join(', ')}`;
    if (sqliteTexts.size >= SQLITE_TEXTS_MAX) sqliteTexts.delete(sqliteTexts.keys().next().value!);
    sqliteTexts.set(key, text);
  }
  return text;
}
