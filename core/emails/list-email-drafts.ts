import { defineOperation } from '../operations/define.ts';
import { listDrafts } from './sources.ts';
import { EmailDraftListOutput } from './outputs.ts';

/** The drafts: built-in defaults (or their overrides) first, then the project's own. */
export const listEmailDrafts = defineOperation({
  id: 'emails.listDrafts',
  method: 'GET',
  path: '/internal/email-drafts',
  summary: "List the project's email drafts.",
  access: ['admin'],
  input: {},
  errors: [],
  output: EmailDraftListOutput,
  async run(ctx) {
    const items = await listDrafts(ctx.db, ctx.auth.project.id);
    return {
      drafts: items.map((s) => ({
        id: s.id,
        display_name: s.displayName,
        tsx_source: s.tsxSource,
        theme_id: s.themeId,
        sent_at_millis: s.sentAt,
      })),
    };
  },
});
