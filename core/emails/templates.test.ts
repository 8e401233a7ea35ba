import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeWithServer } from '../../test/helpers/suite.ts';
import { api, assertKnownError, createProject } from '../../test/helpers/api.ts';
import { DEFAULT_TEMPLATES, DEFAULT_THEME_ID, DEFAULT_THEMES } from './defaults.ts';

/** A project SMTP server (unreachable; nothing is sent here): custom templates need one. */
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

const hostile: Record<string, string> = {
  "require('fs')": `const fs = require('fs'); export function EmailTemplate() { return <p>{String(fs.readFileSync('/etc/passwd'))}</p>; }`,
  'process.exit()': `export function EmailTemplate() { process.exit(1); return null; }`,
  'an infinite loop': `export function EmailTemplate() { while (true) {} }`,
  'a huge allocation': `export function EmailTemplate() { const a = new Array(5e7).fill(1); return <p>{a.length}</p>; }`,
  'globalThis.fetch': `export function EmailTemplate() { fetch('http://127.0.0.1:1/'); return null; }`,
};

describeWithServer('email themes, templates, drafts and rendering', (get) => {
  it('renders a template with a theme and returns subject and category', async () => {
    const server = get();
    const { admin } = await createProject(server);
    const res = await api(server, 'POST', '/emails/render-email', admin, {
      template_tsx_source: `import { Text } from '@react-email/components'; import { Subject, NotificationCategory } from '@stackframe/emails';
export function EmailTemplate({ user, project, variables }: { user: any; project: any; variables: any }) {
  return <><Subject value={'Hi ' + user.displayName} /><NotificationCategory value="Marketing" /><Text>{project.displayName} says {variables.word} &amp; <b>hello</b></Text></>;
}`,
      variables: { word: '<script>' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.subject, 'Hi John Doe');
    assert.equal(res.body.notification_category, 'Marketing');
    assert.match(res.body.html, /^<!DOCTYPE html><html/);
    assert.ok(res.body.html.includes('New Project says &lt;script&gt;'), res.body.html);
    const noTheme = await api(server, 'POST', '/emails/render-email', admin, {
      theme_id: false,
      template_tsx_source: 'export function EmailTemplate() { return <p>x</p>; }',
    });
    assert.equal(noTheme.body.html, '<p>x</p>');
  });

  for (const [name, source] of Object.entries(hostile)) {
    it(`refuses or stops a template that tries ${name}, and keeps serving`, async () => {
      const server = get();
      const { admin } = await createProject(server);
      const res = await api(server, 'POST', '/emails/render-email', admin, { template_tsx_source: source });
      assertKnownError(res, 'EMAIL_RENDERING_ERROR', 400);
      assert.match(res.body.error, /Failed to render email: /);
      const after = await api(server, 'POST', '/emails/render-email', admin, {
        template_tsx_source: 'export function EmailTemplate() { return <p>fine</p>; }',
      });
      assert.equal(after.status, 200);
      assert.ok(after.body.html.includes('<p>fine</p>'));
    });
  }

  it('answers EMAIL_RENDERING_ERROR with the compiler message for a syntax error', async () => {
    const server = get();
    const { admin } = await createProject(server);
    const res = await api(server, 'POST', '/emails/render-email', admin, {
      template_tsx_source: 'export function EmailTemplate() { return <p>; }',
    });
    assertKnownError(res, 'EMAIL_RENDERING_ERROR', 400);
    assert.match(res.body.details.error, /\d+:\d+: /);
  });

  it('lists the default themes and built-in templates and overrides a template', async () => {
    const server = get();
    const { admin, client, server: srv } = await createProject(server, OWN_SMTP);
    const themes = await api(server, 'GET', '/internal/email-themes', admin);
    assert.deepEqual(
      themes.body.themes.map((t: { id: string; display_name: string }) => [t.id, t.display_name]),
      [
        [DEFAULT_THEME_ID, 'Default Light'],
        ['a0172b5d-cff0-463b-83bb-85124697373a', 'Default Dark'],
        ['c7e2d94f-8a1b-4e6d-b3f5-9d0a2e7c1b8f', 'Default Colorful'],
      ],
    );
    assert.equal(DEFAULT_THEMES.length, 3);
    const templates = await api(server, 'GET', '/internal/email-templates', admin);
    assert.deepEqual(
      templates.body.templates.map((t: { id: string }) => t.id).sort(),
      Object.values(DEFAULT_TEMPLATES)
        .map((t) => t.id)
        .sort(),
    );
    for (const t of templates.body.templates) {
      const r = await api(server, 'POST', '/emails/render-email', admin, { template_id: t.id, variables: { otp: 'ABC123' } });
      assert.equal(r.status, 200, `${t.display_name}: ${r.text}`);
      assert.ok(r.body.subject, `${t.display_name} declares a subject`);
    }

    const id = DEFAULT_TEMPLATES.password_reset.id;
    const broken = await api(server, 'PATCH', `/internal/email-templates/${id}`, admin, {
      tsx_source: 'export function EmailTemplate() { return <p> }',
    });
    assertKnownError(broken, 'EMAIL_RENDERING_ERROR', 400);
    const patched = await api(server, 'PATCH', `/internal/email-templates/${id}`, admin, {
      tsx_source: `import { Subject } from '@stackframe/emails'; export function EmailTemplate({ variables }) { return <><Subject value="Custom reset" /><a href={variables.passwordResetLink}>reset</a></>; }`,
    });
    assert.equal(patched.status, 200, patched.text);
    assert.ok(patched.body.rendered_html.includes('reset'));
    assert.ok((await api(server, 'GET', `/internal/email-templates/${id}`, admin)).body.tsx_source.includes('Custom reset'));
    assert.deepEqual((await api(server, 'DELETE', `/internal/email-templates/${id}`, admin)).body, {});
    assert.equal(
      (await api(server, 'GET', `/internal/email-templates/${id}`, admin)).body.tsx_source,
      DEFAULT_TEMPLATES.password_reset.source,
    );
    assert.equal((await api(server, 'DELETE', `/internal/email-templates/${id}`, admin)).status, 400);

    assertKnownError(await api(server, 'GET', '/internal/email-templates', srv), 'INSUFFICIENT_ACCESS_TYPE', 401);
    assertKnownError(await api(server, 'GET', '/internal/email-themes', client), 'INSUFFICIENT_ACCESS_TYPE', 401);
    assertKnownError(await api(server, 'POST', '/emails/render-email', srv, {}), 'INSUFFICIENT_ACCESS_TYPE', 401);
  });

  it('creates, updates and deletes themes, templates and drafts', async () => {
    const server = get();
    const { admin } = await createProject(server, OWN_SMTP);
    const theme = await api(server, 'POST', '/internal/email-themes', admin, { display_name: 'Dark' });
    assert.equal(theme.status, 200, theme.text);
    const darkSource = `export function EmailTheme({ children }) { return <html><body style={{ backgroundColor: '#000' }}>{children}</body></html>; }`;
    assert.deepEqual((await api(server, 'PATCH', `/internal/email-themes/${theme.body.id}`, admin, { tsx_source: darkSource })).body, {
      display_name: 'Dark',
    });
    assertKnownError(
      await api(server, 'PATCH', `/internal/email-themes/${theme.body.id}`, admin, { tsx_source: 'export const x = 1;' }),
      'EMAIL_RENDERING_ERROR',
      400,
    );
    const got = await api(server, 'GET', `/internal/email-themes/${theme.body.id}`, admin);
    assert.equal(got.body.tsx_source, darkSource);
    const rendered = await api(server, 'POST', '/emails/render-email', admin, {
      theme_id: theme.body.id,
      template_tsx_source: 'export function EmailTemplate() { return <p>x</p>; }',
    });
    assert.ok(rendered.body.html.includes('background-color:#000'));

    const template = await api(server, 'POST', '/internal/email-templates', admin, { display_name: 'Welcome', theme_id: theme.body.id });
    assert.ok((await api(server, 'GET', `/internal/email-templates/${template.body.id}`, admin)).body.tsx_source.includes('EmailTemplate'));

    const draft = await api(server, 'POST', '/internal/email-drafts', admin, { display_name: 'Launch' });
    assert.equal(draft.status, 200, draft.text);
    assert.deepEqual((await api(server, 'PATCH', `/internal/email-drafts/${draft.body.id}`, admin, { display_name: 'Launch 2' })).body, {
      success: true,
    });
    const drafts = await api(server, 'GET', '/internal/email-drafts', admin);
    assert.deepEqual(
      drafts.body.drafts.map((d: { display_name: string; sent_at_millis: number | null }) => [d.display_name, d.sent_at_millis]),
      [['Launch 2', null]],
    );
    assert.deepEqual((await api(server, 'DELETE', `/internal/email-drafts/${draft.body.id}`, admin)).body, { success: true });
    assert.equal((await api(server, 'GET', `/internal/email-drafts/${draft.body.id}`, admin)).status, 404);

    await api(server, 'PATCH', '/internal/projects/current', admin, { config: { email_theme: theme.body.id } });
    assert.equal((await api(server, 'DELETE', `/internal/email-themes/${theme.body.id}`, admin)).status, 400);
    assert.equal((await api(server, 'DELETE', `/internal/email-themes/${DEFAULT_THEME_ID}`, admin)).status, 400);
    assertKnownError(await api(server, 'POST', '/internal/email-themes', admin, { display_name: '' }), 'SCHEMA_ERROR', 400);
  });
});
