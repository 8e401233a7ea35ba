import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AiDoc } from '../core/index.ts';
import { ROOT } from './page-shell.ts';
import { embeddedText, isSea, seaManifest } from './sea/native.ts';

/**
 * Gatehouse's documentation (`docs/*.md`) for the dashboard assistant's context: the copies
 * embedded in the single executable (scripts/build-binary.mjs), else the repository's folder.
 * A missing folder gives no docs (the assistant still answers, without them).
 */
export function loadGatehouseDocs(): AiDoc[] {
  if (isSea()) return (seaManifest().docs ?? []).map((name) => ({ name, text: embeddedText(`docs/${name}`) }));
  const dir = join(ROOT, 'docs');
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
  } catch {
    return [];
  }
}
