import { defineOperation } from '../operations/define.ts';
import { removeSource, SourceIdParamsSchema } from './source-crud.ts';

/**
 * `DELETE /internal/email-templates/{id}` (admin) → `{}` (upstream's body). Deleting an override of a built-in default
 * restores the default; a default itself cannot be deleted (400 text).
 */
export const deleteEmailTemplate = defineOperation({
  id: 'emails.deleteTemplate',
  method: 'DELETE',
  path: '/internal/email-templates/:id',
  summary: 'Delete an email template.',
  access: ['admin'],
  input: { params: SourceIdParamsSchema },
  errors: [],
  async run(ctx, { params }) {
    await removeSource(ctx, 'template', ctx.auth.project.id, params.id, ctx.auth.project.config.emailThemeId);
    return {};
  },
});
