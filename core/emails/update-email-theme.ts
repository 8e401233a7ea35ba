import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { getSourceOrThrow, saveSource, SourceIdParamsSchema, DisplayNameSchema, validateRender } from './source-crud.ts';
import { UpdatedThemeOutput } from './outputs.ts';

/**
 * Changes a theme. The new source is rendered once in the sandbox first, so broken TSX is refused.
 * Changing a built-in default stores an override under the same id; an unknown id is 404 text.
 */
export const updateEmailTheme = defineOperation({
  id: 'emails.updateTheme',
  method: 'PATCH',
  path: '/internal/email-themes/:id',
  summary: 'Update an email theme.',
  access: ['admin'],
  input: {
    params: SourceIdParamsSchema,
    body: v.strictObject({
      display_name: v.optional(DisplayNameSchema),
      tsx_source: v.optional(v.string()),
    }),
  },
  errors: ['EMAIL_RENDERING_ERROR'],
  output: UpdatedThemeOutput,
  async run(ctx, { params, body }) {
    const { project } = ctx.auth;
    const current = await getSourceOrThrow(ctx, 'theme', project.id, params.id);
    if (body.tsx_source !== undefined) await validateRender(ctx, 'theme', body.tsx_source, null);
    await saveSource(ctx, 'theme', project.id, current, { displayName: body.display_name, tsxSource: body.tsx_source });
    return { display_name: body.display_name ?? current.displayName };
  },
});
