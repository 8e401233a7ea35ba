/**
 * The server package's `bin`: `npx gatehouse-server` / `gatehouse --help` runs
 * on plain Node 20 without a loader flag. Runs the file package.json names, through a symlink as
 * npm's `node_modules/.bin` does, with NODE_OPTIONS cleared so no loader comes from outside.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
// @ts-expect-error -- plain ESM build script without type declarations
import { ensureLibBuilt } from '../../scripts/build-lib.mjs';

const repo = join(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> };
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bin-'));

describe('the gatehouse bin', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is a JavaScript file, not TypeScript', () => {
    assert.deepEqual(Object.keys(pkg.bin), ['gatehouse']);
    assert.match(pkg.bin.gatehouse!, /\.m?js$/);
    assert.notEqual(pkg.name, 'gatehouse', 'the npm name "gatehouse" belongs to an unrelated package');
  });

  it('prints usage and version through a .bin symlink with plain node', () => {
    const link = join(dir, 'gatehouse');
    symlinkSync(join(repo, pkg.bin.gatehouse!), link);
    const env = { ...process.env, NODE_OPTIONS: '' };
    const help = spawnSync(process.execPath, [link, '--help'], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^Usage: gatehouse/);
    const version = spawnSync(process.execPath, [link, '--version'], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
    assert.equal(version.status, 0, version.stderr);
    assert.equal(version.stdout.trim(), `gatehouse ${pkg.version}`);
  });
});

describe('the server package (gatehouse-server)', () => {
  it('packs the bin, the compiled server with its .d.ts, the bundled server and the built pages, not sources, tests or examples', async () => {
    await ensureLibBuilt();
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repo, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    const [info] = JSON.parse(r.stdout) as { name: string; files: { path: string }[] }[];
    const files = info!.files.map((f) => f.path);
    assert.equal(info!.name, 'gatehouse-server');
    for (const needed of [
      'bin/gatehouse.mjs',
      'dist/server/cli.js',
      'dist/server/render-worker.js',
      'dist/server/cel-worker.js',
      'dist/lib/server-bin/cli.js',
      'dist/lib/server-bin/index.js',
      'dist/lib/server-bin/index.d.ts',
      'dist/lib/core/index.js',
      'dist/lib/adapters/sqlite/index.js',
      'scripts/build-ui.mjs',
      'package.json',
    ])
      assert.ok(files.includes(needed), needed);
    // No TypeScript sources: the exports map points at the compiled files.
    assert.ok(
      !files.some((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts')),
      files
        .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
        .slice(0, 5)
        .join(', '),
    );
    // Built by prepack (and by pretest before this test): served from disk, so no esbuild at run time.
    if (existsSync(join(repo, 'dist/ui/handler/handler.js'))) assert.ok(files.includes('dist/ui/handler/handler.js'));
    assert.ok(
      !files.some(
        (f) => f.startsWith('test/') || f.startsWith('examples/') || f.startsWith('dist/packages/') || f.startsWith('node_modules/'),
      ),
      files.filter((f) => /^(test|examples|dist\/packages)\//.test(f)).join(', '),
    );
  });
});
