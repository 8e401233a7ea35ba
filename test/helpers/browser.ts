import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Dialect } from '../../core/index.ts';
import { testDialects } from './dialects.ts';

/** Debian's Chromium (`apt-get install -y chromium`); tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Launches headless Chromium the way every browser test does: Debian's binary, no sandbox (tests
 * run as root), and no background networking (this machine's network is closed). Tests share one
 * through `openChromium`; scripts that own their browser (screenshots, benches) call this.
 */
export function launchChromium(): Promise<Browser> {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * The databases a browser test runs on: the first of TEST_DIALECTS only. A browser test checks
 * what the pages do; the API and storage behind them are tested on every dialect by their own
 * files, which each browser file names in its header.
 */
export function browserTestDialects(): Dialect[] {
  return testDialects().slice(0, 1);
}

let shared: Promise<Browser> | undefined;
let users = 0;
let closeOnDisconnect = false;

/**
 * The process's Chromium, launched on first use and shared by every test file and suite of the
 * process (a launch costs about a second of CPU; a context, what isolates a test, a few ms): each
 * suite opens it in a `before` hook and gives it back with `closeChromium` in its `after` hook,
 * which closes the contexts the suite left open. Suites must run one after the other (node:test
 * does, and scripts/test.mjs runs one file at a time per process). A Chromium that crashed or was
 * closed is launched again.
 *
 * In a process with an IPC channel (scripts/test.mjs's shared test processes, which run file
 * after file) the browser stays open between files and closes when the channel does (the runner
 * disconnects once it has no more files); without one (`node --test`, one process per file) it
 * closes when the last suite gives it back, so nothing is left to keep the process alive.
 */
export async function openChromium(): Promise<Browser> {
  let browser: Browser;
  try {
    browser = await (shared ??= launchChromium());
    if (!browser.isConnected()) {
      shared = launchChromium();
      browser = await shared;
    }
  } catch (error) {
    shared = undefined;
    throw error;
  }
  users++;
  if (process.channel && !closeOnDisconnect) {
    closeOnDisconnect = true;
    process.once('disconnect', () => {
      void shared?.then((b) => b.close()).catch(() => {});
      shared = undefined;
    });
  }
  return browser;
}

/**
 * Gives back a browser from `openChromium`: closes every context still open in it (so the next
 * suite starts with no page, cookie or storage of this one) and, outside a shared test process,
 * closes Chromium once no suite uses it. `undefined` (the open failed) is accepted.
 */
export async function closeChromium(browser: Browser | undefined): Promise<void> {
  if (!browser) return;
  users = Math.max(0, users - 1);
  await Promise.all(browser.contexts().map((context) => context.close().catch(() => {})));
  if (users === 0 && !process.channel && shared) {
    const last = shared;
    shared = undefined;
    await (await last).close();
  }
}

/**
 * Signs the dashboard's first owner up through the dashboard itself (first run), creates a project
 * named `projectName` there and answers its id; `page` stays signed in on the project's page.
 */
export async function signUpOwnerWithProject(
  page: Page,
  baseUrl: string,
  owner: { email: string; password: string },
  projectName = 'Acme',
): Promise<string> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('Email', { exact: true }).fill(owner.email);
  await page.getByLabel('Password', { exact: true }).fill(owner.password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
  await page.getByLabel('Project name').fill(projectName);
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('heading', { name: projectName }).waitFor();
  return /\/projects\/([0-9a-f-]{36})/.exec(page.url())![1]!;
}
