import { sql, type Kysely } from 'kysely';
import { migrateToLatest, migrations, type StorageAdapter } from '../core/index.ts';

/**
 * Tables never copied: the migrator's own (the target gets its own by migrating), and SQLite's
 * user-search index, which triggers on `users` fill as the users are written (migration 0017; on
 * PostgreSQL the index is a trigram index on `users` itself).
 */
const NOT_COPIED = new Set(['gatehouse_migrations', 'gatehouse_migrations_lock', 'users_search_keys']);

/** Most bound parameters in one INSERT (SQLite allows 32,766; PostgreSQL 65,535). */
const PARAMETERS_PER_INSERT = 30_000;
/** Rows read from the source per page. */
const ROWS_PER_PAGE = 2_000;

/** One table as the catalog describes it. */
export interface TableShape {
  name: string;
  /** Columns in their declared order. */
  columns: string[];
  /** Primary-key columns in key order (empty for a table without one). */
  primaryKey: string[];
  /** Tables this one references with a foreign key (itself excluded). */
  references: string[];
}

/** Progress of a copy, reported after each page written. */
export interface CopyProgress {
  table: string;
  /** Rows of `table` written so far. */
  rows: number;
  /** Rows of `table` in the source. */
  tableRows: number;
  /** Rows written so far across every table. */
  copied: number;
  /** Rows in the source across every table. */
  total: number;
}

/** What a finished copy did: rows per table, equal in source and target. */
export interface CopyResult {
  tables: { name: string; rows: number }[];
  rows: number;
}

/** A refusal the operator can act on (non-empty target, out-of-date source, count mismatch). */
export class DatabaseCopyError extends Error {
  override name = 'DatabaseCopyError';
  /** True when the refusal came after the target was written to (migrated or partly filled). */
  readonly targetWritten: boolean;
  constructor(message: string, targetWritten = false) {
    super(message);
    this.targetWritten = targetWritten;
  }
}

// Storage's Kysely instance is typed with Gatehouse's tables; catalog and copy queries name
// tables only known at run time.
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;
const anyDb = (adapter: StorageAdapter) => adapter.db as unknown as AnyDb;

/**
 * Names of the base tables in the adapter's schema (SQLite: the file), sorted. SQLite's virtual
 * tables (the full-text index) and their shadow tables `<name>_<part>` are derived data, not listed.
 */
async function tableNames(adapter: StorageAdapter): Promise<string[]> {
  const db = anyDb(adapter);
  if (adapter.dialect === 'sqlite') {
    const all = (
      await sql<{
        name: string;
        sql: string | null;
      }>`select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
    ).rows;
    const virtual = all.filter((t) => /^\s*create\s+virtual\s+table/i.test(t.sql ?? '')).map((t) => t.name);
    return all
      .map((t) => t.name)
      .filter((name) => !virtual.some((v) => name === v || name.startsWith(`${v}_`)))
      .sort();
  }
  const rows = (
    await sql<{ name: string }>`select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
  ).rows;
  return rows.map((r) => r.name).sort();
}

/** Reads each table's columns, primary key and foreign-key parents from the catalog. */
export async function describeTables(adapter: StorageAdapter, names: string[]): Promise<TableShape[]> {
  const db = anyDb(adapter);
  const shapes: TableShape[] = [];
  for (const name of names) {
    if (adapter.dialect === 'sqlite') {
      const info = (await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${name}) order by cid`.execute(db)).rows;
      const fks = (await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(db)).rows;
      shapes.push({
        name,
        columns: info.map((c) => c.name),
        primaryKey: info
          .filter((c) => Number(c.pk) > 0)
          .sort((a, b) => Number(a.pk) - Number(b.pk))
          .map((c) => c.name),
        references: [...new Set(fks.map((f) => f.table))].filter((t) => t !== name),
      });
      continue;
    }
    const columns = (
      await sql<{ name: string }>`select column_name as name from information_schema.columns
        where table_schema = current_schema() and table_name = ${name} order by ordinal_position`.execute(db)
    ).rows;
    const primaryKey = (
      await sql<{ name: string }>`select a.attname as name
        from pg_index i
        join pg_class c on c.oid = i.indrelid
        join pg_namespace n on n.oid = c.relnamespace
        cross join lateral unnest(i.indkey) with ordinality as k(attnum, position)
        join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
        where i.indisprimary and c.relname = ${name} and n.nspname = current_schema()
        order by k.position`.execute(db)
    ).rows;
    const parents = (
      await sql<{ name: string }>`select distinct p.relname as name
        from pg_constraint f
        join pg_class c on c.oid = f.conrelid
        join pg_class p on p.oid = f.confrelid
        join pg_namespace n on n.oid = c.relnamespace
        where f.contype = 'f' and c.relname = ${name} and n.nspname = current_schema()`.execute(db)
    ).rows;
    shapes.push({
      name,
      columns: columns.map((c) => c.name),
      primaryKey: primaryKey.map((c) => c.name),
      references: parents.map((p) => p.name).filter((t) => t !== name),
    });
  }
  return shapes;
}

/**
 * Orders tables so each comes after the tables it references (Kahn's algorithm; ties by name).
 *
 * @throws DatabaseCopyError on a reference cycle between tables.
 */
export function parentsFirst(shapes: TableShape[]): TableShape[] {
  const byName = new Map(shapes.map((s) => [s.name, s]));
  const done = new Set<string>();
  const ordered: TableShape[] = [];
  while (ordered.length < shapes.length) {
    const ready = shapes.filter((s) => !done.has(s.name) && s.references.every((r) => done.has(r) || !byName.has(r)));
    if (ready.length === 0)
      throw new DatabaseCopyError(
        `Foreign keys form a cycle among: ${shapes
          .filter((s) => !done.has(s.name))
          .map((s) => s.name)
          .join(', ')}`,
      );
    for (const s of ready) {
      done.add(s.name);
      ordered.push(s);
    }
  }
  return ordered;
}

async function countRows(adapter: StorageAdapter, table: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(anyDb(adapter));
  return Number(rows[0]!.n);
}

/** Names of the migrations a database has run (none when it has no migrator table). */
async function appliedMigrations(adapter: StorageAdapter, tables: string[]): Promise<string[]> {
  if (!tables.includes('gatehouse_migrations')) return [];
  const { rows } = await sql<{ name: string }>`select name from gatehouse_migrations`.execute(anyDb(adapter));
  return rows.map((r) => r.name);
}

/**
 * Pages through a table in primary-key order (keyset: `(k1, k2) > (v1, v2)`), or by offset in
 * column order for a table without a key, yielding arrays of rows.
 */
async function* pages(adapter: StorageAdapter, shape: TableShape): AsyncGenerator<Record<string, unknown>[]> {
  const db = anyDb(adapter);
  const key = shape.primaryKey.length > 0 ? shape.primaryKey : shape.columns;
  const order = sql.join(key.map((c) => sql.ref(c)));
  let after: unknown[] | null = null;
  let offset = 0;
  for (;;) {
    let query: ReturnType<typeof sql<Record<string, unknown>>>;
    if (shape.primaryKey.length === 0)
      query = sql<
        Record<string, unknown>
      >`select * from ${sql.table(shape.name)} order by ${order} limit ${ROWS_PER_PAGE} offset ${offset}`;
    else if (after === null)
      query = sql<Record<string, unknown>>`select * from ${sql.table(shape.name)} order by ${order} limit ${ROWS_PER_PAGE}`;
    else
      query = sql<
        Record<string, unknown>
      >`select * from ${sql.table(shape.name)} where (${order}) > (${sql.join(after)}) order by ${order} limit ${ROWS_PER_PAGE}`;
    const rows: Record<string, unknown>[] = (await query.execute(db)).rows;
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < ROWS_PER_PAGE) return;
    offset += rows.length;
    const last: Record<string, unknown> = rows[rows.length - 1]!;
    after = key.map((c) => last[c]);
  }
}

/** Writes rows with multi-row INSERTs sized under the dialects' parameter limits. */
async function insertRows(db: AnyDb, shape: TableShape, rows: Record<string, unknown>[]): Promise<void> {
  const perInsert = Math.max(1, Math.floor(PARAMETERS_PER_INSERT / shape.columns.length));
  for (let i = 0; i < rows.length; i += perInsert) {
    const chunk = rows.slice(i, i + perInsert).map((row) => {
      const values: Record<string, unknown> = {};
      for (const c of shape.columns) values[c] = row[c] ?? null;
      return values;
    });
    await db.insertInto(shape.name).values(chunk).execute();
  }
}

/**
 * Copies a whole Gatehouse database (every project, table and sealed secret, as stored) from
 * `source` to `target`, which may be of either dialect. The target is migrated to the same
 * migrations first; the source is only read. Each table is written in one transaction after the
 * tables it references, and the copy ends by comparing every table's row count.
 *
 * Sealed secrets stay sealed under the same server secret: run the target with the source's
 * `GATEHOUSE_SECRET` (docs/operations.md, "Moving to PostgreSQL").
 *
 * @throws DatabaseCopyError when the target holds any table, the source has not run every
 *   migration this version knows (or ran one it does not), or a count differs after the copy.
 */
export async function copyDatabase(
  source: StorageAdapter,
  target: StorageAdapter,
  onProgress: (progress: CopyProgress) => void = () => {},
): Promise<CopyResult> {
  const targetTables = await tableNames(target);
  if (targetTables.length > 0)
    throw new DatabaseCopyError(
      `The target is not empty (it has ${targetTables.length} table${targetTables.length === 1 ? '' : 's'}, e.g. ${targetTables[0]}); copy into a new database.`,
    );
  const sourceTables = await tableNames(source);
  const applied = new Set(await appliedMigrations(source, sourceTables));
  const known = Object.keys(migrations);
  const missing = known.filter((m) => !applied.has(m));
  const unknown = [...applied].filter((m) => !known.includes(m));
  if (applied.size === 0) throw new DatabaseCopyError('The source is not a Gatehouse database (no gatehouse_migrations table).');
  if (unknown.length > 0)
    throw new DatabaseCopyError(`The source was written by a newer Gatehouse (migration ${unknown[0]}); copy with that version.`);
  if (missing.length > 0)
    throw new DatabaseCopyError(
      `The source has not run migration ${missing[0]}${missing.length > 1 ? ` and ${missing.length - 1} more` : ''}; start a server of this version on it once, then copy.`,
    );

  await migrateToLatest(target);
  const shapes = parentsFirst(
    await describeTables(
      source,
      sourceTables.filter((t) => !NOT_COPIED.has(t)),
    ),
  );
  const targetShapes = new Map(
    (
      await describeTables(
        target,
        shapes.map((s) => s.name),
      )
    ).map((s) => [s.name, s]),
  );
  for (const shape of shapes) {
    const columns = targetShapes.get(shape.name)?.columns ?? [];
    const absent = shape.columns.filter((c) => !columns.includes(c));
    if (absent.length > 0) throw new DatabaseCopyError(`The target's table ${shape.name} lacks column ${absent[0]}.`, true);
  }
  // Migrations may seed rows (none today on an empty database); the copy replaces them.
  for (const shape of [...shapes].reverse()) await anyDb(target).deleteFrom(shape.name).execute();

  const counts = new Map<string, number>();
  for (const shape of shapes) counts.set(shape.name, await countRows(source, shape.name));
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  let copied = 0;
  for (const shape of shapes) {
    const tableRows = counts.get(shape.name)!;
    let rows = 0;
    await anyDb(target)
      .transaction()
      .execute(async (trx) => {
        for await (const page of pages(source, shape)) {
          await insertRows(trx, shape, page);
          rows += page.length;
          copied += page.length;
          onProgress({ table: shape.name, rows, tableRows, copied, total });
        }
      });
    if (tableRows === 0) onProgress({ table: shape.name, rows, tableRows, copied, total });
  }

  const tables: CopyResult['tables'] = [];
  for (const shape of shapes) {
    const [from, to] = [await countRows(source, shape.name), await countRows(target, shape.name)];
    if (from !== to)
      throw new DatabaseCopyError(`Row counts differ after the copy: ${shape.name} has ${from} in the source, ${to} in the target.`, true);
    tables.push({ name: shape.name, rows: to });
  }
  return { tables, rows: tables.reduce((a, t) => a + t.rows, 0) };
}
