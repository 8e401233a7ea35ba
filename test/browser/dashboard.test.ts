/**
 * Browser test: the developer dashboard in real Chromium (playwright-core,
 * /usr/bin/chromium, headless) against a freshly started server. Walks the "Done when" list:
 * first owner sign-up, project, keys, magic link, trusted domains (a bad one rejected as you type),
 * a user found by search and renamed, a team permission granted, a template edited with the
 * preview following, a test email found in the outbox, and the overview chart counting the user.
 * Saves a screenshot of every page visited under test-artifacts/dashboard/. On the first dialect
 * only (`browserTestDialects`): what the dashboard calls is tested on every dialect by the core
 * and route tests (core/projects, core/users, core/teams, core/permissions, core/emails, core/metrics,
 * core/sessions for impersonation).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import { describeWithServer } from '../helpers/suite.ts';
import { api, internal } from '../helpers/api.ts';
import { startSmtpReceiver } from '../helpers/smtp.ts';
import { browserTestDialects, closeChromium, openChromium } from '../helpers/browser.ts';

const ARTIFACTS = 'test-artifacts/dashboard';
const OWNER = { email: 'owner@example.com', password: 'a long enough password 1' };

let browser: Browser;
const smtp = await startSmtpReceiver();
after(() => smtp.stop());
before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await openChromium();
});
after(async () => {
  await closeChromium(browser);
});

describeWithServer(
  'dashboard in Chromium',
  (get, dialect) => {
    let page: Page;
    let projectId = '';
    let publishableKey = '';
    let shot = 0;
    const snap = async (name: string) => {
      shot++;
      await page.screenshot({ path: `${ARTIFACTS}/${dialect}-${String(shot).padStart(2, '0')}-${name}.png`, fullPage: true });
    };
    const nav = (label: string) =>
      page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: label, exact: true }).click();
    const client = () => ({ projectId, accessType: 'client' as const, publishableClientKey: publishableKey });
    const errors: string[] = [];

    before(async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      page = await context.newPage();
      page.setDefaultTimeout(15_000);
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) errors.push(m.text());
      });
    });
    after(async () => {
      await page?.context().close();
    });

    it('signs up the first owner on a fresh server and shows the project list', async () => {
      const server = get();
      await page.goto(`${server.url}/`);
      await page.getByRole('heading', { name: 'Welcome to Gatehouse' }).waitFor();
      await snap('first-run-sign-up');
      await page.getByLabel('Email', { exact: true }).fill(OWNER.email);
      await page.getByLabel('Password', { exact: true }).fill('short');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByText('Password must be at least 8 characters long.').waitFor();
      await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
      await page.getByText('No projects yet.').waitFor();
      await snap('projects-empty');
    });

    it('closes sign-up once the owner exists: another browser sees sign-in only, and the owner signs in there', async () => {
      const server = get();
      const other = await browser.newContext();
      const p2 = await other.newPage();
      await p2.goto(`${server.url}/`);
      await p2.getByRole('heading', { name: 'Sign in to Gatehouse' }).waitFor();
      assert.equal(await p2.getByRole('button', { name: 'Create an account' }).count(), 0);
      await p2.getByLabel('Email', { exact: true }).fill(OWNER.email);
      await p2.getByLabel('Password', { exact: true }).fill('wrong password');
      await p2.getByRole('button', { name: 'Sign in' }).click();
      await p2.getByText('Wrong e-mail or password.').waitFor();
      await p2.getByLabel('Password', { exact: true }).fill(OWNER.password);
      await p2.getByRole('button', { name: 'Sign in' }).click();
      await p2.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
      await other.close();
    });

    it('creates a project and its keys', async () => {
      await page.getByLabel('Project name').fill('Acme');
      await page.getByLabel('Description (optional)').fill('The Acme app');
      await page.getByRole('button', { name: 'Create project' }).click();
      await page.getByRole('heading', { name: 'Acme' }).waitFor();
      projectId = /\/projects\/([0-9a-f-]{36})/.exec(page.url())![1]!;
      await page.getByTestId('total-users').waitFor();
      assert.equal(await page.getByTestId('total-users').textContent(), '0');
      await snap('overview-empty');

      await nav('Project keys');
      await page.getByText('No keys yet.').waitFor();
      await page.getByRole('button', { name: 'New keys' }).click();
      await page.getByRole('dialog', { name: 'Create keys' }).waitFor();
      await page.getByLabel('Description').fill('Web app');
      await page.getByRole('button', { name: 'Create keys' }).click();
      const snippet = await page.getByTestId('env-snippet').textContent();
      assert.match(snippet!, new RegExp(`NEXT_PUBLIC_STACK_PROJECT_ID=${projectId}`));
      publishableKey = /NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY=(\S+)/.exec(snippet!)![1]!;
      assert.match(snippet!, /STACK_SECRET_SERVER_KEY=\S+/);
      await page.getByRole('button', { name: 'Copy environment variables' }).waitFor();
      await page.getByRole('table').getByText('Web app').waitFor();
      await snap('keys');
      const res = await api(get(), 'GET', '/projects/current', client());
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.display_name, 'Acme');
    });

    it('turns on magic link and adds a trusted domain, rejecting a bad one as you type', async () => {
      await nav('Auth methods');
      const magic = page.getByRole('switch', { name: /Magic link/ });
      await magic.waitFor();
      assert.equal(await magic.isChecked(), false);
      await magic.click();
      await page.getByRole('switch', { name: /Magic link/, checked: true }).waitFor();
      await assert.doesNotReject(async () => {
        for (let i = 0; i < 50; i++) {
          const r = await api(get(), 'GET', '/projects/current', client());
          if (r.body.config.magic_link_enabled === true) return;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error('magic link was not enabled');
      });
      await page.getByRole('button', { name: 'New trusted domain' }).click();
      await page.getByLabel('Domain', { exact: true }).fill('https://bad..example.com/*');
      await page.getByText('Not a valid domain').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Add domain' }).isDisabled(), true);
      await snap('auth-methods-bad-domain');
      await page.getByLabel('Domain', { exact: true }).fill('https://app.example.com');
      assert.equal(await page.getByText('Not a valid domain').count(), 0);
      await page.getByLabel('Handler path').fill('handler');
      await page.getByText('Handler path must start with /').waitFor();
      await page.getByLabel('Handler path').fill('/auth/handler');
      await page.getByRole('button', { name: 'Add domain' }).click();
      await page.getByRole('table', { name: 'Trusted domains' }).getByText('https://app.example.com').waitFor();
      await snap('auth-methods');
    });

    it('shows the production-mode rules as a readable error', async () => {
      // A localhost trusted domain blocks production mode (allow_localhost alone does not, as upstream).
      await nav('Auth methods');
      await page.getByRole('button', { name: 'New trusted domain' }).click();
      await page.getByLabel('Domain', { exact: true }).fill('http://localhost:3000');
      await page.getByLabel('Handler path').fill('/handler');
      await page.getByRole('button', { name: 'Add domain' }).click();
      await page.getByRole('table', { name: 'Trusted domains' }).getByText('http://localhost:3000').waitFor();
      await nav('Project settings');
      await page.getByText('Before switching on production mode:').waitFor();
      await page.getByRole('switch', { name: 'Production mode' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: /localhost/ })
        .waitFor();
      await snap('settings-production-error');
    });

    it('creates a user, finds them by search and edits their display name', async () => {
      await nav('Users');
      await page.getByText('No users yet.').waitFor();
      await snap('users-empty');
      await page.getByRole('button', { name: 'New user' }).click();
      await page.getByRole('dialog', { name: 'Create a user' }).waitFor();
      await page.getByLabel('Email', { exact: true }).fill('ada@example.com');
      await page.getByLabel('Display name').fill('Ada');
      await page.getByRole('button', { name: 'Create user' }).click();
      await page.getByRole('heading', { name: 'Ada', exact: true }).waitFor();
      await nav('Users');
      await page.getByRole('table', { name: 'Users' }).waitFor();
      await page.getByRole('searchbox', { name: 'Search users' }).fill('nobody-here');
      await page.getByText('No users match "nobody-here".').waitFor();
      await page.getByRole('searchbox', { name: 'Search users' }).fill('ada@exa');
      await page.getByRole('table', { name: 'Users' }).getByText('ada@example.com').waitFor();
      await snap('users-search');
      await page.getByRole('table', { name: 'Users' }).getByRole('link', { name: 'Ada' }).click();
      await page.getByLabel('Display name').fill('Ada Lovelace');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.getByText('Saved.').waitFor();
      await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
      await page.getByText('User API keys are turned off for this project').waitFor();
      await page.getByLabel(/^Server metadata/).fill('{ not json');
      await page.getByText(/Not valid JSON/).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Save metadata' }).isDisabled(), true);
      await page.getByLabel(/^Server metadata/).fill('{"plan": "pro"}');
      await page.getByRole('button', { name: 'Save metadata' }).click();
      await snap('user');
    });

    it('impersonates the user: the hosted account page opens signed in as them', async () => {
      const popupPromise = page.context().waitForEvent('page');
      await page.getByRole('button', { name: 'Impersonate' }).click();
      const popup = await popupPromise;
      const popupLog: string[] = [];
      popup.on('console', (m) => popupLog.push(`console: ${m.text()}`));
      popup.on('pageerror', (e) => popupLog.push(`page error: ${e.message}`));
      popup.on('response', (r) => popupLog.push(`${r.status()} ${r.url()}`));
      await popup.waitForLoadState();
      assert.match(popup.url(), new RegExp(`/projects/${projectId}/handler/account-settings`));
      try {
        await popup.getByRole('heading', { name: 'Account settings' }).waitFor();
      } catch (error) {
        await popup.screenshot({ path: `${ARTIFACTS}/${dialect}-failed-impersonation.png`, fullPage: true });
        throw new Error(`${(error as Error).message}\nThe popup (${popup.url()}) logged:\n${popupLog.join('\n')}`);
      }
      await popup.getByText('ada@example.com').first().waitFor();
      assert.equal(await popup.getByLabel('Display name').inputValue(), 'Ada Lovelace');
      shot++;
      await popup.screenshot({
        path: `${ARTIFACTS}/${dialect}-${String(shot).padStart(2, '0')}-impersonation-account-settings.png`,
        fullPage: true,
      });
      await popup.close();
      await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    });

    it('defines a team permission and grants it to the user in a new team', async () => {
      const userUrl = page.url();
      await nav('Permissions');
      await page.getByRole('button', { name: 'New team permission' }).click();
      await page.getByLabel('Permission ID').first().fill('Read Docs');
      await page.getByText('Only lowercase letters').first().waitFor();
      await page.getByLabel('Permission ID').first().fill('read:docs');
      await page.getByRole('button', { name: 'Create permission' }).first().click();
      await page.getByRole('table', { name: 'Team permissions' }).getByRole('cell', { name: 'read:docs', exact: true }).first().waitFor();
      await snap('permissions');
      await page.goto(userUrl);
      await page.getByRole('button', { name: 'New team' }).click();
      await page.getByLabel('New team name').fill('Engineering');
      await page.getByRole('button', { name: 'Create team' }).click();
      const team = page.getByRole('group', { name: 'Team Engineering' });
      await team.waitFor();
      await team.getByRole('combobox').selectOption('read:docs');
      await team.getByRole('button', { name: 'Grant' }).click();
      await team.getByRole('list', { name: 'Team permissions' }).getByText('read:docs').waitFor();
      await snap('user-team-permission');
      // Revoking asks first; cancelling keeps the grant.
      await team.getByRole('listitem').filter({ hasText: 'read:docs' }).getByRole('button', { name: 'Revoke' }).click();
      await team.getByText('Revoke read:docs?').waitFor();
      await team.getByRole('button', { name: 'Cancel' }).click();
      await team.getByRole('list', { name: 'Team permissions' }).getByText('read:docs').waitFor();
      await nav('Teams');
      await page.getByRole('table', { name: 'Teams' }).getByRole('link', { name: 'Engineering' }).click();
      await page.getByRole('group', { name: 'Team Engineering' }).getByText('read:docs').waitFor();
      await page.getByText('No pending invitations.').waitFor();
      await page.getByRole('button', { name: 'Invite' }).click();
      await page.getByLabel('Invitee email').fill('grace@example.com');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByRole('table', { name: 'Invitations' }).getByText('grace@example.com').waitFor();
      await snap('team');
    });

    it('sends a test email through standard SMTP settings before saving them', async () => {
      await nav('Emails');
      const recipient = `smtp-check-${dialect}@example.com`;
      await page.getByLabel('Server', { exact: true }).selectOption('standard');
      await page.getByLabel('Host').fill('127.0.0.1');
      await page.getByLabel('Port').fill('99999');
      await page.getByText('Port must be between 0 and 65535.').waitFor();
      await page.getByLabel('Port').fill(String(smtp.port));
      await page.getByLabel('Username').fill('user');
      await page.getByLabel('Password', { exact: true }).fill('secret');
      await page.getByLabel('Sender name').fill('Acme');
      await page.getByLabel('Sender email').fill('noreply@example.com');
      await page.getByLabel('Recipient').fill(recipient);
      await page.getByRole('button', { name: 'Send test email' }).click();
      await page.getByText(`Test email sent to ${recipient}.`).waitFor();
      const mail = await smtp.waitFor(recipient);
      assert.equal(mail.subject, 'Test email from Gatehouse');
      await snap('emails-standard-smtp');
      // Save them: custom templates and send-email need the project's own SMTP server (upstream's
      // REQUIRES_CUSTOM_EMAIL_SERVER on the shared one).
      await page.getByRole('button', { name: 'Save email server' }).click();
      await page.getByRole('button', { name: 'Saving…' }).waitFor({ state: 'detached' });
      await page.reload();
      await page.getByLabel('Server', { exact: true }).waitFor();
      assert.equal(await page.getByLabel('Server', { exact: true }).inputValue(), 'standard');
    });

    it('edits a template and the preview follows', async () => {
      await nav('Emails');
      const editor = page.getByLabel('TSX source');
      await editor.waitFor();
      await page.frameLocator('iframe[title="Email preview"]').locator('body').waitFor();
      await editor.fill(`import { Text } from '@react-email/components';
import { Subject, NotificationCategory, Props } from '@stackframe/emails';

export function EmailTemplate({ user, project }: Props<any>) {
  return (
    <>
      <Subject value="Preview check" />
      <NotificationCategory value="Transactional" />
      <Text>Dashboard preview marker 42</Text>
    </>
  );
}
`);
      await page.frameLocator('iframe[title="Email preview"]').getByText('Dashboard preview marker 42').waitFor();
      assert.equal(await page.getByTestId('preview-subject').textContent(), 'Preview check');
      await snap('emails-template-preview');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('button', { name: 'Save', exact: true }).and(page.locator(':disabled')).waitFor();
    });

    it('creates a draft and sends it to all users after confirming', async () => {
      await page.getByRole('tab', { name: 'Drafts' }).click();
      await page.getByText('No drafts yet.').waitFor();
      await page.getByRole('button', { name: 'New draft' }).click();
      await page.getByLabel('New draft name').fill('Newsletter');
      await page.getByRole('button', { name: 'Create draft' }).click();
      await page.getByLabel('Draft', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Send to all users' }).click();
      await page.getByRole('button', { name: 'Yes, send it' }).click();
      await page.getByText('Newsletter was queued for every user').waitFor();
      await snap('emails-draft-sent');
    });

    it('lists the sent draft among the sent emails', async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByRole('table', { name: 'Sent emails' }).getByText('News from Acme').waitFor();
      await snap('emails-outbox');
    });

    it('counts the new user on the overview chart', async () => {
      await nav('Overview');
      await page.getByTestId('total-users').waitFor();
      assert.equal(await page.getByTestId('total-users').textContent(), '1');
      const chart = page.getByTestId('chart-signups');
      assert.equal(await chart.getAttribute('data-today'), '1');
      await chart.locator('canvas').first().waitFor();
      await page.getByRole('link', { name: 'Ada Lovelace' }).first().waitFor();
      await snap('overview');
    });

    it('invites a second owner through a dashboard team: transfer, invited sign-up, join, shared project', async () => {
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Your teams' }).click();
      await page.getByRole('heading', { name: 'Your teams' }).waitFor();
      await page.getByRole('button', { name: 'New team' }).click();
      await page.getByLabel('Team name').fill('Core');
      await page.getByRole('button', { name: 'Create team' }).click();
      const core = page.getByRole('region', { name: 'Core', exact: true });
      await core.waitFor();
      // The internal project's team_admin includes $invite_members, so the creator of a dashboard
      // team may invite a co-owner straight away.
      await core.getByRole('button', { name: 'Invite an owner' }).click();
      await page.getByLabel('Email of the new owner').fill('second-owner@example.com');
      await core.getByRole('button', { name: 'Send invitation' }).click();
      await core.getByRole('table').getByText('second-owner@example.com').waitFor();
      await snap('your-teams');

      await page.goto(`${get().url}/projects/${projectId}/settings`);
      await page.getByLabel('New owner team').selectOption({ label: 'Core' });
      await page.getByRole('button', { name: 'Transfer' }).click();
      await page
        .getByText('You are a member of no other team to transfer this project to.')
        .or(page.getByLabel('New owner team'))
        .first()
        .waitFor();

      const other = await browser.newContext();
      const p2 = await other.newPage();
      await p2.goto(`${get().url}/`);
      await p2.getByRole('button', { name: 'Create your account' }).click();
      await p2.getByLabel('Email', { exact: true }).fill('second-owner@example.com');
      await p2.getByLabel('Password', { exact: true }).fill(OWNER.password);
      await p2.getByRole('button', { name: 'Sign up' }).click();
      await p2.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
      await p2.getByText('No projects yet.').waitFor();
      // The invitation email (kept in the built-in outbox) carries the hosted team-invitation link.
      let link: string | undefined;
      let seen = '';
      for (let i = 0; i < 100 && !link; i++) {
        const emails = await api(get(), 'GET', '/internal/emails', internal.admin);
        seen = emails.text.slice(0, 1000);
        const toInvitee = (emails.body.items as { to: string[]; html: string | null; text: string | null }[]).filter((e) =>
          e.to.includes('second-owner@example.com'),
        );
        const m = /(https?:\/\/[^\s"'<>]*team-invitation\?code=[^\s"'<>&]+)/.exec(
          toInvitee.map((e) => `${e.html ?? ''} ${e.text ?? ''}`).join(' '),
        );
        if (m) link = m[1]!;
        else await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(link, `no invitation link in the outbox: ${seen}`);
      await p2.goto(link);
      await p2.getByRole('button', { name: 'Join Core' }).click();
      await p2.getByText('You joined Core.').waitFor();
      await p2.goto(`${get().url}/`);
      await p2.getByRole('link', { name: 'Acme' }).waitFor();
      shot++;
      await p2.screenshot({ path: `${ARTIFACTS}/${dialect}-${String(shot).padStart(2, '0')}-second-owner-projects.png`, fullPage: true });
      await other.close();
    });

    it('creates a second project, switches to it and deletes it after confirming', async () => {
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'All projects' }).click();
      await page.getByRole('button', { name: 'New project' }).click();
      await page.getByLabel('Project name').fill('Scratch');
      await page.getByRole('button', { name: 'Create project' }).click();
      await page.getByRole('heading', { name: 'Scratch' }).waitFor();
      await page.locator('#project-switcher').selectOption({ label: 'Acme' });
      await page.getByRole('heading', { name: 'Acme' }).waitFor();
      await page.locator('#project-switcher').selectOption({ label: 'Scratch' });
      await page.getByRole('heading', { name: 'Scratch' }).waitFor();
      await nav('Project settings');
      await page.getByRole('button', { name: 'Delete project' }).click();
      await page.getByText('Delete Scratch and all its users? This cannot be undone.').waitFor();
      await snap('settings-delete-confirm');
      await page.getByRole('button', { name: 'Yes, delete project' }).click();
      await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
      await page.getByRole('link', { name: 'Acme' }).waitFor();
      await page.getByRole('link', { name: 'Scratch' }).waitFor({ state: 'detached' });
      assert.deepEqual(errors, []);
    });
  },
  {},
  browserTestDialects(),
);
