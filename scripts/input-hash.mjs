// Content hashes of a build's inputs, so a build inside the tests (the Next.js example's
// `next build`, the packed packages) runs once per change of what it reads instead of once per run.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Folders never read as inputs: installed packages, build output, version control. */
const SKIPPED = new Set(['node_modules', '.next', '.git']);

/**
 * SHA-256 (hex) of `paths` (files or folders, relative to `rootDir`; folders read recursively, less
 * node_modules/.next/.git): each file's path relative to `rootDir` and its bytes, in sorted order,
 * then the `extra` strings (versions, options). A missing path hashes as missing, not as an error.
 */
export function hashInputs(rootDir, paths, extra = []) {
  const files = [];
  const visit = (path) => {
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) files.push([relative(rootDir, path), null]);
    else if (st.isDirectory()) for (const name of readdirSync(path)) SKIPPED.has(name) || visit(join(path, name));
    else files.push([relative(rootDir, path), path]);
  };
  for (const p of paths) visit(join(rootDir, p));
  files.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const hash = createHash('sha256');
  for (const [name, full] of files) hash.update(`\0${name}\0`).update(full ? readFileSync(full) : '(missing)');
  for (const e of extra) hash.update(`\0${e}`);
  return hash.digest('hex');
}
