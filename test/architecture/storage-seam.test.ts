import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

/**
 * The storage seam: SQLite and PostgreSQL both store booleans as 0/1 integers, and the adapters
 * turn them into JavaScript booleans both ways (adapters/boolean-columns.ts), so domain code reads
 * and writes `true`/`false` and never handles 0/1 itself. This test reads the source of core/
 * (outside the storage layer core/storage/ and tests; queries.ts files included, since the
 * adapters convert for them too) and fails listing `file:line` for every 0/1 flag conversion it
 * finds.
 */

const ROOT = join(import.meta.dirname, '..', '..');

/** The source of the table types: core/storage/tables.ts and the files of core/storage/tables/. */
function tableSources(): string {
  const dir = join(ROOT, 'core/storage/tables');
  return [join(ROOT, 'core/storage/tables.ts'), ...readdirSync(dir).map((name) => join(dir, name))]
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

/** The columns typed `Bool` in the table types (0/1 in the database, booleans above it). */
export function flagColumns(): string[] {
  const tables = tableSources();
  return [...new Set([...tables.matchAll(/^\s*(\w+)\s*:\s*Bool\s*;/gm)].map((m) => m[1]!))].sort();
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** One finding: where, and the line as written. */
export interface FlagHandling {
  file: string;
  line: number;
  text: string;
}

/**
 * The lines of `text` that convert a 0/1 flag: a flag column (or its camelCase name) compared
 * with 0 or 1, written as a 0/1 literal, filtered on 0/1 in a query builder, or passed through
 * `Number`, `Boolean` or `!!`; and any `? 1 : 0` / `? 0 : 1` that is not the tail of a sort
 * comparator (`a > b ? 1 : 0`).
 */
export function findFlagHandling(file: string, text: string, flags: readonly string[]): FlagHandling[] {
  const names = [...new Set([...flags, ...flags.map(camel)])].join('|');
  const patterns = [
    // row.is_anonymous === 1, (a ?? b.enabled) !== 0, Number(r.is_verified) === 1, raw SQL "is_anonymous = 1"
    new RegExp(`\\b(?:${names})\\b\\s*\\)?\\s*(?:={1,3}|!==?|<>)\\s*[01]\\b`),
    // 1 === row.is_anonymous
    new RegExp(`\\b[01]\\s*(?:===?|!==?)\\s*[\\w.?]*\\b(?:${names})\\b`),
    // { is_anonymous: 1 }
    new RegExp(`\\b(?:${names})\\s*:\\s*[01]\\b(?!\\s*[.\\d])`),
    // .where('is_anonymous', '=', 0)
    new RegExp(`['"\`][\\w.]*\\b(?:${names})['"\`]\\s*,\\s*['"\`](?:=|!=|<>)['"\`]\\s*,\\s*[01]\\b`),
    // Number(row.is_anonymous), Boolean(row.enabled), !!row.backed_up
    new RegExp(`(?:\\bNumber\\(|\\bBoolean\\(|!!)\\s*[\\w.?]*\\b(?:${names})\\b`),
    // x ? 1 : 0, x ? 0 : 1 (a comparator's `a > b ? 1 : 0` is not a flag)
    /(?<![<>]=?\s*[\w.\])]+\s*)\?\s*(?:1\s*:\s*0|0\s*:\s*1)\b/,
  ];
  const out: FlagHandling[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '');
    if (patterns.some((p) => p.test(line))) out.push({ file, line: i + 1, text: raw.trim() });
  });
  return out;
}

/** Source files of core/ outside the storage layer, tests excluded. */
function domainFiles(dir = 'core'): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (path !== 'core/storage' && entry.name !== 'node_modules') out.push(...domainFiles(path));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

describe('storage seam', () => {
  const flags = flagColumns();

  it('reads the flag columns from the table types (core/storage/tables/)', () => {
    for (const name of ['is_anonymous', 'primary_email_verified', 'enabled', 'test_mode', 'is_public'])
      assert.ok(flags.includes(name), name);
  });

  it('finds each form of 0/1 flag handling, and not sort comparators or counts', () => {
    const sample = [
      'if (user.is_anonymous === 1) return;',
      'const on = (a.primary_email_auth_enabled ?? b.primary_email_auth_enabled) === 1;',
      'anonymous: Number(r.is_anonymous) === 1,',
      'values({ is_public: isPublic ? 1 : 0 })',
      'updateUser(db, id, { passkey_auth_enabled: 0 });',
      ".where('users.is_anonymous', '=', 0)",
      'sql`select id from users where is_anonymous = 1`',
      'if (!!row.backed_up) x();',
      'if (previous.isVerified === 1) y();',
      'items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));',
      'if (ids.length === 0) return;',
      'return Number(result.numUpdatedRows) === 1;',
      'const n = { attempt_count: 0, enabled: true };',
    ].join('\n');
    assert.deepEqual(
      findFlagHandling('sample.ts', sample, flags).map((f) => f.line),
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
  });

  it('core/ outside core/storage/ handles no 0/1 flags, queries.ts included (the adapters convert)', () => {
    const found = domainFiles().flatMap((file) => findFlagHandling(file, readFileSync(join(ROOT, file), 'utf8'), flags));
    assert.equal(
      found.length,
      0,
      `0/1 flag handling outside the storage seam (${found.length}):\n${found.map((f) => `${f.file}:${f.line}: ${f.text}`).join('\n')}`,
    );
  });
});

describe('flag columns of the adapters', () => {
  it('are exactly the columns typed Bool in the table types, and no other column shares a name with one', async () => {
    const { BOOLEAN_COLUMNS } = await import('../../adapters/boolean-columns.ts');
    assert.deepEqual([...BOOLEAN_COLUMNS].sort(), flagColumns());
    const tables = tableSources();
    const others = [...tables.matchAll(/^\s*(\w+)\??\s*:\s*(?!\s|Bool\b)[^;]+;/gm)]
      .map((m) => m[1]!)
      .filter((name) => BOOLEAN_COLUMNS.has(name));
    assert.deepEqual(others, []);
  });
});
