/**
 * Empty apps for the `gatehouse init` tests (test/cli/init-*.test.ts): a copy of a local template
 * (test/cli/fixtures/, shaped as create-vite's react template and create-next-app write them), placed
 * under the repository's dist/ so that Node and the bundlers resolve `react`, `vite` and `next` from
 * the repository's node_modules, with `node_modules/gatehouse-server` linked to the repository
 * (what `npm i gatehouse-server` gives an app; examples/nextjs-app-router/link.mjs does the same).
 * Then `gatehouse init` runs there through bin/gatehouse.mjs, as `npx gatehouse init` would.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

const repo = join(import.meta.dirname, '../..');

/** Copies template `name` into a new folder under dist/init-apps and links gatehouse-server there. */
export function emptyApp(name: 'vite-react' | 'nextjs-app'): string {
  const parent = join(repo, 'dist', 'init-apps');
  mkdirSync(parent, { recursive: true });
  const app = mkdtempSync(join(parent, `${name}-`));
  cpSync(join(repo, 'test/cli/fixtures', name), app, { recursive: true });
  if (existsSync(join(app, 'gitignore'))) renameSync(join(app, 'gitignore'), join(app, '.gitignore'));
  mkdirSync(join(app, 'node_modules'));
  symlinkSync(relative(join(app, 'node_modules'), repo), join(app, 'node_modules', 'gatehouse-server'), 'dir');
  return app;
}

/** Runs `gatehouse init [args]` in `app` with no GATEHOUSE_* / STACK_* variables; returns its output. */
export function runInit(app: string, args: string[] = []): { stdout: string; stderr: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(GATEHOUSE_|STACK_)/.test(k)));
  const r = spawnSync(process.execPath, [join(repo, 'bin/gatehouse.mjs'), 'init', ...args], {
    cwd: app,
    env: { ...env, NODE_OPTIONS: '' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(r.status, 0, `gatehouse init failed:\n${r.stdout}\n${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}
