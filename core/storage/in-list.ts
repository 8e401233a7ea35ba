import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from './adapter.ts';

/**
 * A `column IN (values)` condition for any number of text values, bound as one parameter, for
 * `.where(inList(…))`: PostgreSQL `column = any($1::text[])`, SQLite `column in (select value
 * from json_each(?))`. The SQL text is the same whatever the number of values, so one statement
 * (and one prepared statement on SQLite) serves every look-up, instead of a chunk of `IN (?, …)`
 * per 500 values. Both use the column's index. An empty list matches nothing.
 *
 * @param column a column name, optionally qualified (`users.id`); written as an identifier.
 */
export function inList(dialect: Dialect, column: string, values: readonly string[]): RawBuilder<boolean> {
  return dialect === 'postgres'
    ? sql<boolean>`${sql.ref(column)} = any(${[...values]}::text[])`
    : sql<boolean>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(values)}))`;
}
