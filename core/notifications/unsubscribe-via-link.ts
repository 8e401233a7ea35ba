import { defineOperation } from '../operations/define.ts';
import { HtmlOutput } from '../operations/output.ts';
import { Query, unsubscribe } from './unsubscribe.ts';

/**
 * Turns the category off for the user and uses the code, answering a short HTML page, as upstream
 * `emails/unsubscribe-link/route.tsx`: a used code answers "already unsubscribed"; a code that is
 * not 45 characters is 400 "Invalid code".
 */
export const unsubscribeViaLink = defineOperation({
  id: 'notifications.unsubscribeLink',
  method: 'GET',
  path: '/emails/unsubscribe-link',
  summary: "Unsubscribe from a notification category through an email's link.",
  access: 'public',
  input: { query: Query },
  errors: ['VERIFICATION_CODE_NOT_FOUND', 'VERIFICATION_CODE_EXPIRED', 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED'],
  output: HtmlOutput,
  run: (ctx, { query }) => unsubscribe(ctx, query),
});
