/**
 * Browser test: every hosted page and every dashboard page, in its empty, filled and
 * error states, in light and dark mode at 1280 and 375 px wide, checked with axe-core (WCAG 2.2 AA
 * rule set: wcag2a, wcag2aa, wcag21a, wcag21aa, wcag22aa) with zero violations allowed, and
 * measured for sideways scrolling at 375 px and at 400% zoom (320 CSS px of a 1280 px window).
 * Each state is reached once per width and scanned in light, then switched to dark in place: the
 * dark scan runs axe's colour rules when the DOM and layout are unchanged (the dark theme is CSS
 * under `prefers-color-scheme` only) and every rule otherwise. Then keyboard-only walks: sign-up →
 * account settings → sign-out on the hosted pages, and dashboard project → user → key revoke.
 * One server on the first configured dialect (this checks the UI; the API it calls is tested on
 * both databases elsewhere) and the process's shared browser per part keep the run short; the
 * parts (`AccessibilityPart`) are three test files, so the runner's two slots share the work.
 * axe-core's source reaches the page over the DevTools protocol, as a context's init script or
 * evaluated (the pages' Content-Security-Policy stays on).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { api, createProjectKeys, internal } from '../helpers/api.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { testDialects } from '../helpers/dialects.ts';
import { closeChromium, openChromium, signUpOwnerWithProject } from '../helpers/browser.ts';
import { startModelServer, type ModelServer } from '../helpers/model-server.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const OWNER = { email: 'a11y-owner@example.com', password: 'a long enough password 1' };
const PASSWORD = 'correct-horse-battery';

/** A page state to check: open `path`, then bring it into the state with `act`. */
interface Visit {
  name: string;
  path: string;
  act?: (page: Page) => Promise<void>;
  ready: (page: Page) => Promise<unknown>;
}

/** A window size; every state is checked in it in light and then in dark colours (see `check`). */
interface Mode {
  name: string;
  width: number;
  height: number;
}
const MODES: Mode[] = [
  { name: '1280', width: 1280, height: 900 },
  { name: '375', width: 375, height: 812 },
];

/**
 * axe-core violations on the page as readable lines (rule, impact, first targets). `colourOnly`
 * runs only the WCAG rules axe files under `cat.color` (colour contrast, links told apart by
 * colour): the ones whose outcome can change when nothing but colours changed.
 */
async function axeViolations(page: Page, colourOnly = false): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(
    async ({ tags, colourOnly }) => {
      const axe = (
        window as unknown as {
          axe: {
            getRules: (tags: string[]) => { ruleId: string; tags: string[] }[];
            run: (
              ctx: unknown,
              o: unknown,
            ) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[]; failureSummary: string }[] }[] }>;
          };
        }
      ).axe;
      const colourRules = axe
        .getRules(tags)
        .filter((r) => r.tags.includes('cat.color'))
        .map((r) => r.ruleId);
      if (!colourRules.includes('color-contrast')) throw new Error(`axe's colour rules lack color-contrast: ${colourRules.join(', ')}`);
      const runOnly = colourOnly ? { type: 'rule', values: colourRules } : { type: 'tag', values: tags };
      const r = await axe.run(document, { runOnly, resultTypes: ['violations'] });
      return r.violations.map(
        (v) =>
          `${v.id} (${v.impact}): ${v.nodes
            .slice(0, 3)
            .map((n) => `${n.target.join(' ')} — ${n.failureSummary.split('\n').slice(1, 2).join(' ').trim()}`)
            .join(' | ')}`,
      );
    },
    { tags: WCAG_TAGS, colourOnly },
  );
  return result;
}

/**
 * The page as two short hashes: `structure`, what it is apart from its colours (the serialized
 * DOM with attributes and text, form values, every element's box), and `colours`, every
 * element's computed text, background and border colours. Across a colour-scheme switch, an
 * unchanged `structure` means only colours changed, so only axe's colour rules can answer
 * differently; a changed `colours` shows the switch reached the page.
 */
function structureAndColours(page: Page): Promise<{ structure: string; colours: string }> {
  return page.evaluate(() => {
    const hash = (parts: string[]) => {
      const text = parts.join('|');
      let h = 0x811c9dc5;
      for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
      return `${text.length}:${(h >>> 0).toString(16)}`;
    };
    const structure = [document.documentElement.outerHTML];
    const colours: string[] = [];
    for (const e of Array.from(document.querySelectorAll('*'))) {
      const r = e.getBoundingClientRect();
      structure.push(`${r.x},${r.y},${r.width},${r.height}`);
      if (e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement) structure.push(e.value);
      const style = getComputedStyle(e);
      colours.push(style.color, style.backgroundColor, style.borderTopColor);
    }
    return { structure: hash(structure), colours: hash(colours) };
  });
}

/** The page's horizontal overflow in CSS px (0 when nothing scrolls sideways). */
function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/**
 * Lets the page settle before it is scanned, on conditions instead of a fixed pause: two
 * animation frames (the render that follows the last event has painted) and every finite CSS
 * animation or transition finished (spinners loop forever and are left running).
 */
function settled(page: Page): Promise<void> {
  return page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const finite = document.getAnimations().filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    await Promise.all(finite.map((a) => a.finished.catch(() => {})));
  });
}

/** Which share of the checks a test file runs: 1280 px, 375 px (each light and dark), or zoom, keyboard and language. */
export type AccessibilityPart = 'desktop' | 'phone' | 'zoom-keyboard-language';

const PART_MODES: Record<AccessibilityPart, readonly string[]> = {
  desktop: ['1280'],
  phone: ['375'],
  'zoom-keyboard-language': [],
};

/** Declares the accessibility checks of `part` (one server, one browser, the shared fixtures). */
export function accessibilitySuite(part: AccessibilityPart): void {
  describe(`accessibility in Chromium: ${part} [${testDialects()[0]}]`, () => {
    let server: TestServer;
    let browser: Browser;
    let model: ModelServer;
    let projectId = '';
    let ownerState: Awaited<ReturnType<BrowserContext['storageState']>>;
    let endUserState: Awaited<ReturnType<BrowserContext['storageState']>>;
    let userId = '';
    let teamId = '';
    const pageErrors: string[] = [];

    const launch = () => openChromium();

    before(async () => {
      // A loopback model server, so the dashboard assistant's page is on.
      model = await startModelServer();
      server = await startTestServer(testDialects()[0]!, {
        ai: { baseUrl: model.baseUrl, model: 'test-model', dailyTokenBudget: 0, docs: () => [] },
      });
      browser = await launch();
      // The dashboard owner signs up through the dashboard itself (first run).
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      projectId = await signUpOwnerWithProject(page, server.url, OWNER);
      ownerState = await ctx.storageState();
      await ctx.close();
      // Filled states: a user with a team, keys, magic link and user API keys on.
      const signIn = await api(server, 'POST', '/auth/password/sign-in', internal.client, { email: OWNER.email, password: OWNER.password });
      const admin = { projectId, accessType: 'admin' as const, adminAccessToken: signIn.body.access_token as string };
      const patch = await api(server, 'PATCH', '/internal/projects/current', admin, {
        config: {
          magic_link_enabled: true,
          sign_up_enabled: true,
          allow_user_api_keys: true,
          client_user_deletion_enabled: true,
          client_team_creation_enabled: true,
        },
      });
      assert.equal(patch.status, 200, patch.text);
      await createProjectKeys(server, admin);
      const user = await api(server, 'POST', '/users', admin, {
        primary_email: 'ada@example.com',
        primary_email_auth_enabled: true,
        password: PASSWORD,
        display_name: 'Ada',
      });
      assert.equal(user.status, 201, user.text);
      userId = user.body.id;
      const team = await api(server, 'POST', '/teams', admin, { display_name: 'Engineering', creator_user_id: userId });
      assert.equal(team.status, 201, team.text);
      teamId = team.body.id;
      // The team page's SSO sections with a row: a claimed domain and the TXT record to publish.
      const domain = await api(server, 'POST', `/teams/${teamId}/domains`, admin, { domain: 'engineering.example' });
      assert.equal(domain.status, 201, domain.text);
      const key = await api(server, 'POST', '/user-api-keys', admin, { user_id: userId, description: 'CI key', expires_at_millis: null });
      assert.equal(key.status, 200, key.text);
      // The end user's browser session on the project's hosted pages.
      const endCtx = await browser.newContext();
      const endPage = await endCtx.newPage();
      await endPage.goto(`${server.url}/projects/${projectId}/handler/sign-in`);
      await endPage.getByLabel('Email', { exact: true }).fill('ada@example.com');
      await endPage.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await endPage.getByRole('button', { name: 'Sign in', exact: true }).click();
      await endPage.waitForURL(/account-settings/);
      await endPage.getByLabel('Display name').waitFor();
      endUserState = await endCtx.storageState();
      await endCtx.close();
    });

    after(async () => {
      await closeChromium(browser);
      await server?.close();
      await model?.close();
    });

    const h = () => `/projects/${projectId}/handler`;
    const heading = (name: string | RegExp) => (p: Page) => p.getByRole('heading', { name, level: 1 }).waitFor();
    const text = (t: string | RegExp) => (p: Page) => p.getByText(t).first().waitFor();
    const submit = (name: string) => (p: Page) => p.getByRole('button', { name, exact: true }).click();

    /** Hosted pages seen signed out: empty, filled and error states. */
    const signedOutHosted = (): Visit[] => [
      { name: 'sign-in empty', path: `${h()}/sign-in`, ready: (p) => p.getByLabel('Email', { exact: true }).waitFor() },
      {
        name: 'sign-in filled',
        path: `${h()}/sign-in`,
        ready: (p) => p.getByLabel('Email', { exact: true }).waitFor(),
        act: async (p) => {
          await p.getByLabel('Email', { exact: true }).fill('ada@example.com');
          await p.getByLabel('Password', { exact: true }).fill('secret');
        },
      },
      {
        name: 'sign-in client errors',
        path: `${h()}/sign-in`,
        ready: (p) => p.getByLabel('Email', { exact: true }).waitFor(),
        act: async (p) => {
          await submit('Sign in')(p);
          await text('Please enter your email address.')(p);
        },
      },
      {
        name: 'sign-in server error',
        path: `${h()}/sign-in`,
        ready: (p) => p.getByLabel('Email', { exact: true }).waitFor(),
        act: async (p) => {
          await p.getByLabel('Email', { exact: true }).fill('ada@example.com');
          await p.getByLabel('Password', { exact: true }).fill('wrong password');
          await submit('Sign in')(p);
          await p.getByRole('alert').first().waitFor();
        },
      },
      {
        name: 'sign-in magic link tab',
        path: `${h()}/sign-in`,
        ready: (p) => p.getByRole('tab', { name: /link/i }).waitFor(),
        act: async (p) => {
          await p.getByRole('tab', { name: /link/i }).click();
        },
      },
      { name: 'sign-up empty', path: `${h()}/sign-up`, ready: (p) => p.getByLabel('Email', { exact: true }).waitFor() },
      {
        name: 'sign-up errors',
        path: `${h()}/sign-up`,
        ready: (p) => p.getByLabel('Email', { exact: true }).waitFor(),
        act: async (p) => {
          await p.getByLabel('Email', { exact: true }).fill('not-an-email');
          await submit('Sign up')(p);
          await p.locator('[aria-invalid=true]').first().waitFor();
        },
      },
      { name: 'forgot-password empty', path: `${h()}/forgot-password`, ready: (p) => p.getByLabel('Email', { exact: true }).waitFor() },
      {
        name: 'forgot-password error',
        path: `${h()}/forgot-password`,
        ready: (p) => p.getByLabel('Email', { exact: true }).waitFor(),
        act: async (p) => {
          await submit('Send reset link')(p);
          await p.locator('[aria-invalid=true]').first().waitFor();
        },
      },
      {
        name: 'forgot-password sent',
        path: `${h()}/forgot-password`,
        ready: (p) => p.getByLabel('Email', { exact: true }).waitFor(),
        act: async (p) => {
          await p.getByLabel('Email', { exact: true }).fill('nobody@example.com');
          await submit('Send reset link')(p);
          await p.getByRole('status').first().waitFor();
        },
      },
      { name: 'password-reset bad code', path: `${h()}/password-reset?code=bad`, ready: (p) => p.getByRole('alert').first().waitFor() },
      {
        name: 'email-verification bad code',
        path: `${h()}/email-verification?code=bad`,
        ready: (p) => p.getByRole('alert').first().waitFor(),
      },
      {
        name: 'magic-link-callback bad code',
        path: `${h()}/magic-link-callback?code=bad`,
        ready: (p) => p.getByRole('alert').first().waitFor(),
      },
      { name: 'oauth-callback without code', path: `${h()}/oauth-callback`, ready: (p) => p.getByRole('alert').first().waitFor() },
      { name: 'error page', path: `${h()}/error?errorCode=OUTER_OAUTH_TIMEOUT`, ready: (p) => p.getByRole('alert').first().waitFor() },
      { name: 'unknown page', path: `${h()}/nope`, ready: (p) => p.getByRole('alert').first().waitFor() },
      { name: 'team-invitation signed out', path: `${h()}/team-invitation?code=bad`, ready: text(/accept the invitation/) },
      { name: 'mfa empty', path: `${h()}/mfa`, ready: (p) => p.locator('input').first().waitFor() },
      {
        name: 'mfa error',
        path: `${h()}/mfa`,
        ready: (p) => p.locator('input').first().waitFor(),
        act: async (p) => {
          await p.locator('form button[type=submit]').click();
          await p.locator('[aria-invalid=true]').first().waitFor();
        },
      },
      {
        name: 'cli-auth-confirm signed out',
        path: `${h()}/cli-auth-confirm?login_code=x`,
        ready: (p) => p.getByRole('link').first().waitFor(),
      },
      {
        name: 'sign-out',
        path: `${h()}/sign-out`,
        ready: (p) => p.waitForURL(/sign-in/).then(() => p.getByLabel('Email', { exact: true }).waitFor()),
      },
      { name: 'internal sign-in', path: '/handler/sign-in', ready: (p) => p.getByLabel('Email', { exact: true }).waitFor() },
      { name: 'sign-up in German', path: `${h()}/sign-up?lang=de`, ready: heading('Neues Konto erstellen') },
      {
        name: 'sign-in in German with errors',
        path: `${h()}/sign-in?lang=de`,
        ready: heading('Bei Ihrem Konto anmelden'),
        act: async (p) => {
          await submit('Anmelden')(p);
          await p.locator('[aria-invalid=true]').first().waitFor();
        },
      },
      {
        name: 'password shown',
        path: `${h()}/sign-in?lang=en`,
        ready: (p) => p.getByLabel('Password', { exact: true }).waitFor(),
        act: async (p) => {
          await p.getByLabel('Password', { exact: true }).fill('visible');
          await p.getByRole('button', { name: 'Show password' }).click();
        },
      },
    ];

    /** Hosted pages seen by the signed-in end user. */
    const signedInHosted = (): Visit[] => [
      { name: 'account settings', path: `${h()}/account-settings`, ready: (p) => p.getByLabel('Display name').waitFor() },
      {
        name: 'account settings errors',
        path: `${h()}/account-settings`,
        ready: (p) => p.getByLabel('Display name').waitFor(),
        act: async (p) => {
          await p.getByLabel('New password', { exact: true }).fill('one password');
          await p.getByRole('button', { name: 'Change password' }).click();
          await p.locator('[aria-invalid=true]').first().waitFor();
        },
      },
      { name: 'sign-in when signed in', path: `${h()}/sign-in`, ready: text(/already signed in/) },
      { name: 'team-invitation bad code', path: `${h()}/team-invitation?code=bad`, ready: (p) => p.getByRole('alert').first().waitFor() },
      { name: 'cli-auth-confirm', path: `${h()}/cli-auth-confirm?login_code=x`, ready: (p) => p.getByRole('button').first().waitFor() },
    ];

    const dash = () => `/projects/${projectId}`;
    /** Dashboard pages of the signed-in owner. */
    const dashboardPages = (): Visit[] => [
      { name: 'projects', path: '/', ready: heading('Projects') },
      {
        name: 'projects create error',
        path: '/',
        ready: heading('Projects'),
        act: async (p) => {
          await p.getByRole('button', { name: 'New project' }).click();
          await submit('Create project')(p);
          await p.getByRole('alert').first().waitFor();
        },
      },
      { name: 'overview', path: dash(), ready: (p) => p.getByTestId('total-users').waitFor() },
      { name: 'users', path: `${dash()}/users`, ready: (p) => p.getByRole('table', { name: 'Users' }).waitFor() },
      {
        name: 'users search empty',
        path: `${dash()}/users`,
        ready: (p) => p.getByRole('table', { name: 'Users' }).waitFor(),
        act: async (p) => {
          await p.getByRole('searchbox').fill('nobody-here');
          await text(/No users match/)(p);
        },
      },
      { name: 'user', path: `${dash()}/users/${userId}`, ready: (p) => p.getByLabel('Display name').waitFor() },
      {
        name: 'user metadata error',
        path: `${dash()}/users/${userId}`,
        ready: (p) => p.getByLabel(/^Server metadata/).waitFor(),
        act: async (p) => {
          await p.getByLabel(/^Server metadata/).fill('{ not json');
          await text(/Not valid JSON/)(p);
        },
      },
      {
        name: 'user metadata too deep',
        path: `${dash()}/users/${userId}`,
        ready: (p) => p.getByLabel(/^Client metadata/).waitFor(),
        act: async (p) => {
          await p.getByLabel(/^Client metadata/).fill(`${'['.repeat(40)}${']'.repeat(40)}`);
          await text(/Too deep/)(p);
        },
      },
      {
        name: 'user sign out everywhere dialog',
        path: `${dash()}/users/${userId}`,
        ready: (p) => p.getByRole('button', { name: 'Sign out everywhere' }).waitFor(),
        act: async (p) => {
          await p.getByRole('button', { name: 'Sign out everywhere' }).click();
          await p.getByRole('dialog', { name: 'Sign out everywhere' }).waitFor();
        },
      },
      {
        name: 'user restrict dialog',
        path: `${dash()}/users/${userId}`,
        ready: (p) => p.getByRole('button', { name: 'Restrict user' }).waitFor(),
        act: async (p) => {
          await p.getByRole('button', { name: 'Restrict user' }).click();
          await p.getByRole('dialog', { name: 'Restrict this user' }).waitFor();
        },
      },
      {
        name: 'user delete dialog',
        path: `${dash()}/users/${userId}`,
        ready: (p) => p.getByRole('button', { name: 'Delete user' }).waitFor(),
        act: async (p) => {
          await p.getByRole('button', { name: 'Delete user' }).click();
          await p
            .getByRole('dialog', { name: 'Delete this user' })
            .getByLabel(/^Type .* to confirm/)
            .waitFor();
        },
      },
      {
        name: 'user add to team combobox',
        path: `${dash()}/users/${userId}`,
        ready: (p) => p.getByRole('combobox', { name: 'Add to a team' }).waitFor(),
        act: async (p) => {
          await p.getByRole('combobox', { name: 'Add to a team' }).fill('zzz');
          await text('No other team matches.')(p);
        },
      },
      { name: 'teams', path: `${dash()}/teams`, ready: (p) => p.getByRole('table', { name: 'Teams' }).waitFor() },
      {
        name: 'team',
        path: `${dash()}/teams/${teamId}`,
        ready: async (p) => {
          await heading('Engineering')(p);
          await p.getByRole('table', { name: 'Domains' }).waitFor();
        },
      },
      {
        name: 'team add member combobox',
        path: `${dash()}/teams/${teamId}`,
        ready: (p) => p.getByRole('combobox', { name: 'Add a member' }).waitFor(),
        act: async (p) => {
          // Ada is the team's only member and the project's only user: no one else to add.
          await p.getByRole('combobox', { name: 'Add a member' }).fill('ada');
          await text('No user outside the team matches.')(p);
        },
      },
      {
        name: 'team invite dialog',
        path: `${dash()}/teams/${teamId}`,
        ready: (p) => p.getByRole('button', { name: 'Invite' }).waitFor(),
        act: async (p) => {
          await p.getByRole('button', { name: 'Invite' }).click();
          await p.getByRole('dialog', { name: 'Invite by email' }).waitFor();
        },
      },
      {
        name: 'team delete dialog',
        path: `${dash()}/teams/${teamId}`,
        ready: (p) => p.getByRole('button', { name: 'Delete team' }).waitFor(),
        act: async (p) => {
          await p.getByRole('button', { name: 'Delete team' }).click();
          await p.getByRole('dialog', { name: 'Delete this team' }).waitFor();
        },
      },
      { name: 'permissions', path: `${dash()}/permissions`, ready: heading('Permissions') },
      {
        name: 'permissions error',
        path: `${dash()}/permissions`,
        ready: (p) => p.getByRole('button', { name: 'New team permission' }).waitFor(),
        act: async (p) => {
          await p.getByRole('button', { name: 'New team permission' }).click();
          await p.getByLabel('Permission ID').first().fill('Bad Id');
          await text(/Only lowercase letters/)(p);
        },
      },
      { name: 'auth methods', path: `${dash()}/auth-methods`, ready: (p) => p.getByRole('switch').first().waitFor() },
      {
        name: 'auth methods bad domain',
        path: `${dash()}/auth-methods`,
        ready: (p) => p.getByRole('button', { name: 'New trusted domain' }).waitFor(),
        act: async (p) => {
          await p.getByRole('button', { name: 'New trusted domain' }).click();
          await p.getByLabel('Domain', { exact: true }).fill('https://bad..example.com');
          await text(/Not a valid domain/)(p);
        },
      },
      { name: 'keys', path: `${dash()}/keys`, ready: (p) => p.getByRole('table').first().waitFor() },
      { name: 'connect your app', path: `${dash()}/connect`, ready: heading('Connect your app') },
      { name: 'emails', path: `${dash()}/emails`, ready: (p) => p.getByLabel('TSX source').waitFor() },
      { name: 'webhooks', path: `${dash()}/webhooks`, ready: heading('Webhooks') },
      { name: 'settings', path: `${dash()}/settings`, ready: heading('Project settings') },
      {
        name: 'settings branding error',
        path: `${dash()}/settings`,
        ready: (p) => p.getByLabel('Accent colour, light mode').waitFor(),
        act: async (p) => {
          await p.getByLabel('Accent colour, light mode').fill('#ffff00');
          await text(/4.5:1/)(p);
        },
      },
      {
        name: 'keys revoke confirm',
        path: `${dash()}/keys`,
        ready: (p) => p.getByRole('button', { name: 'Revoke' }).first().waitFor(),
        act: async (p) => {
          await p.getByRole('button', { name: 'Revoke' }).first().click();
          await p.getByRole('button', { name: 'Yes, revoke' }).waitFor();
        },
      },
      {
        name: 'menu open',
        path: dash(),
        ready: (p) => p.getByTestId('total-users').waitFor(),
        act: async (p) => {
          const menu = p.getByRole('button', { name: 'Menu' });
          if (await menu.isVisible()) {
            await menu.click();
            await p.getByRole('navigation', { name: 'Project' }).waitFor();
          }
        },
      },
      {
        name: 'keys create dialog',
        path: `${dash()}/keys`,
        ready: (p) => p.getByRole('button', { name: 'New keys' }).waitFor(),
        act: async (p) => {
          await p.getByRole('button', { name: 'New keys' }).click();
          await p.getByRole('dialog', { name: 'Create keys' }).waitFor();
        },
      },
      {
        name: 'command palette',
        path: dash(),
        ready: (p) => p.getByTestId('total-users').waitFor(),
        act: async (p) => {
          await p.keyboard.press('Control+k');
          await p.getByRole('combobox', { name: 'Search pages, users and teams' }).fill('us');
          await p.getByRole('dialog', { name: 'Go to' }).getByRole('option', { name: /Users/ }).first().waitFor();
        },
      },
      { name: 'owner teams', path: '/team', ready: heading('Your teams') },
      { name: 'server settings', path: '/server-settings', ready: (p) => p.getByLabel('Base URL').waitFor() },
      {
        name: 'server settings error',
        path: '/server-settings',
        ready: (p) => p.getByLabel('Base URL').waitFor(),
        act: async (p) => {
          await p.getByLabel('Base URL').fill('not a url');
          await text(/Use an http or https URL/)(p);
        },
      },
      { name: 'assistant empty', path: `${dash()}/assistant`, ready: (p) => p.getByLabel('Your question').waitFor() },
      {
        name: 'assistant answered',
        path: `${dash()}/assistant`,
        ready: (p) => p.getByLabel('Your question').waitFor(),
        act: async (p) => {
          model.script.push({
            text: 'Turn on **Magic link** on the Auth methods page, or from code:\n```ts\nawait project.update({ config: { magic_link_enabled: true } });\n```',
          });
          await p.getByLabel('Your question').fill('How do I turn on magic links?');
          await p.getByRole('button', { name: 'Send' }).click();
          await p.getByRole('button', { name: 'Copy snippet 1' }).waitFor();
          await p.getByRole('button', { name: 'Send' }).waitFor();
        },
      },
      { name: 'unknown project', path: '/projects/00000000-0000-4000-8000-000000000000', ready: text(/does not exist/) },
    ];

    const signedOutDashboard = (): Visit[] => [
      { name: 'dashboard sign-in', path: '/', ready: heading('Sign in to Gatehouse') },
      {
        name: 'dashboard sign-in error',
        path: '/',
        ready: heading('Sign in to Gatehouse'),
        act: async (p) => {
          await submit('Sign in')(p);
          await p.locator('[aria-invalid=true]').first().waitFor();
        },
      },
    ];

    /**
     * Visits every state in a fresh context of `mode`, scans it in light colours with every WCAG
     * rule, then switches the same page to dark (`prefers-color-scheme`, which is all the UI's
     * dark theme keys on) and scans it again: with axe's colour rules when the DOM and every box
     * stayed the same (`structureAndColours`), with every rule and the sideways check otherwise; a
     * dark state with no colour changed from light is a problem too.
     * Answers the problems found, each tagged with its colour scheme.
     */
    async function check(mode: Mode, visits: Visit[], state?: typeof ownerState): Promise<string[]> {
      const context = await browser.newContext({
        viewport: { width: mode.width, height: mode.height },
        colorScheme: 'light',
        ...(state ? { storageState: state } : {}),
      });
      // axe-core in every document of the context from its start (as an init script, compiled once
      // per renderer and run before the page's own scripts, which it leaves alone) instead of sent over
      // the DevTools protocol after each navigation: about 5% of this file's CPU.
      await context.addInitScript({ content: AXE_SOURCE });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      page.on('pageerror', (e) => pageErrors.push(`${mode.name} ${page.url()}: ${e.message}`));
      const problems: string[] = [];
      const scan = async (tag: string, colourOnly: boolean) => {
        for (const line of await axeViolations(page, colourOnly)) problems.push(`${tag}: ${line}`);
        if (colourOnly) return;
        const overflow = await sidewaysOverflow(page);
        if (overflow > 0) problems.push(`${tag}: scrolls sideways by ${overflow}px`);
      };
      for (const v of visits) {
        try {
          await page.emulateMedia({ colorScheme: 'light' });
          await page.goto(server.url + v.path);
          await v.ready(page);
          await v.act?.(page);
          await settled(page);
          await scan(`[light ${mode.name}] ${v.name}`, false);
          const light = await structureAndColours(page);
          await page.emulateMedia({ colorScheme: 'dark' });
          await settled(page);
          const dark = await structureAndColours(page);
          if (dark.colours === light.colours) problems.push(`[dark ${mode.name}] ${v.name}: no colour changed from light`);
          await scan(`[dark ${mode.name}] ${v.name}`, dark.structure === light.structure);
        } catch (error) {
          problems.push(`[${mode.name}] ${v.name}: could not reach the state: ${(error as Error).message.split('\n')[0]}`);
        }
      }
      await context.close();
      return problems;
    }

    for (const mode of MODES.filter((m) => PART_MODES[part].includes(m.name))) {
      it(`hosted pages have no WCAG 2.2 AA violations and no sideways scrolling [${mode.name}, light and dark]`, async () => {
        const problems = [...(await check(mode, signedOutHosted())), ...(await check(mode, signedInHosted(), endUserState))];
        assert.deepEqual(problems, []);
      });

      it(`dashboard pages have no WCAG 2.2 AA violations and no sideways scrolling [${mode.name}, light and dark]`, async () => {
        const problems = [...(await check(mode, signedOutDashboard())), ...(await check(mode, dashboardPages(), ownerState))];
        assert.deepEqual(problems, []);
      });
    }

    if (part === 'zoom-keyboard-language') {
      it('the parts together check every mode', () => {
        assert.deepEqual(Object.values(PART_MODES).flat().sort(), MODES.map((m) => m.name).sort());
      });

      it('nothing scrolls sideways at 400% zoom (320 CSS px of a 1280 px window)', async () => {
        const zoom: Mode = { name: '400%', width: 320, height: 256 };
        const overflowOnly = async (visits: Visit[], state?: typeof ownerState) => {
          const context = await browser.newContext({
            viewport: { width: zoom.width, height: zoom.height },
            deviceScaleFactor: 4,
            ...(state ? { storageState: state } : {}),
          });
          const page = await context.newPage();
          page.setDefaultTimeout(10_000);
          const problems: string[] = [];
          for (const v of visits) {
            try {
              await page.goto(server.url + v.path);
              await v.ready(page);
              await v.act?.(page);
              const overflow = await sidewaysOverflow(page);
              if (overflow > 0) problems.push(`${v.name}: scrolls sideways by ${overflow}px`);
              const narrow = await page.evaluate(() =>
                Array.from(document.querySelectorAll('input:not([type=checkbox]):not([type=radio]),select,textarea'))
                  .filter((e) => (e as HTMLElement).offsetParent && e.getBoundingClientRect().width < 120)
                  .map((e) => e.getAttribute('name') ?? e.id ?? e.tagName),
              );
              if (narrow.length) problems.push(`${v.name}: inputs narrower than 120 px: ${narrow.join(', ')}`);
            } catch (error) {
              problems.push(`${v.name}: could not reach the state: ${(error as Error).message.split('\n')[0]}`);
            }
          }
          await context.close();
          return problems;
        };
        const problems = [
          ...(await overflowOnly(signedOutHosted().filter((v) => !v.act))),
          ...(await overflowOnly(
            signedInHosted().filter((v) => !v.act),
            endUserState,
          )),
          ...(await overflowOnly(signedOutDashboard().filter((v) => !v.act))),
          ...(await overflowOnly(
            dashboardPages().filter((v) => !v.act),
            ownerState,
          )),
        ];
        assert.deepEqual(problems, []);
      });

      /** Presses Tab until the focused element's accessible text matches `name` (at most `max` presses). */
      async function tabTo(page: Page, name: RegExp, max = 40, within?: string): Promise<void> {
        for (let i = 0; i < max; i++) {
          await page.keyboard.press('Tab');
          const label = await page.evaluate((sel) => {
            const e = document.activeElement as HTMLElement | null;
            if (!e || (sel && !e.closest(sel))) return '';
            return (e.getAttribute('aria-label') ?? e.textContent ?? '').trim() || (e as HTMLInputElement).labels?.[0]?.textContent || '';
          }, within ?? null);
          if (name.test(label)) return;
        }
        throw new Error(`Tab never reached ${name}`);
      }
      const focusedIsBody = (page: Page) => page.evaluate(() => !document.activeElement || document.activeElement === document.body);

      it('walks sign-up → account settings → sign-out with the keyboard only', async () => {
        const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
        const page = await context.newPage();
        page.setDefaultTimeout(10_000);
        await page.goto(`${server.url}${h()}/sign-up`);
        await page.getByLabel('Email', { exact: true }).waitFor();
        await tabTo(page, /^Email$/);
        await page.keyboard.type('keyboard-only@example.com');
        await tabTo(page, /^Password$/);
        await page.keyboard.type(PASSWORD);
        await tabTo(page, /^Sign up$/);
        await page.keyboard.press('Enter');
        await page.waitForURL(`${server.url}${h()}/account-settings`);
        await page.getByLabel('Display name').waitFor();
        await tabTo(page, /^Sign out$/);
        await page.keyboard.press('Enter');
        await page.waitForURL((url) => url.pathname === `${h()}/sign-in`);
        await page.getByLabel('Email', { exact: true }).waitFor();
        await context.close();
      });

      it('walks dashboard project → user → key revoke with the keyboard only', async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState: ownerState });
        const page = await context.newPage();
        page.setDefaultTimeout(10_000);
        await page.goto(`${server.url}/`);
        await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
        await tabTo(page, /^Skip to content$/, 3);
        await tabTo(page, /^Acme$/, 60);
        await page.keyboard.press('Enter');
        await page.getByTestId('total-users').waitFor();
        assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H1', 'focus moves to the new page');
        assert.match(await page.title(), /^Acme · Gatehouse$/);
        await tabTo(page, /^Users$/, 60);
        await page.keyboard.press('Enter');
        await page.getByRole('table', { name: 'Users' }).waitFor();
        assert.match(await page.title(), /^Users · Acme · Gatehouse$/);
        await tabTo(page, /^Ada$/, 60);
        await page.keyboard.press('Enter');
        await page.getByRole('table', { name: 'User API keys' }).waitFor();
        await tabTo(page, /^Revoke$/, 150, '[aria-label="User API keys"]');
        await page.keyboard.press('Enter');
        await page.getByRole('button', { name: 'Yes, revoke' }).and(page.locator(':focus')).waitFor();
        await page.keyboard.press('Escape');
        await page
          .getByRole('table', { name: 'User API keys' })
          .getByRole('button', { name: 'Revoke' })
          .and(page.locator(':focus'))
          .waitFor();
        await page.keyboard.press('Enter');
        await page.getByRole('button', { name: 'Yes, revoke' }).and(page.locator(':focus')).waitFor();
        await page.keyboard.press('Enter');
        await page.getByRole('table', { name: 'User API keys' }).getByText('Revoked').waitFor();
        // The render that showed "Revoked" has painted (and any focus move with it): no fixed pause.
        await settled(page);
        assert.equal(await focusedIsBody(page), false, 'focus stays in the page after the revoke');
        await context.close();
      });

      it('renders the hosted pages in the language the app chose, with the project colours and legal links', async () => {
        const signIn = await api(server, 'POST', '/auth/password/sign-in', internal.client, {
          email: OWNER.email,
          password: OWNER.password,
        });
        const admin = { projectId, accessType: 'admin' as const, adminAccessToken: signIn.body.access_token as string };
        const patch = await api(server, 'PATCH', '/internal/projects/current', admin, {
          config: {
            branding: {
              accent_color_light: '#0f766e',
              accent_color_dark: '#5eead4',
              terms_of_service_url: 'https://example.com/terms',
              privacy_policy_url: null,
            },
          },
        });
        assert.equal(patch.status, 200, patch.text);
        const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
        const page = await context.newPage();
        await page.goto(`${server.url}${h()}/sign-in?lang=de`);
        await page.getByRole('heading', { name: 'Bei Ihrem Konto anmelden' }).waitFor();
        assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
        await page.getByLabel('E-Mail', { exact: true }).waitFor();
        assert.equal(await page.getByTestId('legal-links').getByRole('link').innerText(), 'Nutzungsbedingungen');
        assert.equal(
          await page.getByRole('button', { name: 'Anmelden', exact: true }).evaluate((b) => getComputedStyle(b).backgroundColor),
          'rgb(15, 118, 110)',
        );
        assert.deepEqual(await axeViolations(page), []);
        // The choice stays for the visit: the sign-up link and the forgot-password page speak German too.
        await page.getByRole('link', { name: 'Registrieren' }).click();
        await page.getByRole('heading', { name: 'Neues Konto erstellen' }).waitFor();
        await page.goto(`${server.url}${h()}/forgot-password`);
        await page.getByRole('heading', { name: 'Passwort zurücksetzen' }).waitFor();
        const dark = await browser.newContext({ colorScheme: 'dark' });
        const darkPage = await dark.newPage();
        await darkPage.goto(`${server.url}${h()}/sign-in`);
        await darkPage.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
        assert.equal(
          await darkPage.getByRole('button', { name: 'Sign in', exact: true }).evaluate((b) => getComputedStyle(b).backgroundColor),
          'rgb(94, 234, 212)',
        );
        assert.deepEqual(await axeViolations(darkPage), []);
        await dark.close();
        await context.close();
      });
    }

    it('raised no uncaught errors in any page', () => {
      assert.deepEqual(pageErrors, []);
    });
  });
}
