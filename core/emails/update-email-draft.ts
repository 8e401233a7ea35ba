import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { getSourceOrThrow, saveSource, SourceIdParamsSchema, DisplayNameSchema, ThemeIdFieldSchema } from './source-crud.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Changes a draft. Changing a built-in default stores an override under the same id; an unknown
 * id is 404 text.
 */
export const updateEmailDraft = defineOperation({
  id: 'emails.updateDraft',
  method: 'PATCH',
  path: '/internal/email-drafts/:id',
  summary: 'Update an email draft.',
  access: ['admin'],
  input: {
    params: SourceIdParamsSchema,
    body: v.strictObject({
      display_name: v.optional(DisplayNameSchema),
      tsx_source: v.optional(v.string()),
      theme_id: ThemeIdFieldSchema,
    }),
  },
  errors: [],
  output: SuccessOutput,
  async run(ctx, { params, body }) {
    const { project } = ctx.auth;
    const current = await getSourceOrThrow(ctx, 'draft', project.id, params.id);
    await saveSource(ctx, 'draft', project.id, current, {
      displayName: body.display_name,
      tsxSource: body.tsx_source,
      themeId: body.theme_id,
    });
    return { success: true };
  },
});
