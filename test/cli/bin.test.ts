/**
 * The server package's `bin` (issue 20 item 11): `npx gatehouse-server` / `gatehouse --help` runs
 * on plain Node 20 without a loader flag. Runs the file package.json names, through a symlink as
 * npm's `node_modules/.bin` does, with NODE_OPTIONS cleared so no loader comes from outside.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

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
