import { KnownError } from '../errors/index.ts';
import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { issueSession } from '../sessions/index.ts';
import type { UserRow } from '../users/index.ts';
import { createVerificationCode } from '../verification-codes/index.ts';
import * as v from 'valibot';
import { component } from '../operations/output.ts';

/** Verification-code purpose of MFA attempt codes. */
export const MFA_ATTEMPT_PURPOSE = 'mfa_sign_in';

/** Lifetime of an MFA attempt code: 5 minutes, in ms (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/mfa/, https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/route-handlers/verification-code-handler.tsx). */
export const MFA_ATTEMPT_TTL_MS = 5 * 60 * 1000;

/**
 * Second-factor tries one attempt code allows (every `POST /auth/mfa/sign-in` with it counts).
 * Gatehouse choice, stricter than upstream's 20: each try guesses 3 of 10^6 TOTP codes.
 */
export const MFA_ATTEMPT_MAX_TRIES = 5;

/** What an MFA attempt code carries (upstream's `{user_id, is_new_user}`). */
export interface MfaAttemptData extends Record<string, unknown> {
  user_id: string;
  is_new_user: boolean;
}

/** The sign-in body every path returns: both tokens and the user id, plus path-specific fields. */
export type SignInBody<E extends Record<string, unknown> = Record<string, never>> = { access_token: string; refresh_token: string } & E & {
    user_id: string;
  };

const signInEntries = { access_token: v.string(), refresh_token: v.string(), user_id: v.string() };

/** The sign-in body without path-specific fields (password sign-in and sign-up, anonymous sign-up). */
export const SignInOutput = component('SignIn', v.strictObject(signInEntries));

/** The sign-in body of the paths that may create the user (OTP, OAuth, passkey, MFA completion). */
export const SignInNewUserOutput = component('SignInNewUser', v.strictObject({ ...signInEntries, is_new_user: v.boolean() }));

/** Declare in the `errors` of every operation that calls {@link finishSignIn}. */
export const FINISH_SIGN_IN_ERRORS = ['MULTI_FACTOR_AUTHENTICATION_REQUIRED'] as const;

/** Issues the session and builds the sign-in body (the second factor is already satisfied). */
export async function issueSignInBody<E extends Record<string, unknown>>(
  ctx: OperationContext,
  project: Project,
  user: UserRow,
  extra?: E,
): Promise<SignInBody<E>> {
  const session = await issueSession(ctx, project, user);
  return { access_token: session.accessToken, refresh_token: session.refreshToken, ...(extra ?? {}), user_id: user.id } as SignInBody<E>;
}

/**
 * The one exit of every user sign-in path (password, OTP / magic link, OAuth, passkey): issues a
 * session and returns `{access_token, refresh_token, ...extra, user_id}`, unless the user has TOTP
 * on, in which case no session is issued and it throws MULTI_FACTOR_AUTHENTICATION_REQUIRED
 * (400, `details.attempt_code`). The attempt code comes from the verification-code engine: bound
 * to the user, single use, valid 5 minutes, {@link MFA_ATTEMPT_MAX_TRIES} tries; it is redeemed
 * with `POST /auth/mfa/sign-in`, which answers the same body (`is_new_user` is carried over when
 * `extra` has it, false otherwise).
 *
 * Call it outside any transaction: the attempt code is written with `ctx.db` before the error is
 * thrown, and a throw inside a transaction would roll that write back.
 *
 * @param extra path-specific body fields, e.g. OTP's `{is_new_user}`.
 * @throws KnownError MULTI_FACTOR_AUTHENTICATION_REQUIRED (list {@link FINISH_SIGN_IN_ERRORS} in the operation's errors)
 * @see upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/password/, https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/mfa/; upstream `auth/mfa/sign-in/verification-code-handler.tsx` (`createMfaRequiredError`)
 */
export async function finishSignIn<E extends Record<string, unknown> = Record<string, never>>(
  ctx: OperationContext,
  project: Project,
  user: UserRow,
  extra?: E,
): Promise<SignInBody<E>> {
  // A programming error, caught by the first test of any new sign-in path.
  if (ctx.db.isTransaction)
    throw new Error('finishSignIn must be called outside a transaction (its MFA error would roll back the attempt code)');
  if (user.totp_secret_base64 !== null) {
    const isNewUser = extra !== undefined && extra.is_new_user === true;
    const { code } = await createVerificationCode<MfaAttemptData>(ctx, {
      projectId: project.id,
      purpose: MFA_ATTEMPT_PURPOSE,
      userId: user.id,
      data: { user_id: user.id, is_new_user: isNewUser },
      expiresInMs: MFA_ATTEMPT_TTL_MS,
    });
    throw new KnownError('MULTI_FACTOR_AUTHENTICATION_REQUIRED', { attempt_code: code });
  }
  return issueSignInBody(ctx, project, user, extra);
}
