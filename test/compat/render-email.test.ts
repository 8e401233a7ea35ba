import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { it } from 'node:test';
import { describeWithServer } from '../helpers/suite.ts';
import { api, assertKnownError, createProject } from '../helpers/api.ts';

// Upstream's e2e render-email.test.ts and email-themes.test.ts / email-templates.test.ts
// (EMAIL_RENDERING_ERROR snapshots): react-email's document, esbuild's build errors.

const TAILWIND_THEME = `
        import { Html, Tailwind, Body } from '@react-email/components';
        export function EmailTheme({ children }: { children: React.ReactNode }) {
          return (
            <Html>
              <Tailwind>
                <Body>
                  <div className="bg-white text-slate-800 p-4 rounded-lg max-w-[600px] mx-auto leading-relaxed">
                    {children}
                  </div>
                </Body>
              </Tailwind>
            </Html>
          );
        }
      `;
const TEMPLATE = `
        import { type } from "arktype";
        export function EmailTemplate() { 
          return <p>Test email content</p>; 
        }
        export const variablesSchema = type({});
      `;
/** Upstream's snapshot (React 19.1 stream markers: `<!--3-->` before the boundary's end). */
const UPSTREAM_HTML =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"><html dir="ltr" lang="en"><head></head><body><!--$--><table border="0" width="100%" cellPadding="0" cellSpacing="0" role="presentation" align="center"><tbody><tr><td><div style="background-color:rgb(255,255,255);color:rgb(29,41,61);padding:1rem;border-radius:0.5rem;max-width:600px;margin-right:auto;margin-left:auto;line-height:1.625"><p>Test email content</p></div></td></tr></tbody></table><!--3--><!--/$--></body></html>';
/** React's own comment markers inside the Suspense boundary, which differ between React versions. */
const reactMarkers = (html: string) => html.replace(/<!--(?:\d+|html|head|body)-->/g, '');

describeWithServer('render-email as react-email renders it', (get) => {
  it("answers react-email's XHTML document, and no subject or category when the template declares none", async () => {
    const { admin } = await createProject(get());
    const res = await api(get(), 'POST', '/emails/render-email', admin, {
      theme_tsx_source: TAILWIND_THEME,
      template_tsx_source: TEMPLATE,
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body), ['html']);
    assert.equal(reactMarkers(res.body.html), reactMarkers(UPSTREAM_HTML));
    assert.ok(res.body.html.startsWith('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"'));
  });

  it('answers subject and notification_category when the template declares them', async () => {
    const { admin } = await createProject(get());
    const template = `import { Subject, NotificationCategory } from '@stackframe/emails';
      export function EmailTemplate() { return <><Subject value="Hello" /><NotificationCategory value="Marketing" /><p>Hi</p></>; }`;
    const res = await api(get(), 'POST', '/emails/render-email', admin, { theme_id: false, template_tsx_source: template });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.subject, 'Hello');
    assert.equal(res.body.notification_category, 'Marketing');
  });

  it("refuses an unknown theme id with upstream's plain 400", async () => {
    const { admin } = await createProject(get());
    const res = await api(get(), 'POST', '/emails/render-email', admin, {
      theme_id: randomUUID(),
      template_tsx_source: TEMPLATE,
    });
    assert.equal(res.status, 400);
    assert.equal(res.text, 'No theme found with given id');
  });

  it("reports broken TSX with esbuild's build errors, and a theme without EmailTheme as upstream's bundle does", async () => {
    const { admin } = await createProject(get());
    const broken = await api(get(), 'POST', '/emails/render-email', admin, {
      theme_tsx_source: `
            export function EmailTheme({ children }) {
              return <div><span>unclosed tag
            }
          `,
      template_tsx_source: TEMPLATE,
    });
    assertKnownError(broken, 'EMAIL_RENDERING_ERROR', 400);
    const error =
      'Build failed with 2 errors:\nvirtual:/theme.tsx:4:12: ERROR: The character "}" is not valid inside a JSX element\nvirtual:/theme.tsx:5:10: ERROR: Unexpected end of file before a closing "span" tag';
    assert.deepEqual(broken.body, {
      code: 'EMAIL_RENDERING_ERROR',
      details: { error },
      error: `Failed to render email with theme: ${error}`,
    });
    const noTheme = await api(get(), 'POST', '/emails/render-email', admin, {
      theme_tsx_source: `
            import { Html } from '@react-email/components';
            export function WrongFunctionName({ children }: { children: React.ReactNode }) {
              return <Html>{children}</Html>;
            }
          `,
      template_tsx_source: TEMPLATE,
    });
    assert.deepEqual(noTheme.body.details, {
      error:
        'Build failed with 1 error:\nvirtual:/render.tsx:9:9: ERROR: No matching export in "virtual:/theme.tsx" for import "EmailTheme"',
    });
    const throws = await api(get(), 'POST', '/emails/render-email', admin, {
      theme_tsx_source: TAILWIND_THEME,
      template_tsx_source: 'export function EmailTemplate() { throw new Error("Template rendering error"); }',
    });
    assertKnownError(throws, 'EMAIL_RENDERING_ERROR', 400);
    assert.match(throws.body.details.error, /Template rendering error/);
  });
});
