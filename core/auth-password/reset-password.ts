import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { findUser, updateUser } from '../users/index.ts';
import { revokeAfterPasswordChange } from '../sessions/index.ts';
import { revokeUserApiKeys } from '../api-keys/index.ts';
import { removeAllPasskeys } from '../passkeys/index.ts';
import { removeAllLinkedAccounts } from '../auth-oauth/index.ts';
import { useVerificationCode, VERIFICATION_CODE_ERRORS } from '../verification-codes/index.ts';
import { assertPasswordAcceptable, PASSWORD_RULE_ERRORS } from './rules.ts';
import { hashPassword } from './hashing.ts';
import type { PasswordResetData } from './send-reset-code.ts';
import { SuccessOutput } from '../operations/output.ts';

/**
 * Resets a password with an emailed code (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/password/). Sets
 * the user's password (hashed before the transaction) and uses the code; receiving the code
 * proves the email, so a matching primary email is marked verified.
 *
 * Every session of the user and every other outstanding reset code is revoked.
 * When the reset is the first proof of an address nobody had verified, the account may have been
 * pre-registered by someone else, so whatever they could have left behind is
 * removed too: the TOTP secret, the user's API keys, passkeys and linked OAuth accounts
 * (docs/security.md "Account ownership"). A reset of an already verified address keeps them: the
 * sessions it revokes can no longer link anything.
 */
export const resetPassword = defineOperation({
  id: 'authPassword.reset',
  method: 'POST',
  path: '/auth/password/reset',
  summary: 'Set a new password with a password-reset code.',
  access: ['client', 'server', 'admin'],
  input: { body: v.strictObject({ code: v.string(), password: v.string() }) },
  errors: [...PASSWORD_RULE_ERRORS, ...VERIFICATION_CODE_ERRORS, 'USER_NOT_FOUND'],
  output: SuccessOutput,
  async run(ctx, { body }) {
    const { project } = ctx.auth;
    await assertPasswordAcceptable(body.password);
    const passwordHash = await hashPassword(body.password, ctx.runtime.passwordHashCost);
    await useVerificationCode<PasswordResetData, void>(ctx, project.id, 'password_reset', body.code, async (tx, code) => {
      const user = await findUser(tx.db, project.id, code.data.user_id);
      if (!user) throw new KnownError('USER_NOT_FOUND');
      // The address is known only now; refusing here leaves the code unused.
      await assertPasswordAcceptable(body.password, { email: code.data.email });
      const provesPrimaryEmail = user.primary_email === code.data.email;
      const firstProof = provesPrimaryEmail && !user.primary_email_verified;
      await updateUser(tx.db, project.id, user.id, {
        password_hash: passwordHash,
        ...(provesPrimaryEmail ? { primary_email_verified: true } : {}),
        ...(firstProof ? { totp_secret_base64: null } : {}),
      });
      await revokeAfterPasswordChange(tx, project.id, user.id, null);
      if (firstProof) {
        await revokeUserApiKeys(tx, project.id, user.id);
        await removeAllPasskeys(tx, project.id, user.id);
        await removeAllLinkedAccounts(tx.db, project.id, user.id);
      }
    });
    return { success: true };
  },
});
