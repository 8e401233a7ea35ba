import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { HtmlOutput } from '../operations/output.ts';
import { Query, unsubscribe } from './unsubscribe.ts';

/**
 * RFC 8058 one-click unsubscribe: the target of the `List-Unsubscribe-Post:
 * List-Unsubscribe=One-Click` header that mail clients POST to without user interaction. Same
 * answers as the link. Gatehouse extension (upstream has the GET only).
 */
export const unsubscribeOneClick = defineOperation({
  id: 'notifications.unsubscribeOneClick',
  method: 'POST',
  path: '/emails/unsubscribe-link',
  summary: 'RFC 8058 one-click unsubscribe.',
  access: 'public',
  // RFC 8058 §3.1: the client POSTs `List-Unsubscribe=One-Click` as a form.
  input: { query: Query, body: v.optional(v.strictObject({ 'List-Unsubscribe': v.optional(v.literal('One-Click')) })) },
  errors: ['VERIFICATION_CODE_NOT_FOUND', 'VERIFICATION_CODE_EXPIRED', 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED'],
  output: HtmlOutput,
  run: (ctx, { query }) => unsubscribe(ctx, query),
});
