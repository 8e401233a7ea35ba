import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { createSource, DisplayNameSchema, ThemeIdFieldSchema, requireCustomEmailServer } from './source-crud.ts';
import { CreatedSourceOutput } from './outputs.ts';

/**
 * Creates a template; without a source it starts from a working example. Refused on the shared
 * email server, as upstream refuses it.
 */
export const createEmailTemplate = defineOperation({
  id: 'emails.createTemplate',
  method: 'POST',
  path: '/internal/email-templates',
  summary: 'Create an email template.',
  access: ['admin'],
  input: {
    body: v.strictObject({
      display_name: DisplayNameSchema,
      tsx_source: v.optional(v.string()),
      theme_id: ThemeIdFieldSchema,
    }),
  },
  errors: ['REQUIRES_CUSTOM_EMAIL_SERVER'],
  output: CreatedSourceOutput,
  async run(ctx, { body }) {
    requireCustomEmailServer(ctx);
    const id = await createSource(ctx, 'template', ctx.auth.project.id, {
      displayName: body.display_name,
      tsxSource: body.tsx_source,
      themeId: body.theme_id ?? null,
    });
    return { id };
  },
});
