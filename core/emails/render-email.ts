import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { renderInSandbox } from './sandbox.ts';
import { findTemplate, findTheme, resolveTheme } from './sources.ts';
import { ThemeIdFieldSchema, VariablesSchema } from './source-crud.ts';
import { RenderedEmailOutput } from './outputs.ts';

/**
 * A preview rendered in the sandbox. `theme_id: false` renders without a theme; otherwise the
 * project's theme is the default. Template props: `{user: {displayName: "John Doe"}, project,
 * variables}`. An unknown theme or template id is 400 text "No theme found with given id" / "No
 * template found with given id" (upstream `emails/render-email/route.tsx`); a rendering failure
 * carries the compiler's or runtime's message.
 */
export const renderEmail = defineOperation({
  id: 'emails.renderEmail',
  method: 'POST',
  path: '/emails/render-email',
  summary: 'Render an email template with a theme for preview.',
  access: ['admin'],
  input: {
    body: v.strictObject({
      theme_id: ThemeIdFieldSchema,
      theme_tsx_source: v.optional(v.string()),
      template_id: v.optional(v.string()),
      template_tsx_source: v.optional(v.string()),
      variables: VariablesSchema,
      editable_markers: v.optional(v.boolean()),
      /** Accepted as upstream's; Gatehouse answers no editable regions. */
      editable_source: v.optional(v.picklist(['template', 'theme', 'both'])),
      preview_mode: v.optional(v.boolean()),
    }),
  },
  errors: ['EMAIL_RENDERING_ERROR'],
  output: RenderedEmailOutput,
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    let themeSource: string | null;
    if (body.theme_tsx_source !== undefined) themeSource = body.theme_tsx_source;
    else if (body.theme_id === false) themeSource = null;
    else if (body.theme_id) {
      const theme = await findTheme(ctx.db, project.id, body.theme_id);
      if (!theme) throw new StatusError('bad-request', 'No theme found with given id');
      themeSource = theme.tsxSource;
    } else themeSource = (await resolveTheme(ctx.db, project))?.tsxSource ?? null;
    let templateSource: string;
    if (body.template_tsx_source !== undefined) templateSource = body.template_tsx_source;
    else if (body.template_id !== undefined) {
      const template = await findTemplate(ctx.db, project.id, body.template_id);
      if (!template) throw new StatusError('bad-request', 'No template found with given id');
      templateSource = template.tsxSource;
    } else {
      templateSource = 'export function EmailTemplate() { return <p>Preview</p>; }';
    }
    const out = await renderInSandbox(
      {
        themeSource,
        templateSource,
        props: { user: { displayName: 'John Doe' }, project: { displayName: project.displayName }, variables: body.variables ?? {} },
      },
      project.id,
    );
    return {
      html: out.html,
      ...(out.subject === null ? {} : { subject: out.subject }),
      ...(out.notificationCategory === null ? {} : { notification_category: out.notificationCategory }),
    };
  },
});
