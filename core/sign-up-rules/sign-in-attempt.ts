import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';

/** The errors {@link checkSignInAttempt} raises through Gatehouse's own listeners. */
export const SIGN_IN_ATTEMPT_ERRORS = ['SSO_REQUIRED'] as const;

/**
 * Runs the `signInAttempt` listeners (core/hooks.ts) for a sign-in or sign-up by `method` for
 * `email`: the one place every path (password sign-in and sign-up, OTP send and sign-in, OAuth
 * sign-in and sign-up through {@link signUpUser}) asks whether the attempt may go ahead. A
 * listener throws to refuse: Gatehouse's own refuses addresses of a verified team domain that
 * enforces SSO with SSO_REQUIRED (core/team-domains).
 */
export async function checkSignInAttempt(
  ctx: OperationContext,
  project: Project,
  attempt: { email: string | null; method: 'password' | 'otp' | 'oauth' },
): Promise<void> {
  for (const listener of ctx.runtime.hooks.signInAttempt) await listener(ctx, project, attempt);
}
