// The single executable of a given commit, for before/after benchmarks (ab.mjs): the commit's tree
// is exported with `git archive` into a folder under the system's temporary directory (no git
// worktree, so the repository's state is untouched), this repository's node_modules copied in,
// and `npm run build:binary` run there. Built once per commit: a later call finds it.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './harness.mjs';

/** `<short sha> (committed <date> UTC)` of a commit (not its subject: it may name files since moved). */
export function describeCommit(rev) {
  return execFileSync('git', ['log', '-1', '--format=%h (committed %cd)', '--date=format-local:%Y-%m-%d %H:%M UTC', rev], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, TZ: 'UTC' },
  }).trim();
}

/**
 * The path of dist/gatehouse built from commit `rev` (anything `git rev-parse` takes).
 * @throws when the commit is unknown or its build fails
 */
export function binaryAt(rev, log = () => {}) {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${rev}^{commit}`], { cwd: root, encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `gatehouse-at-${sha.slice(0, 12)}`);
  const binary = join(dir, 'dist', 'gatehouse');
  if (existsSync(binary)) return binary;
  log(`building dist/gatehouse of ${describeCommit(sha)} in ${dir}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C '${dir}'`], { cwd: root, stdio: 'inherit' });
  execFileSync('cp', ['-a', join(root, 'node_modules'), join(dir, 'node_modules')]);
  const b = spawnSync('npm', ['run', 'build:binary'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  if (b.status !== 0 || !existsSync(binary)) throw new Error(`npm run build:binary failed at ${sha}`);
  return binary;
}
