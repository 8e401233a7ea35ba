import { defineOperation } from '../operations/define.ts';
import { removeSource, SourceIdParamsSchema } from './source-crud.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Deletes a theme. Deleting an override of a built-in default restores the default; a default
 * itself or the project's current theme cannot be deleted (400 text).
 */
export const deleteEmailTheme = defineOperation({
  id: 'emails.deleteTheme',
  method: 'DELETE',
  path: '/internal/email-themes/:id',
  summary: 'Delete an email theme.',
  access: ['admin'],
  input: { params: SourceIdParamsSchema },
  errors: [],
  output: SuccessOutput,
  async run(ctx, { params }) {
    await removeSource(ctx, 'theme', ctx.auth.project.id, params.id, ctx.auth.project.config.emailThemeId);
    return { success: true };
  },
});
