// Builds once per change of their inputs, one process at a time: content hashes of what a build
// reads and a lock, so a build the tests need (the compiled package, the Next.js example's
// `next build`, the packed packages) runs once per change instead of once per test file or run.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Never read as inputs: installed packages, build output, version control, and dist/lib's build
 * stamp (it holds the build's time, so an unchanged rebuild would look like a change).
 */
const SKIPPED = new Set(['node_modules', '.next', '.git', '.built']);

/**
 * SHA-256 (hex) of `paths` (files or folders, relative to `rootDir`; folders read recursively, less
 * node_modules, .next, .git and .built): each file's path relative to `rootDir` and its bytes, in sorted order,
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

/**
 * Runs `fn` holding the lock folder `lock` (mkdir is atomic across processes): test files run in
 * parallel processes, and two builds into one folder would overwrite each other. Waits (polling
 * every 200 ms, up to 10 minutes) while another process holds it; a lock older than 10 minutes
 * is taken as left by a killed process and removed. Returns what `fn` returns.
 */
export async function withLock(lock, fn) {
  mkdirSync(dirname(lock), { recursive: true });
  for (const started = Date.now(); Date.now() - started < 600_000; ) {
    try {
      mkdirSync(lock);
    } catch {
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
      await sleep(200);
      continue;
    }
    try {
      return await fn();
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  throw new Error(`waited 10 minutes for another process's build (${lock})`);
}
