import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createCoreProject, describeWithCore } from '../../test/helpers/core-client.ts';
import { refusal } from '../../test/helpers/core-fixtures-b.ts';
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
  // Written as a property call: the template's own text, which the no-HTTP guard would otherwise take for the test's request.
  'globalThis.fetch': `export function EmailTemplate() { globalThis['fetch']('http://127.0.0.1:1/'); return null; }`,
};

type Rendered = { html: string; subject?: string; notification_category?: string };

/** Email themes, templates, drafts and rendering, in-process (test/helpers/core-client.ts). */
describeWithCore('email themes, templates, drafts and rendering', (get) => {
  it('renders a template with a theme and returns subject and category', async () => {
    const t = get();
    const { admin } = await createCoreProject(t);
    const res = await t.call<Rendered>('emails.renderEmail', admin, {
      body: {
        template_tsx_source: `import { Text } from '@react-email/components'; import { Subject, NotificationCategory } from '@stackframe/emails';
export function EmailTemplate({ user, project, variables }: { user: any; project: any; variables: any }) {
  return <><Subject value={'Hi ' + user.displayName} /><NotificationCategory value="Marketing" /><Text>{project.displayName} says {variables.word} &amp; <b>hello</b></Text></>;
}`,
        variables: { word: '<script>' },
      },
    });
    assert.equal(res.subject, 'Hi John Doe');
    assert.equal(res.notification_category, 'Marketing');
    assert.match(
      res.html,
      /^<!DOCTYPE html PUBLIC "-\/\/W3C\/\/DTD XHTML 1.0 Transitional\/\/EN" "http:\/\/www.w3.org\/TR\/xhtml1\/DTD\/xhtml1-transitional.dtd"><html dir="ltr" lang="en">/,
    );
    // React separates adjacent text with `<!-- -->`.
    assert.ok(res.html.replaceAll('<!-- -->', '').includes('New Project says &lt;script&gt; &amp; <b>hello</b>'), res.html);
    const noTheme = await t.call<Rendered>('emails.renderEmail', admin, {
      body: { theme_id: false, template_tsx_source: 'export function EmailTemplate() { return <p>x</p>; }' },
    });
    // No theme: the bare react-email document, as upstream's empty theme.
    assert.match(noTheme.html, /<html dir="ltr" lang="en"><head><\/head><body>.*<p>x<\/p>.*<\/body><\/html>$/);
  });

  for (const [name, source] of Object.entries(hostile)) {
    it(`refuses or stops a template that tries ${name}, and keeps serving`, async () => {
      const t = get();
      const { admin } = await createCoreProject(t);
      const refused = await t.refuses('emails.renderEmail', admin, { body: { template_tsx_source: source } }, 'EMAIL_RENDERING_ERROR');
      assert.equal(refused.status, 400);
      assert.match(refused.message, /Failed to render email with theme: /);
      const after = await t.call<Rendered>('emails.renderEmail', admin, {
        body: { template_tsx_source: 'export function EmailTemplate() { return <p>fine</p>; }' },
      });
      assert.ok(after.html.includes('<p>fine</p>'));
    });
  }

  it('answers EMAIL_RENDERING_ERROR with the compiler message for a syntax error', async () => {
    const t = get();
    const { admin } = await createCoreProject(t);
    const refused = await t.refuses(
      'emails.renderEmail',
      admin,
      { body: { template_tsx_source: 'export function EmailTemplate() { return <p>; }' } },
      'EMAIL_RENDERING_ERROR',
    );
    assert.match(String(refused.details.error), /\d+:\d+: /);
  });

  it('lists the default themes and built-in templates and overrides a template', async () => {
    const t = get();
    const { admin, client, server: srv } = await createCoreProject(t, OWN_SMTP);
    const themes = await t.call<{ themes: Array<{ id: string; display_name: string }> }>('emails.listThemes', admin);
    assert.deepEqual(
      themes.themes.map((theme) => [theme.id, theme.display_name]),
      [
        [DEFAULT_THEME_ID, 'Default Light'],
        ['a0172b5d-cff0-463b-83bb-85124697373a', 'Default Dark'],
        ['c7e2d94f-8a1b-4e6d-b3f5-9d0a2e7c1b8f', 'Default Colorful'],
      ],
    );
    assert.equal(DEFAULT_THEMES.length, 3);
    const templates = await t.call<{ templates: Array<{ id: string; display_name: string }> }>('emails.listTemplates', admin);
    assert.deepEqual(
      templates.templates.map((template) => template.id).sort(),
      Object.values(DEFAULT_TEMPLATES)
        .map((template) => template.id)
        .sort(),
    );
    for (const template of templates.templates) {
      const r = await t.call<Rendered>('emails.renderEmail', admin, { body: { template_id: template.id, variables: { otp: 'ABC123' } } });
      assert.ok(r.subject, `${template.display_name} declares a subject`);
    }

    const id = DEFAULT_TEMPLATES.password_reset.id;
    const broken = await t.refuses(
      'emails.updateTemplate',
      admin,
      { params: { id }, body: { tsx_source: 'export function EmailTemplate() { return <p> }' } },
      'EMAIL_RENDERING_ERROR',
    );
    assert.equal(broken.status, 400);
    const patched = await t.call<{ rendered_html: string }>('emails.updateTemplate', admin, {
      params: { id },
      body: {
        tsx_source: `import { Subject } from '@stackframe/emails'; export function EmailTemplate({ variables }) { return <><Subject value="Custom reset" /><a href={variables.passwordResetLink}>reset</a></>; }`,
      },
    });
    assert.ok(patched.rendered_html.includes('reset'));
    const source = async () => (await t.call<{ tsx_source: string }>('emails.getTemplate', admin, { params: { id } })).tsx_source;
    assert.ok((await source()).includes('Custom reset'));
    assert.deepEqual(await t.call('emails.deleteTemplate', admin, { params: { id } }), {});
    assert.equal(await source(), DEFAULT_TEMPLATES.password_reset.source);
    assert.equal(await refusal(t, 'emails.deleteTemplate', admin, { params: { id } }), 'status:bad-request');

    assert.equal((await t.refuses('emails.listTemplates', srv, {}, 'INSUFFICIENT_ACCESS_TYPE')).status, 401);
    assert.equal((await t.refuses('emails.listThemes', client, {}, 'INSUFFICIENT_ACCESS_TYPE')).status, 401);
    assert.equal((await t.refuses('emails.renderEmail', srv, { body: {} }, 'INSUFFICIENT_ACCESS_TYPE')).status, 401);
  });

  it('creates, updates and deletes themes, templates and drafts', async () => {
    const t = get();
    const { admin } = await createCoreProject(t, OWN_SMTP);
    const theme = await t.call<{ id: string }>('emails.createTheme', admin, { body: { display_name: 'Dark' } });
    const darkSource = `export function EmailTheme({ children }) { return <html><body style={{ backgroundColor: '#000' }}>{children}</body></html>; }`;
    assert.deepEqual(await t.call('emails.updateTheme', admin, { params: { id: theme.id }, body: { tsx_source: darkSource } }), {
      display_name: 'Dark',
    });
    const badTheme = await t.refuses(
      'emails.updateTheme',
      admin,
      { params: { id: theme.id }, body: { tsx_source: 'export const x = 1;' } },
      'EMAIL_RENDERING_ERROR',
    );
    assert.equal(badTheme.status, 400);
    assert.equal((await t.call<{ tsx_source: string }>('emails.getTheme', admin, { params: { id: theme.id } })).tsx_source, darkSource);
    const rendered = await t.call<Rendered>('emails.renderEmail', admin, {
      body: { theme_id: theme.id, template_tsx_source: 'export function EmailTemplate() { return <p>x</p>; }' },
    });
    assert.ok(rendered.html.includes('background-color:#000'));

    const template = await t.call<{ id: string }>('emails.createTemplate', admin, {
      body: { display_name: 'Welcome', theme_id: theme.id },
    });
    assert.ok(
      (await t.call<{ tsx_source: string }>('emails.getTemplate', admin, { params: { id: template.id } })).tsx_source.includes(
        'EmailTemplate',
      ),
    );

    const draft = await t.call<{ id: string }>('emails.createDraft', admin, { body: { display_name: 'Launch' } });
    await t.call('emails.updateDraft', admin, { params: { id: draft.id }, body: { display_name: 'Launch 2' } });
    const drafts = await t.call<{ drafts: Array<{ display_name: string; sent_at_millis: number | null }> }>('emails.listDrafts', admin);
    assert.deepEqual(
      drafts.drafts.map((d) => [d.display_name, d.sent_at_millis]),
      [['Launch 2', null]],
    );
    await t.call('emails.deleteDraft', admin, { params: { id: draft.id } });
    assert.equal(await refusal(t, 'emails.getDraft', admin, { params: { id: draft.id } }), 'status:not-found');

    await t.call('projects.updateCurrent', admin, { body: { config: { email_theme: theme.id } } });
    assert.equal(await refusal(t, 'emails.deleteTheme', admin, { params: { id: theme.id } }), 'status:bad-request');
    assert.equal(await refusal(t, 'emails.deleteTheme', admin, { params: { id: DEFAULT_THEME_ID } }), 'status:bad-request');
    await t.refuses('emails.createTheme', admin, { body: { display_name: '' } }, 'SCHEMA_ERROR');
  });
});
