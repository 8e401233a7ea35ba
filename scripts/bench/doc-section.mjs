// Writes one benchmark's block into docs/benchmarks.md, leaving the other benchmarks' blocks as
// they are. Shared by every script under scripts/bench/.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** docs/benchmarks.md of this repository. */
export const BENCHMARKS_FILE = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'docs', 'benchmarks.md');

/**
 * Replaces the block from `<!-- bench:<name>:start…-->` to `<!-- bench:<name>:end -->` with
 * `block` (which carries both markers), or appends it when the file has no such block yet.
 *
 * @param {string} name  the block's name, e.g. `auth`
 * @param {string} block the new block, markers included
 * @returns {string} the file written
 */
export function writeDocSection(name, block) {
  mkdirSync(dirname(BENCHMARKS_FILE), { recursive: true });
  const doc = existsSync(BENCHMARKS_FILE) ? readFileSync(BENCHMARKS_FILE, 'utf8') : '# Benchmarks\n';
  const re = new RegExp(`<!-- bench:${name}:start[\\s\\S]*?<!-- bench:${name}:end -->`);
  const next = re.test(doc) ? doc.replace(re, () => block) : `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(BENCHMARKS_FILE, next);
  return BENCHMARKS_FILE;
}
