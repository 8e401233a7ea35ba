import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject } from '../../test/helpers/api.ts';
import { DEFAULT_TEMPLATES } from './defaults.ts';

/**
 * Email drafts, rendering and sending answer as upstream's route handlers and
 * e2e snapshots (stack-auth `emails/send-email`, `emails/render-email`, `email-templates`,
 * `internal/projects/current`).
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
const REQUIRES = {
  code: 'REQUIRES_CUSTOM_EMAIL_SERVER',
  error: 'This action requires a custom SMTP server. Please edit your email server configuration and try again.',
};

function withoutDetails(body: Record<string, unknown>) {
  const { details: _d, ...rest } = body;
  return rest;
}

describeWithServer('emails as upstream answers them', (get) => {
  it('refuses custom templates and send-email on the shared email server with REQUIRES_CUSTOM_EMAIL_SERVER', async () => {
    const server = get();
    const { admin, server: srv } = await createProject(server);
    const user = await api(server, 'POST', '/users', srv, { primary_email: 'shared@example.com' });
    const sent = await api(server, 'POST', '/emails/send-email', srv, {
      user_ids: [user.body.id],
      html: '<p>x</p>',
      subject: 'x',
      notification_category_name: 'Marketing',
    });
    assertKnownError(sent, 'REQUIRES_CUSTOM_EMAIL_SERVER', 400);
    assert.deepEqual(withoutDetails(sent.body), REQUIRES);
    assertKnownError(
      await api(server, 'POST', '/internal/email-templates', admin, { display_name: 'T' }),
      'REQUIRES_CUSTOM_EMAIL_SERVER',
      400,
    );
    const id = DEFAULT_TEMPLATES.password_reset.id;
    assertKnownError(
      await api(server, 'PATCH', `/internal/email-templates/${id}`, admin, { tsx_source: 'mock_tsx_source' }),
      'REQUIRES_CUSTOM_EMAIL_SERVER',
      400,
    );
    assertKnownError(await api(server, 'DELETE', `/internal/email-templates/${id}`, admin), 'REQUIRES_CUSTOM_EMAIL_SERVER', 400);
    // Built-in emails still go out on the shared server, and previews still render.
    assert.equal((await api(server, 'POST', '/emails/render-email', admin, { template_id: id })).status, 200);
  });

  it('lists every requested user in send-email results as {user_id} only, as upstream; html needs no subject', async () => {
    const server = get();
    const { server: srv } = await createProject(server, OWN_SMTP);
    const withEmail = await api(server, 'POST', '/users', srv, { primary_email: 'has@example.com' });
    const without = await api(server, 'POST', '/users', srv, {});
    const res = await api(server, 'POST', '/emails/send-email', srv, {
      user_ids: [withEmail.body.id, without.body.id],
      html: '<p>No subject given</p>',
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { results: [{ user_id: withEmail.body.id }, { user_id: without.body.id }] });
    assert.deepEqual((await api(server, 'POST', '/emails/send-email', srv, { user_ids: [], html: '<p>x</p>', subject: 'x' })).body, {
      results: [],
    });
    const both = await api(server, 'POST', '/emails/send-email', srv, {
      user_ids: [withEmail.body.id],
      all_users: true,
      html: '<p>x</p>',
      subject: 'x',
    });
    assert.deepEqual(withoutDetails(both.body), { code: 'SCHEMA_ERROR', error: 'Exactly one of user_ids or all_users must be provided' });
  });

  it("answers upstream's 400 texts for an unknown notification category, template or draft", async () => {
    const server = get();
    const { server: srv } = await createProject(server, OWN_SMTP);
    const user = await api(server, 'POST', '/users', srv, { primary_email: 'u@example.com' });
    const category = await api(server, 'POST', '/emails/send-email', srv, {
      user_ids: [user.body.id],
      html: '<p>x</p>',
      subject: 'x',
      notification_category_name: 'Invalid',
    });
    assert.equal(category.status, 400);
    assert.equal(category.text, 'Notification category not found with given name');
    const template = await api(server, 'POST', '/emails/send-email', srv, {
      user_ids: [user.body.id],
      template_id: MISSING,
      variables: { name: 'x' },
      notification_category_name: 'Marketing',
    });
    assert.equal(template.status, 400);
    assert.equal(template.text, 'No template found with given template_id');
    const draft = await api(server, 'POST', '/emails/send-email', srv, { user_ids: [user.body.id], draft_id: MISSING });
    assert.equal(draft.status, 400);
  });

  it('refuses an invalid theme_id and non-object variables with SCHEMA_ERROR', async () => {
    const server = get();
    const { server: srv, admin } = await createProject(server, OWN_SMTP);
    const user = await api(server, 'POST', '/users', srv, { primary_email: 'v@example.com' });
    const theme = await api(server, 'POST', '/emails/send-email', srv, {
      user_ids: [user.body.id],
      html: '<p>x</p>',
      subject: 'x',
      theme_id: 'non-existent-theme',
    });
    assertKnownError(theme, 'SCHEMA_ERROR', 400);
    assert.match(theme.body.error, /body\.theme_id/);
    for (const variables of [[1, 2], 'text', 5]) {
      const res = await api(server, 'POST', '/emails/send-email', srv, {
        user_ids: [user.body.id],
        template_id: DEFAULT_TEMPLATES.password_reset.id,
        variables,
      });
      assertKnownError(res, 'SCHEMA_ERROR', 400);
      assert.match(res.body.error, /body\.variables/);
    }
    assertKnownError(
      await api(server, 'POST', '/internal/email-drafts', admin, { display_name: 'D', theme_id: 'nope' }),
      'SCHEMA_ERROR',
      400,
    );
    assertKnownError(
      await api(server, 'POST', '/emails/render-email', admin, {
        template_tsx_source: 'export function EmailTemplate() { return <p>x</p>; }',
        variables: [1],
      }),
      'SCHEMA_ERROR',
      400,
    );
  });

  it("renders send-email with the project's theme when theme_id is a UUID naming no theme, as upstream's getEmailThemeForThemeId", async () => {
    const server = get();
    const { server: srv } = await createProject(server, OWN_SMTP);
    const user = await api(server, 'POST', '/users', srv, { primary_email: 'fallback@example.com' });
    const unknown = await api(server, 'POST', '/emails/send-email', srv, {
      user_ids: [user.body.id],
      html: '<p>fallback</p>',
      subject: 'unknown-theme',
      theme_id: MISSING,
    });
    assert.equal(unknown.status, 200, unknown.text);
    assert.deepEqual(unknown.body, { results: [{ user_id: user.body.id }] });
    assert.equal(
      (
        await api(server, 'POST', '/emails/send-email', srv, {
          user_ids: [user.body.id],
          html: '<p>fallback</p>',
          subject: 'default-theme',
        })
      ).status,
      200,
    );
    assert.equal(
      (
        await api(server, 'POST', '/emails/send-email', srv, {
          user_ids: [user.body.id],
          html: '<p>fallback</p>',
          subject: 'no-theme',
          theme_id: false,
        })
      ).status,
      200,
    );
    const items = (await api(server, 'GET', '/emails/outbox', srv)).body.items as Array<{ subject: string; html: string }>;
    const html = (subject: string) => items.find((i) => i.subject === subject)!.html;
    assert.equal(html('unknown-theme'), html('default-theme'));
    assert.notEqual(html('no-theme'), html('default-theme'), 'the comparison can fail: a themed email differs from an unthemed one');
  });

  it('keeps theme_id: false on a draft, meaning no theme', async () => {
    const server = get();
    const { admin } = await createProject(server, OWN_SMTP);
    const created = await api(server, 'POST', '/internal/email-drafts', admin, {
      display_name: 'Plain',
      theme_id: false,
      tsx_source: 'export function EmailTemplate() { return <p>plain</p>; }',
    });
    assert.equal(created.status, 200, created.text);
    const got = await api(server, 'GET', `/internal/email-drafts/${created.body.id}`, admin);
    assert.equal(got.body.theme_id, false);
    const rendered = await api(server, 'POST', '/emails/render-email', admin, {
      theme_id: false,
      template_tsx_source: got.body.tsx_source,
    });
    // No theme: upstream's bare document (Html, Tailwind, Body) around the template.
    assert.match(rendered.body.html, /<html dir="ltr" lang="en"><head><\/head><body>.*<p>plain<\/p>.*<\/body><\/html>$/);
    assert.ok(!rendered.body.html.includes('#f6f6f6'), "not the default theme's layout");
    assert.equal((await api(server, 'PATCH', `/internal/email-drafts/${created.body.id}`, admin, { theme_id: DARK })).status, 200);
    assert.equal((await api(server, 'GET', `/internal/email-drafts/${created.body.id}`, admin)).body.theme_id, DARK);
  });

  it("answers render-email's unknown theme or template id with upstream's 400 text", async () => {
    const server = get();
    const { admin } = await createProject(server);
    const theme = await api(server, 'POST', '/emails/render-email', admin, {
      theme_id: MISSING,
      template_tsx_source: 'export function EmailTemplate() { return <p>x</p>; }',
    });
    assert.equal(theme.status, 400);
    assert.equal(theme.text, 'No theme found with given id');
    const template = await api(server, 'POST', '/emails/render-email', admin, { template_id: MISSING });
    assert.equal(template.status, 400);
    assert.equal(template.text, 'No template found with given id');
  });

  it('reports config.email_theme as the default theme id, never null, and refuses an unknown one with "Invalid email theme"', async () => {
    const server = get();
    const { admin, project } = await createProject(server);
    assert.equal(project.config.email_theme, '1df07ae6-abf3-4a40-83a5-a1a2cbe336ac');
    const bad = await api(server, 'PATCH', '/internal/projects/current', admin, { config: { email_theme: MISSING } });
    assert.equal(bad.status, 400);
    assert.equal(bad.text, 'Invalid email theme');
    const dark = await api(server, 'PATCH', '/internal/projects/current', admin, { config: { email_theme: DARK } });
    assert.equal(dark.status, 200, dark.text);
    assert.equal(dark.body.config.email_theme, DARK);
    const themes = await api(server, 'GET', '/internal/email-themes', admin);
    assert.deepEqual(themes.body.themes.map((t: { display_name: string }) => t.display_name).slice(0, 3), [
      'Default Light',
      'Default Dark',
      'Default Colorful',
    ]);
  });
});
