/**
 * Running the example apps under examples/ in tests (test/examples/): start one as its own
 * process, stop it, and sign a user up through its home page in Chromium.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';

const repo = join(import.meta.dirname, '../..');

/** A port free right now on localhost. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, 'localhost', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node <script> [args]` in `cwd` with PORT and EXAMPLE_DATA_DIR, NODE_OPTIONS cleared (no loader from
 * outside), and resolves once it prints `listening`. Rejects with its output if it exits first.
 */
export function startExample(
  script: string,
  env: Record<string, string>,
  ready = /listening/,
  args: string[] = [],
  cwd = repo,
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [script, ...args], {
    cwd,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve({ child, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it listened:\n${output}`)));
  });
}

/** Stops an example started by startExample and waits for it to exit. */
export async function stopExample(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Signs a new user up in Chromium from the app's home page at `origin`: follows "Sign up" to the
 * hosted page under /auth, submits it, and waits to be back on the home page, signed in.
 */
export async function signUpThroughHome(browser: Browser, origin: string, host: string): Promise<string> {
  const page = await browser.newPage();
  try {
    const email = `${host.replace(/\W/g, '')}-${Date.now()}@example.com`;
    await page.goto(`${origin}/`);
    await page.getByRole('heading', { name: 'Not signed in' }).waitFor();
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/auth/projects/') && url.pathname.endsWith('/handler/sign-up'));
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('correct-horse-battery');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`${origin}/`);
    await page.getByRole('heading', { name: `Signed in as ${email}` }).waitFor({ timeout: 15_000 });
    return email;
  } finally {
    await page.close();
  }
}
