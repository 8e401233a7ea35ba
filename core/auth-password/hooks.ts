import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import type { UserRow } from '../users/index.ts';
import type { PasswordSignUpInfo } from './sign-up-info.ts';

/**
 * Runs the password sign-up listeners wired in `createCore` (core/hooks.ts: the verification
 * email), in order, inside the sign-up's transaction.
 */
export async function runPasswordSignUpHooks(
  ctx: OperationContext,
  project: Project,
  user: UserRow,
  info: PasswordSignUpInfo,
): Promise<void> {
  for (const hook of ctx.runtime.hooks.passwordSignUp) await hook(ctx, project, user, info);
}
