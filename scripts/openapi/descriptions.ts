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

function prose(comment: string): string {
  const lines = comment.split('\n').map((line) => line.replace(/^\s*\* ?/, '').trimEnd());
  // Paragraphs stay apart; lines within one are joined.
  return lines.join('\n').trim().split(/\n\s*\n/).map((p) => p.replace(/\s*\n\s*/g, ' ')).join('\n\n');
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) yield path;
  }
}
