import { defineOperation } from '../operations/define.ts';
import { getSourceOrThrow, SourceIdParamsSchema } from './source-crud.ts';
import { EmailThemeOutput } from './outputs.ts';

/** One theme with its TSX source; an unknown id is 404 text. */
export const getEmailTheme = defineOperation({
  id: 'emails.getTheme',
  method: 'GET',
  path: '/internal/email-themes/:id',
  summary: 'Read an email theme.',
  access: ['admin'],
  input: { params: SourceIdParamsSchema },
  errors: [],
  output: EmailThemeOutput,
  async run(ctx, { params }) {
    const s = await getSourceOrThrow(ctx, 'theme', ctx.auth.project.id, params.id);
    return { id: s.id, display_name: s.displayName, tsx_source: s.tsxSource };
  },
});
