import { defineOperation } from '../operations/define.ts';
import { getSourceOrThrow, SourceIdParamsSchema } from './source-crud.ts';
import { EmailDraftOutput } from './outputs.ts';

/** One draft with its TSX source; an unknown id is 404 text. */
export const getEmailDraft = defineOperation({
  id: 'emails.getDraft',
  method: 'GET',
  path: '/internal/email-drafts/:id',
  summary: 'Read an email draft.',
  access: ['admin'],
  input: { params: SourceIdParamsSchema },
  errors: [],
  output: EmailDraftOutput,
  async run(ctx, { params }) {
    const s = await getSourceOrThrow(ctx, 'draft', ctx.auth.project.id, params.id);
    return { id: s.id, display_name: s.displayName, tsx_source: s.tsxSource, theme_id: s.themeId, sent_at_millis: s.sentAt };
  },
});
