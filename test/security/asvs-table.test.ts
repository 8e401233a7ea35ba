import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

// Docs/security.md maps the ASVS 5.0 V6–V9 level-2 requirements to tests,
// at least 90% covered. This test keeps the table honest: every test file it names exists, every
// test name it quotes is in that file, and the coverage it claims is what the rows say.

const ROOT = join(import.meta.dirname, '..', '..');
const doc = readFileSync(join(ROOT, 'docs', 'security.md'), 'utf8');

interface Row {
  id: string;
  how: string;
  test: string;
}

/** The rows of the four ASVS tables (`| 6.1.1 | requirement | how | test |`). */
function asvsRows(text: string): Row[] {
  const start = text.indexOf('## ASVS 5.0');
  assert.ok(start !== -1, 'docs/security.md has an ASVS 5.0 section');
  const rows: Row[] = [];
  for (const line of text.slice(start).split('\n')) {
    const m = /^\|\s*([6-9]\.\d+\.\d+)\s*\|(.*)\|\s*$/.exec(line);
    if (!m) continue;
    // Cells are split on `|` outside backticks (a cell may show `a | b` in code).
    const cells: string[] = [];
    let cell = '';
    let code = false;
    for (const ch of m[2]!) {
      if (ch === '`') code = !code;
      if (ch === '|' && !code) {
        cells.push(cell.trim());
        cell = '';
      } else cell += ch;
    }
    cells.push(cell.trim());
    assert.equal(cells.length, 3, `row ${m[1]} has requirement, how and test cells`);
    rows.push({ id: m[1]!, how: cells[1]!, test: cells[2]! });
  }
  return rows;
}

/** `file`: "name", "name"; `file2`: "name" → [[file, [names]]]; "same" reuses the previous row's. */
function references(cell: string): Array<{ file: string; names: string[] }> {
  const refs: Array<{ file: string; names: string[] }> = [];
  const parts = cell.split(/`([^`]+\.test\.tsx?)`/);
  for (let i = 1; i < parts.length; i += 2) {
    const after = parts[i + 1] ?? '';
    const names = [...after.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((n) => n[1]!);
    refs.push({ file: parts[i]!, names });
  }
  return refs;
}

/** True when the test file's source contains the quoted name (placeholders like `<route>` are wildcards). */
function fileHasTestName(source: string, name: string): boolean {
  const unescaped = source.replace(/\\'/g, "'").replace(/\\"/g, '"');
  return name.split(/<[^>]+>/).every((fragment) => unescaped.includes(fragment));
}

describe('docs/security.md ASVS 5.0 V6–V9 table (issue 12)', () => {
  const rows = asvsRows(doc);

  it('lists every chapter, each requirement once', () => {
    for (const chapter of ['6', '7', '8', '9'])
      assert.ok(
        rows.some((r) => r.id.startsWith(`${chapter}.`)),
        `chapter V${chapter}`,
      );
    const ids = rows.map((r) => r.id);
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
      'no requirement listed twice',
    );
  });

  it('names only test files that exist and test names that are in those files', () => {
    const problems: string[] = [];
    let previous: Array<{ file: string; names: string[] }> = [];
    for (const row of rows) {
      let refs = references(row.test);
      if (refs.length === 0 && /^same\b/.test(row.test)) refs = previous;
      else if (/^same\b/.test(row.test)) refs = [...previous, ...refs];
      for (const { file, names } of refs) {
        const path = join(ROOT, file);
        if (!existsSync(path)) {
          problems.push(`${row.id}: ${file} does not exist`);
          continue;
        }
        const source = readFileSync(path, 'utf8');
        for (const name of names) if (!fileHasTestName(source, name)) problems.push(`${row.id}: "${name}" is not in ${file}`);
      }
      if (refs.length > 0) previous = refs;
    }
    assert.deepEqual(problems, []);
  });

  it('names only existing test files anywhere in docs/security.md, and a test for each of the nine findings', () => {
    const files = [...new Set([...doc.matchAll(/`((?:core|test|server-bin|sdk|ui|adapters)\/[^`\s]+\.test\.tsx?)`/g)].map((m) => m[1]!))];
    assert.ok(files.length > 20);
    assert.deepEqual(
      files.filter((f) => !existsSync(join(ROOT, f))),
      [],
    );
    // The findings table: one row per finding 1–9, each naming at least one test file.
    const findings = new Map<string, string>();
    for (const m of doc.matchAll(/^\| (\d) \| [^|]+ \| (.+) \|$/gm)) findings.set(m[1]!, m[2]!);
    for (let finding = 1; finding <= 9; finding++) {
      const cell = findings.get(String(finding));
      assert.ok(cell && /`[^`]+\.test\.tsx?`/.test(cell), `finding ${finding} has a row naming its test`);
    }
  });

  it('covers at least 90% of the applicable requirements, and states the coverage it has', () => {
    const applicable = rows.filter((r) => !/\bn\/a\b/.test(r.how));
    // A row marked gap is a gap even when a test covers the part that is met (7.5.1).
    const gaps = applicable.filter((r) => /\*\*gap\*\*/.test(r.how));
    const tested = applicable.filter((r) => !gaps.includes(r) && (references(r.test).length > 0 || /^same\b/.test(r.test)));
    const documented = applicable.filter((r) => !tested.includes(r) && !gaps.includes(r) && /\bDoc\b/.test(`${r.how} ${r.test}`));
    const unaccounted = applicable.filter((r) => !tested.includes(r) && !gaps.includes(r) && !documented.includes(r)).map((r) => r.id);
    assert.deepEqual(unaccounted, [], 'every applicable row has a test, is a documentation requirement, or is marked a gap');
    const met = tested.length + documented.length;
    const percent = Math.round((100 * met) / applicable.length);
    assert.ok(met / applicable.length >= 0.9, `coverage ${met}/${applicable.length}`);
    const claim =
      /Of the (\d+) that apply, \*\*(\d+) are met \((\d+)%\)\*\*: (\d+) with a named\s+test, (\d+) documentation requirements/.exec(
        doc.replace(/\n/g, ' '),
      );
    assert.ok(claim, 'the coverage paragraph states the figures');
    assert.deepEqual(claim.slice(1).map(Number), [applicable.length, met, percent, tested.length, documented.length]);
  });
});
