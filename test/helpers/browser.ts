import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`); tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Launches headless Chromium the way every browser test does: Debian's binary, no sandbox (tests
 * run as root), and no background networking (this machine's network is closed).
 */
export async function launchChromium(): Promise<Browser> {
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
