import { defineOperation } from '../operations/define.ts';
import { removeSource, SourceIdParamsSchema } from './source-crud.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Deletes a draft. Deleting an override of a built-in default restores the default; a default
 * itself cannot be deleted (400 text).
 */
export const deleteEmailDraft = defineOperation({
  id: 'emails.deleteDraft',
  method: 'DELETE',
  path: '/internal/email-drafts/:id',
  summary: 'Delete an email draft.',
  access: ['admin'],
  input: { params: SourceIdParamsSchema },
  errors: [],
  output: SuccessOutput,
  async run(ctx, { params }) {
    await removeSource(ctx, 'draft', ctx.auth.project.id, params.id, ctx.auth.project.config.emailThemeId);
    return { success: true };
  },
});
