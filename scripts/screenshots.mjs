/**
 * `npm run screenshots`: renders every dashboard page and every hosted page in real Chromium
 * (/usr/bin/chromium through playwright-core; never a browser download) against a fresh server on
 * a temporary SQLite file with a small demo project, in light mode, dark mode and at 375 px, and
 * writes them to docs/screenshots/ (`<area>-<page>-<light|dark|phone>.png`: the visible window
 * only, stored as palette PNGs, so the whole folder stays around 2 MB). Dashboard pages are found from its navigation, so new pages are
 * picked up without editing this list. Run with tsx (the npm script does): it reuses the test
 * helpers that start a server.
 *
 * `npm run screenshots -- --only user,team` regenerates only the pages named (the `<page>` part of
 * the file names, every area and variant) and leaves the other files as they are.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { launchChromium, signUpOwnerWithProject } from '../test/helpers/browser.ts';
import { startTestServer } from '../test/helpers/server.ts';
import { api, createProjectKeys, internal } from '../test/helpers/api.ts';

const OUT = join(import.meta.dirname, '..', 'docs', 'screenshots');
const OWNER = { email: 'owner@example.com', password: 'a long enough password 1' };
const PASSWORD = 'correct-horse-battery';
/** The three looks of every page: desktop light and dark, and a phone (light). */
const VARIANTS = [
  { name: 'light', viewport: { width: 1280, height: 800 }, colorScheme: 'light' },
  { name: 'dark', viewport: { width: 1280, height: 800 }, colorScheme: 'dark' },
  { name: 'phone', viewport: { width: 375, height: 740 }, colorScheme: 'light', isMobile: true },
];

const slug = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Fills the demo project through the API: sign-in methods, users, a team, keys. */
async function seed(server, projectId) {
  const signIn = await api(server, 'POST', '/auth/password/sign-in', internal.client, OWNER);
  const admin = { projectId, accessType: 'admin', adminAccessToken: signIn.body.access_token };
  await api(server, 'PATCH', '/internal/projects/current', admin, {
    config: { magic_link_enabled: true, sign_up_enabled: true, allow_user_api_keys: true, client_team_creation_enabled: true },
  });
  await createProjectKeys(server, admin);
  const ada = await api(server, 'POST', '/users', admin, {
    primary_email: 'ada@example.com',
    primary_email_auth_enabled: true,
    primary_email_verified: true,
    password: PASSWORD,
    display_name: 'Ada Lovelace',
  });
  for (const [email, name] of [
    ['grace@example.com', 'Grace Hopper'],
    ['alan@example.com', 'Alan Turing'],
  ]) {
    await api(server, 'POST', '/users', admin, { primary_email: email, primary_email_auth_enabled: true, display_name: name });
  }
  const team = await api(server, 'POST', '/teams', admin, { display_name: 'Engineering', creator_user_id: ada.body.id });
  return { userId: ada.body.id, teamId: team.body.id };
}

/** Waits until a page has settled: network quiet and no loading text left. */
async function settle(page) {
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.waitForFunction(() => !/Loading|Rendering…/.test(document.body.innerText), null, { timeout: 5000 }).catch(() => {});
  await page.waitForTimeout(150);
}

/** The page names after `--only` (comma-separated), or null for every page. */
function onlyPages() {
  const i = process.argv.indexOf('--only');
  return i === -1 ? null : new Set((process.argv[i + 1] ?? '').split(',').filter(Boolean));
}

async function main() {
  const only = onlyPages();
  if (!only) rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const server = await startTestServer('sqlite');
  const browser = await launchChromium();
  try {
    const ownerContext = await browser.newContext();
    const projectId = await signUpOwnerWithProject(await ownerContext.newPage(), server.url, OWNER, 'Acme');
    const owner = await ownerContext.storageState();
    await ownerContext.close();
    const { userId, teamId } = await seed(server, projectId);

    // The end user signs in on the hosted pages once; the signed-in pages reuse that state.
    const endContext = await browser.newContext();
    const endPage = await endContext.newPage();
    const handler = `/projects/${projectId}/handler`;
    await endPage.goto(`${server.url}${handler}/sign-in`);
    await endPage.getByLabel('Email', { exact: true }).fill('ada@example.com');
    await endPage.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await endPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await endPage.waitForURL(/account-settings/);
    const endUser = await endContext.storageState();
    await endContext.close();

    // Dashboard pages: every link of its navigation, plus a user's and a team's page.
    const probe = await browser.newContext({ storageState: owner, viewport: { width: 1280, height: 800 } });
    const probePage = await probe.newPage();
    await probePage.goto(`${server.url}/projects/${projectId}`);
    await settle(probePage);
    const links = await probePage.$$eval('nav a[href]', (as) =>
      as.map((a) => ({ href: a.getAttribute('href'), text: a.textContent ?? '' })),
    );
    await probe.close();
    const dashboard = new Map([['projects', '/']]);
    for (const { href, text } of links) {
      if (!href?.startsWith('/') || href.startsWith('//')) continue;
      const name = href === `/projects/${projectId}` ? 'overview' : slug(text) || slug(href);
      if (![...dashboard.values()].includes(href)) dashboard.set(name, href);
    }
    dashboard.set('user', `/projects/${projectId}/users/${userId}`);
    dashboard.set('team', `/projects/${projectId}/teams/${teamId}`);

    const hostedSignedOut = new Map([
      ['sign-in', `${handler}/sign-in`],
      ['sign-up', `${handler}/sign-up`],
      ['sign-in-german', `${handler}/sign-in?lang=de`],
      ['forgot-password', `${handler}/forgot-password`],
      ['password-reset-bad-code', `${handler}/password-reset?code=bad`],
      ['error', `${handler}/error`],
    ]);
    const hostedSignedIn = new Map([
      ['account-settings', `${handler}/account-settings`],
      ['team-invitation-bad-code', `${handler}/team-invitation?code=bad`],
      ['cli-auth-confirm', `${handler}/cli-auth-confirm?login_code=example`],
    ]);

    const groups = [
      { area: 'dashboard', pages: dashboard, state: owner },
      { area: 'hosted', pages: hostedSignedOut, state: undefined },
      { area: 'hosted', pages: hostedSignedIn, state: endUser },
    ];
    for (const variant of VARIANTS) {
      for (const group of groups) {
        const context = await browser.newContext({
          storageState: group.state,
          viewport: variant.viewport,
          colorScheme: variant.colorScheme,
          isMobile: variant.isMobile ?? false,
          hasTouch: variant.isMobile ?? false,
          deviceScaleFactor: 1,
        });
        const page = await context.newPage();
        for (const [name, path] of group.pages) {
          if (only && !only.has(name)) continue;
          await page.goto(`${server.url}${path}`);
          await settle(page);
          // A 256-colour palette (libimagequant, dithered) keeps interface pictures sharp at about a third of the size.
          const png = await page.screenshot();
          await sharp(png)
            .png({ palette: true, quality: 90, effort: 10, compressionLevel: 9 })
            .toFile(join(OUT, `${group.area}-${name}-${variant.name}.png`));
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const files = readdirSync(OUT);
  const bytes = files.reduce((sum, f) => sum + statSync(join(OUT, f)).size, 0);
  console.log(`wrote ${files.length} screenshots to docs/screenshots/ (${(bytes / 1024 / 1024).toFixed(2)} MB)`);
}

await main();
