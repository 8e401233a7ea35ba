import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { createSource, DisplayNameSchema, ThemeIdFieldSchema } from './source-crud.ts';
import { CreatedSourceOutput } from './outputs.ts';

/** Creates a draft; without a source it starts from a working example. */
export const createEmailDraft = defineOperation({
  id: 'emails.createDraft',
  method: 'POST',
  path: '/internal/email-drafts',
  summary: 'Create an email draft.',
  access: ['admin'],
  input: {
    body: v.strictObject({
      display_name: DisplayNameSchema,
      tsx_source: v.optional(v.string()),
      theme_id: ThemeIdFieldSchema,
    }),
  },
  errors: [],
  output: CreatedSourceOutput,
  async run(ctx, { body }) {
    const id = await createSource(ctx, 'draft', ctx.auth.project.id, {
      displayName: body.display_name,
      tsxSource: body.tsx_source,
      themeId: body.theme_id ?? null,
    });
    return { id };
  },
});
