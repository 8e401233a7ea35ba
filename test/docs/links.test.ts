import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { it } from 'node:test';

const ROOT = join(import.meta.dirname, '../..');

/** The markdown files checked: README.md and everything under docs/. */
function markdownFiles(): string[] {
  const out = [join(ROOT, 'README.md')];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md')) out.push(path);
    }
  };
  walk(join(ROOT, 'docs'));
  return out;
}

/** Markdown without fenced code blocks. */
function withoutFences(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** Markdown without fenced code blocks and inline code (links inside code are examples, not links). */
function prose(text: string): string {
  return withoutFences(text).replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutFences(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = match[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .trim()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const match of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

/** Relative link targets of a markdown file: `[text](target)` and `[label]: target`, without URLs with a scheme. */
function relativeLinks(text: string): string[] {
  const body = prose(text);
  const targets = [
    ...[...body.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...body.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1]!),
  ];
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('//'));
}

it('every relative link in README.md and docs/ names an existing file, and an existing heading when it has an anchor', () => {
  const broken: string[] = [];
  for (const file of markdownFiles()) {
    const text = readFileSync(file, 'utf8');
    for (const link of relativeLinks(text)) {
      const [pathPart, anchor] = link.split('#', 2) as [string, string | undefined];
      const target = pathPart === '' ? file : join(dirname(file), decodeURIComponent(pathPart));
      const where = `${relative(ROOT, file)}: ${link}`;
      if (!existsSync(target)) {
        broken.push(`${where} (no such file)`);
        continue;
      }
      if (anchor && target.endsWith('.md') && !headingAnchors(readFileSync(target, 'utf8')).has(decodeURIComponent(anchor).toLowerCase())) {
        broken.push(`${where} (no heading #${anchor})`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

it("computes GitHub's anchors, numbering repeated headings", () => {
  assert.deepEqual(
    [...headingAnchors('# Config as code\n## `gatehouse init`: one command\n## Notes\n## Notes\n```\n# not a heading\n```\n')],
    ['config-as-code', 'gatehouse-init-one-command', 'notes', 'notes-1'],
  );
});

/** Top-level folders of the repository: a path starting with one of them in the docs names a file. */
const REPO_FOLDERS = ['core', 'adapters', 'server-bin', 'sdk', 'ui', 'scripts', 'test', 'docs', 'examples', 'bin'];

/**
 * Repository paths the docs name in prose or code (`server-bin/openapi.test.ts`): the docs refer to
 * files mostly this way, so a moved or renamed file must be renamed there too. Build outputs
 * (`dist/…`) and placeholders (`<…>`, `*`) are not files.
 */
function pathReferences(text: string): string[] {
  const pattern = new RegExp(`(?<![\\w./<-])(?:${REPO_FOLDERS.join('|')})/[\\w./-]*[\\w-](?![\\w<*{])`, 'g');
  return [...withoutFences(text).matchAll(pattern)].map((m) => m[0]).filter((p) => !p.includes('..'));
}

it('every repository path the docs and README name exists', () => {
  const missing: string[] = [];
  for (const file of markdownFiles()) {
    for (const path of new Set(pathReferences(readFileSync(file, 'utf8')))) {
      if (!existsSync(join(ROOT, path))) missing.push(`${relative(ROOT, file)}: ${path}`);
    }
  }
  assert.deepEqual(missing, []);
});

it('every section the docs cite as <file>.md "Section" is a heading of that file', () => {
  const missing: string[] = [];
  for (const file of markdownFiles()) {
    for (const m of readFileSync(file, 'utf8').matchAll(/((?:docs\/)?[a-z0-9-]+\.md|README\.md)`? "([^"]+)"/g)) {
      const target = [join(dirname(file), m[1]!), join(ROOT, m[1]!), join(ROOT, 'docs', m[1]!)].find((c) => existsSync(c));
      if (!target) {
        missing.push(`${relative(ROOT, file)}: ${m[1]} (no such file)`);
        continue;
      }
      const headings = [...withoutFences(readFileSync(target, 'utf8')).matchAll(/^#{1,6}\s+(.+)$/gm)].map((h) => h[1]!.toLowerCase());
      if (!headings.some((h) => h.includes(m[2]!.toLowerCase()))) missing.push(`${relative(ROOT, file)}: ${m[1]} "${m[2]}"`);
    }
  }
  assert.deepEqual(missing, []);
});
