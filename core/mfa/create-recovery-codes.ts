import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { StatusError } from '../errors/index.ts';
import { requireUser } from '../auth/user-id.ts';
import { uuid } from '../lib/random.ts';
import { generateRecoveryCode, hashRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes.ts';
import { replaceRecoveryCodes } from './queries.ts';

/**
 * Gives the signed-in user 10 new single-use recovery codes, shown this once and stored only as SHA-256; any earlier codes
 * stop working (a Gatehouse extension, docs/mfa.md). Each completes one MFA sign-in in place of a TOTP
 * (an MFA sign-in with `{type: "recovery_code", recovery_code, code}`).
 *
 * Answers `{recovery_codes: string[]}` (`xxxx-xxxx-xxxx-xxxx`, 80 bits each). 400 text when the
 * user has no TOTP (the codes would guard nothing).
 */
export const createRecoveryCodes = defineOperation({
  id: 'mfa.createRecoveryCodes',
  method: 'POST',
  path: '/auth/mfa/recovery-codes',
  summary: 'Create 10 single-use MFA recovery codes for the signed-in user (Gatehouse extension).',
  access: ['client', 'server', 'admin'],
  input: {},
  errors: ['USER_AUTHENTICATION_REQUIRED'],
  output: v.strictObject({ recovery_codes: v.array(v.string()) }),
  async run(ctx) {
    const { project } = ctx.auth;
    const user = requireUser(ctx.auth);
    if (user.totp_secret_base64 === null)
      throw new StatusError('bad-request', 'Turn on TOTP multi-factor authentication before creating recovery codes.');
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, generateRecoveryCode);
    await ctx.transaction((tx) =>
      replaceRecoveryCodes(
        tx.db,
        project.id,
        user.id,
        codes.map((code) => ({
          id: uuid(),
          project_id: project.id,
          user_id: user.id,
          code_hash: hashRecoveryCode(code),
          created_at: tx.now,
          used_at: null,
        })),
      ),
    );
    return { recovery_codes: codes };
  },
});
