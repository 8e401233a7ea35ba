import { defineOperation } from '../operations/define.ts';
import { listThemes } from './sources.ts';
import { EmailThemeListOutput } from './outputs.ts';

/** The themes: built-in defaults (or their overrides) first, then the project's own. */
export const listEmailThemes = defineOperation({
  id: 'emails.listThemes',
  method: 'GET',
  path: '/internal/email-themes',
  summary: "List the project's email themes.",
  access: ['admin'],
  input: {},
  errors: [],
  output: EmailThemeListOutput,
  async run(ctx) {
    const items = await listThemes(ctx.db, ctx.auth.project.id);
    return { themes: items.map((s) => ({ id: s.id, display_name: s.displayName })) };
  },
});
