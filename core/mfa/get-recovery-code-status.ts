import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { requireUser } from '../auth/user-id.ts';
import { countUnusedRecoveryCodes } from './queries.ts';

/**
 * Counts the signed-in user's unused recovery codes (a Gatehouse extension). The codes themselves are never shown again.
 */
export const getRecoveryCodeStatus = defineOperation({
  id: 'mfa.getRecoveryCodeStatus',
  method: 'GET',
  path: '/auth/mfa/recovery-codes',
  summary: "Count the signed-in user's unused MFA recovery codes (Gatehouse extension).",
  access: ['client', 'server', 'admin'],
  input: {},
  errors: ['USER_AUTHENTICATION_REQUIRED'],
  output: v.strictObject({ unused_count: v.pipe(v.number(), v.integer()) }),
  async run(ctx) {
    const user = requireUser(ctx.auth);
    return { unused_count: await countUnusedRecoveryCodes(ctx.db, ctx.auth.project.id, user.id) };
  },
});
