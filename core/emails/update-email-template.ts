import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import {
  getSourceOrThrow,
  saveSource,
  SourceIdParamsSchema,
  DisplayNameSchema,
  validateRender,
  ThemeIdFieldSchema,
  requireCustomEmailServer,
} from './source-crud.ts';
import { UpdatedTemplateOutput } from './outputs.ts';

/**
 * Changes a template. The new source is rendered once in the sandbox first, so broken TSX is
 * refused. Changing a built-in default stores an override under the same id; an unknown id is 404
 * text. Refused on the shared email server, as upstream refuses it.
 */
export const updateEmailTemplate = defineOperation({
  id: 'emails.updateTemplate',
  method: 'PATCH',
  path: '/internal/email-templates/:id',
  summary: 'Update an email template.',
  access: ['admin'],
  input: {
    params: SourceIdParamsSchema,
    body: v.strictObject({
      display_name: v.optional(DisplayNameSchema),
      tsx_source: v.optional(v.string()),
      theme_id: ThemeIdFieldSchema,
    }),
  },
  errors: ['REQUIRES_CUSTOM_EMAIL_SERVER', 'EMAIL_RENDERING_ERROR'],
  output: UpdatedTemplateOutput,
  async run(ctx, { params, body }) {
    requireCustomEmailServer(ctx);
    const { project } = ctx.auth;
    const current = await getSourceOrThrow(ctx, 'template', project.id, params.id);
    const html =
      body.tsx_source !== undefined
        ? await validateRender(ctx, 'template', body.tsx_source, body.theme_id === undefined ? current.themeId : body.theme_id)
        : null;
    await saveSource(ctx, 'template', project.id, current, {
      displayName: body.display_name,
      tsxSource: body.tsx_source,
      themeId: body.theme_id,
    });
    return {
      rendered_html:
        html ?? (await validateRender(ctx, 'template', current.tsxSource, body.theme_id === undefined ? current.themeId : body.theme_id)),
    };
  },
});
