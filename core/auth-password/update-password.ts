import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { sha256Hex } from '../lib/hash.ts';
import { success } from '../lib/schemas.ts';
import { updateUser } from '../users/index.ts';
import { findRefreshTokenByHash, revokeAfterPasswordChange } from '../sessions/index.ts';
import { assertPasswordAcceptable, PASSWORD_RULE_ERRORS } from './rules.ts';
import { hashPassword, verifyPassword } from './hashing.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Changes the signed-in user's password (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/password/). Revokes every other session of the user (all refresh
 * tokens but the caller's own refresh token, as upstream) and every outstanding
 * password-reset code.
 */
export const updatePassword = defineOperation({
  id: 'authPassword.update',
  method: 'POST',
  path: '/auth/password/update',
  summary: "Change the signed-in user's password.",
  access: ['client', 'server', 'admin'],
  input: { body: v.strictObject({ old_password: v.string(), new_password: v.string() }) },
  requiresUser: true,
  errors: [
    'USER_AUTHENTICATION_REQUIRED',
    'PASSWORD_AUTHENTICATION_NOT_ENABLED',
    'USER_DOES_NOT_HAVE_PASSWORD',
    'PASSWORD_CONFIRMATION_MISMATCH',
    ...PASSWORD_RULE_ERRORS,
  ],
  output: SuccessOutput,
  async run(ctx, { body }) {
    const { project, user } = ctx.auth;
    if (!user) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
    if (!project.config.credentialEnabled) throw new KnownError('PASSWORD_AUTHENTICATION_NOT_ENABLED');
    if (user.password_hash === null) throw new KnownError('USER_DOES_NOT_HAVE_PASSWORD');
    const { ok } = await verifyPassword(user.password_hash, body.old_password, ctx.runtime.passwordHashCost);
    if (!ok) throw new KnownError('PASSWORD_CONFIRMATION_MISMATCH');
    await assertPasswordAcceptable(body.new_password, { email: user.primary_email });
    const passwordHash = await hashPassword(body.new_password, ctx.runtime.passwordHashCost);
    await ctx.transaction(async (tx) => {
      const keep = ctx.refreshToken ? await findRefreshTokenByHash(tx.db, project.id, sha256Hex(ctx.refreshToken)) : null;
      await updateUser(tx.db, project.id, user.id, { password_hash: passwordHash });
      await revokeAfterPasswordChange(tx, project.id, user.id, keep?.user_id === user.id ? keep.id : null);
    });
    return success;
  },
});
