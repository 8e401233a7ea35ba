/**
 * examples/react-app runs with one command: `node examples/react-app/serve.mjs`
 * (`npm run example`) starts Gatehouse in-process, creates the example's project on the first run,
 * and serves the app, the hosted pages and the API on one origin. Started as a child process with
 * plain Node (no loader flag), on a free port and a temporary data folder; stopped with SIGTERM.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const repo = join(import.meta.dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe('the example React app', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-example-'));
  let child: ChildProcess | undefined;

  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts with one command and serves the app, its project and the hosted pages', async () => {
    const port = await freePort();
    child = spawn(process.execPath, [join(repo, 'examples/react-app/serve.mjs')], {
      env: { ...process.env, NODE_OPTIONS: '', PORT: String(port), EXAMPLE_DATA_DIR: dataDir },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${output}`)), 90_000);
      child!.stderr!.on('data', (d) => {
        output += d;
        if (output.includes('Stop with Ctrl+C.')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child!.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited with ${code}:\n${output}`));
      });
    });
    const projectId = /Project id:\s+([0-9a-f-]{36})/.exec(output)?.[1];
    assert.ok(projectId, output);
    const origin = `http://localhost:${port}`;
    const page = await fetch(`${origin}/app`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), new RegExp(`"projectId":"${projectId}"`));
    const js = await fetch(`${origin}/app/example.js`);
    assert.equal(js.status, 200);
    assert.ok((await js.text()).length > 10_000);
    const project = await fetch(`${origin}/api/v1/projects/current`, {
      headers: { 'x-stack-project-id': projectId!, 'x-stack-access-type': 'client' },
    });
    assert.equal(project.status, 200);
    assert.equal((await project.json()).display_name, 'Example app');
    assert.equal((await fetch(`${origin}/projects/${projectId}/handler/sign-up`)).status, 200);
  });
});
