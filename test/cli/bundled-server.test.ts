/**
 * The bundled server `npm start` and bin/gatehouse.mjs run (dist/server/cli.js, built by
 * scripts/build-lib.mjs): every module shares the bundle's
 * `import.meta.url`, so what locates files from it must still find them — the prebuilt pages and
 * their scripts (server-bin/page-shell.ts ROOT), docs/openapi.json, and the worker threads' entry
 * files bundled beside it (email rendering, sign-up conditions). Started on plain `node` with
 * NODE_OPTIONS cleared, from a folder outside the repository.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { after, before, describe, it } from 'node:test';
// @ts-expect-error -- plain ESM build script without type declarations
import { SERVER_BUNDLE, ensureLibBuilt } from '../../scripts/build-lib.mjs';

const repo = join(import.meta.dirname, '../..');
const bundle = join(repo, SERVER_BUNDLE as string);
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bundled-'));

describe('the bundled server (dist/server/cli.js)', () => {
  let child: ChildProcess;
  let url = '';
  let stderr = '';

  before(async () => {
    await ensureLibBuilt();
    child = spawn(process.execPath, [bundle, '--port', '0', '--data-dir', join(dir, 'data')], {
      cwd: dir,
      env: { ...process.env, NODE_OPTIONS: '', GATEHOUSE_WORKERS: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    url = await new Promise<string>((ok, fail) => {
      child.stderr!.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        const m = /Listening:\s+(\S+)/.exec(stderr);
        if (m) ok(m[1]!);
      });
      child.once('exit', (code) => fail(new Error(`exited with ${code}:\n${stderr}`)));
    });
  });
  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((ok) => child.once('exit', ok));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the dashboard and the hosted sign-in page with their prebuilt scripts', async () => {
    for (const page of ['/', '/handler/sign-in']) {
      const res = await fetch(`${url}${page}`);
      assert.equal(res.status, 200, page);
      const script = /<script type="module" src="([^"?]+\.js)\?v=/.exec(await res.text())?.[1];
      assert.ok(script, `${page} loads a script`);
      const js = await fetch(new URL(script, `${url}${page}`));
      assert.equal(js.status, 200, script);
      assert.ok((await js.text()).length > 1000, `${script} has content`);
    }
  });

  it('serves docs/openapi.json from the package', async () => {
    const res = await fetch(`${url}/api/v1/openapi.json`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { openapi: string }).openapi.slice(0, 2), '3.');
  });

  it('renders an email template on the render worker bundled beside it', async () => {
    const adminKey = /STACK_SUPER_SECRET_ADMIN_KEY=(\S+)/.exec(stderr)?.[1];
    assert.ok(adminKey, 'the first start prints the internal admin key');
    const res = await fetch(`${url}/api/v1/emails/render-email`, {
      method: 'POST',
      headers: {
        'x-stack-project-id': 'internal',
        'x-stack-access-type': 'admin',
        'x-stack-super-secret-admin-key': adminKey,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ template_tsx_source: 'export function EmailTemplate() { return <p>rendered by the bundle</p>; }' }),
    });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    assert.match(text, /rendered by the bundle/);
  });

  it('has the sign-up condition worker beside it, answering the pool protocol', async () => {
    const worker = new Worker(join(repo, 'dist/server/cel-worker.js'));
    try {
      const answer = await new Promise((ok, fail) => {
        // The worker first announces `{ready: true}`; the answer carries the job's id.
        worker.on('message', (m: { id?: number }) => {
          if (m.id === 7) ok(m);
        });
        worker.once('error', fail);
        worker.postMessage({ id: 7, input: { condition: 'email.endsWith("@example.com")', variables: { email: 'a@example.com' } } });
      });
      assert.deepEqual(answer, { id: 7, ok: true, value: true });
    } finally {
      await worker.terminate();
    }
  });
});
