import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Credentials } from '../index.ts';
import { createCoreProject, describeWithCore, type TestCore } from '../../test/helpers/core-client.ts';
import { DEFAULT_TEMPLATES } from './defaults.ts';

/**
 * Email drafts, rendering and sending answer as upstream's route handlers and
 * e2e snapshots (stack-auth `emails/send-email`, `emails/render-email`, `email-templates`,
 * `internal/projects/current`). In-process (test/helpers/core-client.ts): known errors by code,
 * catalogue status and message (the wire's `error`), plain refusals by kind and text (the wire's
 * whole body).
 */

const OWN_SMTP = {
  email_config: {
    type: 'standard',
    host: '127.0.0.1',
    port: 9,
    username: 'u',
    password: 'p',
    sender_name: 'S',
    sender_email: 'noreply@example.com',
  },
};
const DARK = 'a0172b5d-cff0-463b-83bb-85124697373a';
const MISSING = '5c1f1c0e-4f7a-4a39-9c66-2a3b3f6a0e11';
const REQUIRES_MESSAGE = 'This action requires a custom SMTP server. Please edit your email server configuration and try again.';

const createUser = async (t: TestCore, srv: Credentials, body: Record<string, unknown>) =>
  (await t.call<{ id: string }>('users.create', srv, { body })).id;

describeWithCore('emails as upstream answers them', (get) => {
  it('refuses custom templates and send-email on the shared email server with REQUIRES_CUSTOM_EMAIL_SERVER', async () => {
    const t = get();
    const { admin, server: srv } = await createCoreProject(t);
    const user = await createUser(t, srv, { primary_email: 'shared@example.com' });
    const sent = await t.refuses(
      'emails.sendEmail',
      srv,
      {
        body: { user_ids: [user], html: '<p>x</p>', subject: 'x', notification_category_name: 'Marketing' },
      },
      'REQUIRES_CUSTOM_EMAIL_SERVER',
      400,
    );
    assert.equal(sent.message, REQUIRES_MESSAGE);
    await t.refuses('emails.createTemplate', admin, { body: { display_name: 'T' } }, 'REQUIRES_CUSTOM_EMAIL_SERVER', 400);
    const id = DEFAULT_TEMPLATES.password_reset.id;
    await t.refuses(
      'emails.updateTemplate',
      admin,
      { params: { id }, body: { tsx_source: 'mock_tsx_source' } },
      'REQUIRES_CUSTOM_EMAIL_SERVER',
      400,
    );
    await t.refuses('emails.deleteTemplate', admin, { params: { id } }, 'REQUIRES_CUSTOM_EMAIL_SERVER', 400);
    // Built-in emails still go out on the shared server, and previews still render.
    await t.call('emails.renderEmail', admin, { body: { template_id: id } });
  });

  it('lists every requested user in send-email results as {user_id} only, as upstream; html needs no subject', async () => {
    const t = get();
    const { server: srv } = await createCoreProject(t, OWN_SMTP);
    const withEmail = await createUser(t, srv, { primary_email: 'has@example.com' });
    const without = await createUser(t, srv, {});
    const res = await t.call('emails.sendEmail', srv, { body: { user_ids: [withEmail, without], html: '<p>No subject given</p>' } });
    assert.deepEqual(res, { results: [{ user_id: withEmail }, { user_id: without }] });
    assert.deepEqual(await t.call('emails.sendEmail', srv, { body: { user_ids: [], html: '<p>x</p>', subject: 'x' } }), { results: [] });
    const both = await t.refuses(
      'emails.sendEmail',
      srv,
      {
        body: { user_ids: [withEmail], all_users: true, html: '<p>x</p>', subject: 'x' },
      },
      'SCHEMA_ERROR',
      400,
    );
    assert.equal(both.message, 'Exactly one of user_ids or all_users must be provided');
  });

  it("answers upstream's 400 texts for an unknown notification category, template or draft", async () => {
    const t = get();
    const { server: srv } = await createCoreProject(t, OWN_SMTP);
    const user = await createUser(t, srv, { primary_email: 'u@example.com' });
    assert.equal(
      (
        await t.refusesPlain(
          'emails.sendEmail',
          srv,
          {
            body: { user_ids: [user], html: '<p>x</p>', subject: 'x', notification_category_name: 'Invalid' },
          },
          'bad-request',
        )
      ).message,
      'Notification category not found with given name',
    );
    assert.equal(
      (
        await t.refusesPlain(
          'emails.sendEmail',
          srv,
          {
            body: { user_ids: [user], template_id: MISSING, variables: { name: 'x' }, notification_category_name: 'Marketing' },
          },
          'bad-request',
        )
      ).message,
      'No template found with given template_id',
    );
    await t.refusesPlain('emails.sendEmail', srv, { body: { user_ids: [user], draft_id: MISSING } }, 'bad-request');
  });

  it('refuses an invalid theme_id and non-object variables with SCHEMA_ERROR', async () => {
    const t = get();
    const { server: srv, admin } = await createCoreProject(t, OWN_SMTP);
    const user = await createUser(t, srv, { primary_email: 'v@example.com' });
    const theme = await t.refuses(
      'emails.sendEmail',
      srv,
      {
        body: { user_ids: [user], html: '<p>x</p>', subject: 'x', theme_id: 'non-existent-theme' },
      },
      'SCHEMA_ERROR',
      400,
    );
    assert.match(theme.message, /body\.theme_id/);
    for (const variables of [[1, 2], 'text', 5]) {
      const res = await t.refuses(
        'emails.sendEmail',
        srv,
        {
          body: { user_ids: [user], template_id: DEFAULT_TEMPLATES.password_reset.id, variables },
        },
        'SCHEMA_ERROR',
        400,
      );
      assert.match(res.message, /body\.variables/);
    }
    await t.refuses('emails.createDraft', admin, { body: { display_name: 'D', theme_id: 'nope' } }, 'SCHEMA_ERROR', 400);
    await t.refuses(
      'emails.renderEmail',
      admin,
      {
        body: { template_tsx_source: 'export function EmailTemplate() { return <p>x</p>; }', variables: [1] },
      },
      'SCHEMA_ERROR',
      400,
    );
  });

  it("renders send-email with the project's theme when theme_id is a UUID naming no theme, as upstream's getEmailThemeForThemeId", async () => {
    const t = get();
    const { server: srv } = await createCoreProject(t, OWN_SMTP);
    const user = await createUser(t, srv, { primary_email: 'fallback@example.com' });
    const send = (body: Record<string, unknown>) =>
      t.call('emails.sendEmail', srv, { body: { user_ids: [user], html: '<p>fallback</p>', ...body } });
    assert.deepEqual(await send({ subject: 'unknown-theme', theme_id: MISSING }), { results: [{ user_id: user }] });
    await send({ subject: 'default-theme' });
    await send({ subject: 'no-theme', theme_id: false });
    const { items } = await t.call<{ items: Array<{ subject: string; html: string }> }>('emails.listOutbox', srv);
    const html = (subject: string) => items.find((i) => i.subject === subject)!.html;
    assert.equal(html('unknown-theme'), html('default-theme'));
    assert.notEqual(html('no-theme'), html('default-theme'), 'the comparison can fail: a themed email differs from an unthemed one');
  });

  it('keeps theme_id: false on a draft, meaning no theme', async () => {
    const t = get();
    const { admin } = await createCoreProject(t, OWN_SMTP);
    const created = await t.call<{ id: string }>('emails.createDraft', admin, {
      body: { display_name: 'Plain', theme_id: false, tsx_source: 'export function EmailTemplate() { return <p>plain</p>; }' },
    });
    const got = await t.call<{ theme_id: unknown; tsx_source: string }>('emails.getDraft', admin, { params: { id: created.id } });
    assert.equal(got.theme_id, false);
    const rendered = await t.call<{ html: string }>('emails.renderEmail', admin, {
      body: { theme_id: false, template_tsx_source: got.tsx_source },
    });
    // No theme: upstream's bare document (Html, Tailwind, Body) around the template.
    assert.match(rendered.html, /<html dir="ltr" lang="en"><head><\/head><body>.*<p>plain<\/p>.*<\/body><\/html>$/);
    assert.ok(!rendered.html.includes('#f6f6f6'), "not the default theme's layout");
    await t.call('emails.updateDraft', admin, { params: { id: created.id }, body: { theme_id: DARK } });
    assert.equal((await t.call<{ theme_id: unknown }>('emails.getDraft', admin, { params: { id: created.id } })).theme_id, DARK);
  });

  it("answers render-email's unknown theme or template id with upstream's 400 text", async () => {
    const t = get();
    const { admin } = await createCoreProject(t);
    assert.equal(
      (
        await t.refusesPlain(
          'emails.renderEmail',
          admin,
          {
            body: { theme_id: MISSING, template_tsx_source: 'export function EmailTemplate() { return <p>x</p>; }' },
          },
          'bad-request',
        )
      ).message,
      'No theme found with given id',
    );
    assert.equal(
      (await t.refusesPlain('emails.renderEmail', admin, { body: { template_id: MISSING } }, 'bad-request')).message,
      'No template found with given id',
    );
  });

  it('reports config.email_theme as the default theme id, never null, and refuses an unknown one with "Invalid email theme"', async () => {
    const t = get();
    const { admin, project } = await createCoreProject(t);
    assert.equal((project as { config?: { email_theme?: string } }).config?.email_theme, '1df07ae6-abf3-4a40-83a5-a1a2cbe336ac');
    assert.equal(
      (await t.refusesPlain('projects.updateCurrent', admin, { body: { config: { email_theme: MISSING } } }, 'bad-request')).message,
      'Invalid email theme',
    );
    const dark = await t.call<{ config: { email_theme: string } }>('projects.updateCurrent', admin, {
      body: { config: { email_theme: DARK } },
    });
    assert.equal(dark.config.email_theme, DARK);
    const themes = await t.call<{ themes: Array<{ display_name: string }> }>('emails.listThemes', admin);
    assert.deepEqual(themes.themes.map((theme) => theme.display_name).slice(0, 3), ['Default Light', 'Default Dark', 'Default Colorful']);
  });
});
