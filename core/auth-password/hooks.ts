import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/queries.ts';
import type { UserRow } from '../users/index.ts';

/** What a password sign-up hook learns besides the user. */
export interface PasswordSignUpInfo {
  /** The `verification_callback_url` of the request (already checked as trusted), or null. */
  verificationCallbackUrl: string | null;
}

export type PasswordSignUpHook = (ctx: OperationContext, project: Project, user: UserRow, info: PasswordSignUpInfo) => Promise<void>;

const hooks: PasswordSignUpHook[] = [];

/**
 * Registers work to run inside the transaction of every password sign-up (a new user or an
 * upgraded anonymous one), e.g. queueing the verification email through the outbox. Hooks must
 * not await network I/O: queue it with `ctx.afterCommit` or the outbox.
 */
export function onPasswordSignUp(hook: PasswordSignUpHook): void {
  hooks.push(hook);
}

/** Runs the registered hooks in registration order. */
export async function runPasswordSignUpHooks(ctx: OperationContext, project: Project, user: UserRow, info: PasswordSignUpInfo): Promise<void> {
  for (const hook of hooks) await hook(ctx, project, user, info);
}
