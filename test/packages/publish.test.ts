/**
 * The packages are ready to publish and install without the registry (issue 29 "packages that
 * install"): `npm publish --dry-run` is clean for gatehouse-sdk, gatehouse-react (the folders
 * `npm run build:packages` writes) and gatehouse-server (the repository), and the built folders
 * install into a fresh app from the tarballs `npm run build:packages` writes beside them (the
 * dashboard's snippet, ui/dashboard/pages/connect.tsx, run as written) and by path with
 * `npm i --install-links <folder>`, and load on plain node, while a plain `npm i <folder>` links
 * it and its dependencies do not resolve (why the README gives the flag). Tarball installs are
 * test/packages/packages.test.ts and server-package.test.ts.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
// @ts-expect-error -- plain ESM build script without type declarations
import { copyBuiltPackages, packPackages } from '../../scripts/build-packages.mjs';
// @ts-expect-error -- plain ESM build script without type declarations
import { ensureLibBuilt } from '../../scripts/build-lib.mjs';
import { installLines } from '../../ui/dashboard/pages/connect.tsx';

const run = promisify(execFile);
const repo = join(import.meta.dirname, '../..');

/** npm's warnings, less the one every dry run without a login prints. */
function warnings(stderr: string): string[] {
  return stderr.split('\n').filter((line) => /^npm (warn|error)/i.test(line) && !/requires you to be logged in/.test(line));
}

describe('packages ready to publish and installable by path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-publish-'));
  let packages: { sdk: string; react: string };

  before(async () => {
    packages = await copyBuiltPackages(join(dir, 'packages'));
    await ensureLibBuilt();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('npm publish --dry-run is clean for gatehouse-sdk, gatehouse-react and gatehouse-server', async () => {
    for (const [cwd, args] of [
      [packages.sdk, []],
      [packages.react, []],
      [repo, ['--ignore-scripts']],
    ] as const) {
      const { stdout, stderr } = await run('npm', ['publish', '--dry-run', '--json', ...args], {
        cwd,
        maxBuffer: 64 * 1024 * 1024,
        timeout: 120_000,
      });
      assert.deepEqual(warnings(stderr), [], `${cwd}: npm warnings`);
      // npm 11 keys the dry run's report by package name.
      const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as Record<
        string,
        { name: string; version: string; files: { path: string }[] }
      >;
      const info = Object.values(report)[0]!;
      assert.match(info.version, /^\d+\.\d+\.\d+/);
      assert.ok(
        info.files.some((f) => f.path === 'package.json') && info.files.some((f) => f.path === 'README.md'),
        `${info.name}: manifest and README`,
      );
      assert.ok(!info.files.some((f) => /\.test\.|^test\//.test(f.path)), `${info.name}: no tests`);
    }
  });

  /** Installs `args` into a new app folder `name` and loads both packages there on plain node. */
  async function installAndLoad(name: string, args: string[]) {
    const app = join(dir, name);
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...args], { cwd: app, timeout: 240_000 });
    const code =
      "const sdk = await import('gatehouse-sdk'); const react = await import('gatehouse-react'); console.log(typeof sdk.ClientApp, typeof react.GatehouseProvider);";
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code], {
      cwd: app,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    assert.equal(stdout.trim(), 'function function');
  }

  it("the dashboard's install line works as written with the tarballs packed beside the built folders", async () => {
    const packed = packPackages(packages);
    const version = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version;
    assert.equal(packed.sdk.file, join(dir, 'packages', `gatehouse-sdk-${version}.tgz`));
    const line = installLines(['gatehouse-sdk', 'gatehouse-react'], ['react', 'react-dom']).find((l) => l.startsWith('// npm i '))!;
    const args = line
      .replace(/^\/\/ npm i /, '')
      .replaceAll('<checkout>/dist/packages', join(dir, 'packages'))
      .replaceAll('<version>', version)
      .split(' ');
    await installAndLoad('tarball-app', args);
  });

  it('the built folders install by path with --install-links and load on plain node', async () => {
    await installAndLoad('by-path-app', ['--install-links', packages.sdk, packages.react, 'react', 'react-dom']);
  });

  // What README.md ("Packages") and the dashboard's snippet say about a plain `npm i <folder>`:
  // npm links the folder instead of copying it and installs none of its own dependencies, and
  // Node resolves them from the folder's real place, so the SDK's `cookie` is not found. If npm
  // ever copies folders by default, this fails and the docs can drop `--install-links`.
  it('without --install-links npm links the folder and its dependencies do not resolve (the documented reason for the flag)', async () => {
    const app = join(dir, 'plain-app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'plain-path-app', private: true, type: 'module' }));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--install-links=false', packages.sdk], {
      cwd: app,
      timeout: 240_000,
    });
    assert.ok(lstatSync(join(app, 'node_modules', 'gatehouse-sdk')).isSymbolicLink(), 'npm linked the folder');
    const code = "await import('gatehouse-sdk').then(() => console.log('loaded'), (e) => console.log(e.code))";
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code], {
      cwd: app,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    assert.equal(stdout.trim(), 'ERR_MODULE_NOT_FOUND');
  });
});
