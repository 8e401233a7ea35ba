import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Operation id → its doc comment as prose, read from the source files under `coreDir`: the
 * `/** … *\/` block right before `export const x = defineOperation({ id: '…'`. The generated
 * reference carries these, so the comments need not repeat the route or the error list.
 */
export function operationDescriptions(coreDir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of walk(coreDir)) {
    const source = readFileSync(file, 'utf8');
    if (!source.includes('defineOperation(')) continue;
    const re = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export const \w+\s*=\s*defineOperation\(\{\s*id:\s*'([^']+)'/g;
    for (const m of source.matchAll(re)) out.set(m[2]!, prose(m[1]!));
  }
  return out;
}

/**
 * A parenthesis that only points at source files (ours or upstream's), e.g. "(upstream
 * https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/…)", "(core/users/queries.ts)", "(upstream `auth/…/route.tsx`)": useful to
 * maintainers, noise in a public reference.
 */
const UPSTREAM_FILE = [
  /\s*Upstream\s+`[^`]+\.tsx?`(?:\s+`\w+`)?\./g,
  /,?\s*(?:as\s+)?upstream(?:'s)?\s+`[^`]+\.tsx?`(?:\s+`\w+`)?/gi,
  /\s*@see\b[^\n]*$/g,
];
const SOURCE_POINTER = /\s*\((?:[^()]*?\b(?:core|server-bin|ui|sdk|scripts|adapters|apps|packages)\/|[^()]*?\.tsx?\b`?)[^()]*\)/g;

function prose(comment: string): string {
  // `@see`/`@throws` tags and source pointers are for maintainers; the errors are listed anyway.
  const lines = comment.split('\n').map((line) => line.replace(/^\s*\* ?/, '').trimEnd());
  const body = lines.join('\n').split(/\n@\w+/)[0]!;
  // Paragraphs stay apart; lines within one are joined.
  return body
    .trim()
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, ' ').replace(SOURCE_POINTER, ''))
    .map((p) => UPSTREAM_FILE.reduce((text, re) => text.replace(re, ''), p))
    .join('\n\n');
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) yield path;
  }
}
