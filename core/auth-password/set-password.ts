import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError, StatusError } from '../errors/index.ts';
import { success } from '../lib/schemas.ts';
import { updateUser } from '../users/index.ts';
import { callerSessionOf, revokeAfterPasswordChange } from '../sessions/index.ts';
import { assertPasswordAcceptable, PASSWORD_RULE_ERRORS } from './rules.ts';
import { hashPassword } from './hashing.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Sets a password for a signed-in user who has none (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/password/). A user who already has a password gets 400 text.
 * Like any password change, revokes the user's other sessions and outstanding reset codes
 *.
 */
export const setPassword = defineOperation({
  id: 'authPassword.set',
  method: 'POST',
  path: '/auth/password/set',
  summary: 'Set a password for a signed-in user who has none.',
  access: ['client', 'server', 'admin'],
  input: { body: v.strictObject({ password: v.string() }) },
  requiresUser: true,
  errors: ['USER_AUTHENTICATION_REQUIRED', 'PASSWORD_AUTHENTICATION_NOT_ENABLED', ...PASSWORD_RULE_ERRORS],
  output: SuccessOutput,
  async run(ctx, { body }) {
    const { project, user } = ctx.auth;
    if (!user) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
    if (!project.config.credentialEnabled) throw new KnownError('PASSWORD_AUTHENTICATION_NOT_ENABLED');
    if (user.password_hash !== null) throw new StatusError('bad-request', 'User already has a password set.');
    await assertPasswordAcceptable(body.password, { email: user.primary_email });
    const passwordHash = await hashPassword(body.password, ctx.runtime.passwordHashCost);
    await ctx.transaction(async (tx) => {
      await updateUser(tx.db, project.id, user.id, { password_hash: passwordHash });
      await revokeAfterPasswordChange(tx, project.id, user.id, callerSessionOf(ctx, user.id));
    });
    return success;
  },
});
