import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { createSource, DisplayNameSchema } from './source-crud.ts';
import { CreatedSourceOutput } from './outputs.ts';

/** Creates a theme; without a source it starts from a working example. */
export const createEmailTheme = defineOperation({
  id: 'emails.createTheme',
  method: 'POST',
  path: '/internal/email-themes',
  summary: 'Create an email theme.',
  access: ['admin'],
  input: {
    body: v.strictObject({
      display_name: DisplayNameSchema,
      tsx_source: v.optional(v.string()),
    }),
  },
  errors: [],
  output: CreatedSourceOutput,
  async run(ctx, { body }) {
    const id = await createSource(ctx, 'theme', ctx.auth.project.id, { displayName: body.display_name, tsxSource: body.tsx_source });
    return { id };
  },
});
