import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import type { UserRow } from '../users/index.ts';

/** What a password sign-up listener learns besides the user. */
export interface PasswordSignUpInfo {
  /** The `verification_callback_url` of the request (already checked as trusted), or null. */
  verificationCallbackUrl: string | null;
}

/**
 * Runs the password sign-up listeners wired in `createCore` (core/hooks.ts: the verification
 * email), in order, inside the sign-up's transaction.
 */
export async function runPasswordSignUpHooks(ctx: OperationContext, project: Project, user: UserRow, info: PasswordSignUpInfo): Promise<void> {
  for (const hook of ctx.runtime.hooks.passwordSignUp) await hook(ctx, project, user, info);
}
