/**
 * A fresh app with only the packed `gatehouse-server` tarball installed (issue 29 "compiled
 * output"): it imports `gatehouse-server/server` on plain `node` (no TypeScript loader), and
 * `tsc --strict` with otherwise default settings type-checks it with zero errors and no @types of
 * its own (the package's .d.ts bring what they name). The library's first-start notice on the
 * app's stderr holds no secret key.
 *
 * The install is offline from npm's cache with `--ignore-scripts`; the two native addons
 * (better-sqlite3, argon2) get the builds this repository's `npm ci` already made, instead of a
 * second compile from source (about 90 s here).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
// @ts-expect-error -- plain ESM build script without type declarations
import { ensureLibBuilt } from '../../scripts/build-lib.mjs';

const run = promisify(execFile);
const repo = join(import.meta.dirname, '../..');
const require = createRequire(join(repo, 'package.json'));
const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');

/** The app's code: the README's mount, the Web handler, the Express adapter and getUser, typed. */
const APP = `import { createServer } from 'node:http';
import { createGatehouse, createUserReader, expressHandler, type Gatehouse } from 'gatehouse-server/server';

const gatehouse: Gatehouse = await createGatehouse({ dataDir: './data', baseUrl: 'http://localhost:3000/auth', mountPath: '/auth' });
const getUser = createUserReader(gatehouse, { projectId: 'internal', secretServerKey: gatehouse.core.generatedKeys?.secret_server_key ?? '' });
const express: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, next: () => void) => void = expressHandler(gatehouse);
void express;
const web: Response = await gatehouse.fetch(new Request('http://localhost:3000/auth/api/v1/projects/current', { headers: { 'x-stack-project-id': 'internal', 'x-stack-access-type': 'client' } }));
const user = await getUser(new Headers());
const server = createServer(gatehouse.handler);
server.listen(0, () => {
  console.log(JSON.stringify({ web: web.status, user, listening: server.address() !== null }));
  server.close();
  void gatehouse.close();
});
`;

describe('the packed gatehouse-server in a fresh app', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-server-package-'));
  const app = join(dir, 'app');

  before(async () => {
    await ensureLibBuilt();
    const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir, '--json'], {
      cwd: repo,
      maxBuffer: 64 * 1024 * 1024,
    });
    const [info] = JSON.parse(packed.stdout) as { filename: string }[];
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }));
    await run('npm', ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', join(dir, info!.filename)], {
      cwd: app,
      timeout: 240_000,
    });
    for (const [name, file] of [
      ['better-sqlite3', 'better_sqlite3.node'],
      ['argon2', 'argon2.node'],
    ] as const) {
      cpSync(join(repo, 'node_modules', name, 'build/Release', file), join(app, 'node_modules', name, 'build/Release', file));
    }
    writeFileSync(join(app, 'app.ts'), APP);
    // The same program as JavaScript: what `node app.mjs` runs (types erased by hand).
    writeFileSync(
      join(app, 'app.mjs'),
      APP.replace(', type Gatehouse', '')
        .replace(': Gatehouse', '')
        .replace(/: \(req: .*?=> void = /, ' = ')
        .replace(': Response', ''),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('installs no @types of its own and no TypeScript loader', () => {
    const installed = readdirSync(join(app, 'node_modules'));
    assert.ok(!installed.includes('tsx'), 'tsx is not a runtime dependency');
    assert.ok(!installed.includes('typescript'), 'typescript is not a runtime dependency');
  });

  it('type-checks with tsc --strict and default settings: zero errors', async () => {
    const result = await run(process.execPath, [tsc, '--strict', '--noEmit', 'app.ts'], { cwd: app }).catch(
      (error: { stdout: string; code: number }) => error,
    );
    assert.equal(result.stdout, '', 'tsc reported errors');
  });

  it("runs on plain node and prints no secret key to the app's stderr", async () => {
    const { stdout, stderr } = await run(process.execPath, ['app.mjs'], {
      cwd: app,
      env: { ...process.env, NODE_OPTIONS: '' },
      timeout: 60_000,
    });
    assert.deepEqual(JSON.parse(stdout.trim()), { web: 200, user: null, listening: true });
    assert.match(stderr, /Open the dashboard at/, 'the first-start notice names the next step');
    assert.doesNotMatch(stderr, /\b(ssk|sak|pck)_[0-9a-z]{20,}/, "no key in the library's output");
  });
});
