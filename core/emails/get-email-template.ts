import { defineOperation } from '../operations/define.ts';
import { getSourceOrThrow, SourceIdParamsSchema } from './source-crud.ts';
import { EmailTemplateOutput } from './outputs.ts';

/** One template with its TSX source; an unknown id is 404 text. */
export const getEmailTemplate = defineOperation({
  id: 'emails.getTemplate',
  method: 'GET',
  path: '/internal/email-templates/:id',
  summary: 'Read an email template.',
  access: ['admin'],
  input: { params: SourceIdParamsSchema },
  errors: [],
  output: EmailTemplateOutput,
  async run(ctx, { params }) {
    const s = await getSourceOrThrow(ctx, 'template', ctx.auth.project.id, params.id);
    return { id: s.id, display_name: s.displayName, tsx_source: s.tsxSource, theme_id: s.themeId };
  },
});
