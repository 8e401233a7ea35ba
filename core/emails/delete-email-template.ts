import { defineOperation } from '../operations/define.ts';
import { removeSource, SourceIdParamsSchema, requireCustomEmailServer } from './source-crud.ts';
import { EmptyOutput } from './outputs.ts';

/**
 * Deletes a template, answering upstream's empty body. Deleting an override of a built-in default
 * restores the default; a default itself cannot be deleted (400 text). Refused on the shared email
 * server, as upstream refuses it.
 */
export const deleteEmailTemplate = defineOperation({
  id: 'emails.deleteTemplate',
  method: 'DELETE',
  path: '/internal/email-templates/:id',
  summary: 'Delete an email template.',
  access: ['admin'],
  input: { params: SourceIdParamsSchema },
  errors: ['REQUIRES_CUSTOM_EMAIL_SERVER'],
  output: EmptyOutput,
  async run(ctx, { params }) {
    requireCustomEmailServer(ctx);
    await removeSource(ctx, 'template', ctx.auth.project.id, params.id, ctx.auth.project.config.emailThemeId);
    return {};
  },
});
