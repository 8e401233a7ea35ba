import { defineOperation } from '../operations/define.ts';
import { listTemplates } from './sources.ts';
import { EmailTemplateListOutput } from './outputs.ts';

/** The templates: built-in defaults (or their overrides) first, then the project's own. */
export const listEmailTemplates = defineOperation({
  id: 'emails.listTemplates',
  method: 'GET',
  path: '/internal/email-templates',
  summary: "List the project's email templates.",
  access: ['admin'],
  input: {},
  errors: [],
  output: EmailTemplateListOutput,
  async run(ctx) {
    const items = await listTemplates(ctx.db, ctx.auth.project.id);
    return { templates: items.map((s) => ({ id: s.id, display_name: s.displayName, tsx_source: s.tsxSource, theme_id: s.themeId })) };
  },
});
