import type { OperationContext } from './operations/define.ts';
import type { Project } from './projects/index.ts';
import type { UserRow } from './users/index.ts';
import type { PasswordSignUpInfo } from './auth-password/index.ts';
import { grantNewUserDefaults, seedProjectDefinitions } from './permissions/index.ts';
import { sendSignUpVerificationEmail } from './contact-channels/index.ts';
import { checkEmailThemeSetting } from './emails/index.ts';
import { recordFirstOwner } from './ai-chat/index.ts';
import { assertSsoNotRequired } from './team-domains/index.ts';

/**
 * Work one domain runs when another domain's event happens, wired here in one place instead of
 * registered at import time, so the code that raises an event never imports its listeners and
 * this file names every listener. Each hook runs inside the transaction of the event (it must not
 * await network I/O: queue it with `ctx.afterCommit` or the outbox).
 */
export interface CoreHooks {
  /** After a project row is written: project creation and the seeded internal project. */
  readonly projectCreated: ReadonlyArray<(ctx: OperationContext, project: Project) => Promise<void>>;
  /**
   * Before a project's new settings are stored (create and update), with the project as it would
   * be stored; a check throws to refuse the change.
   */
  readonly projectConfigCheck: ReadonlyArray<(ctx: OperationContext, next: Project) => Promise<void>>;
  /** After a user (and its personal team, if any) is written, by any sign-up or `POST /users`. */
  readonly userCreated: ReadonlyArray<(ctx: OperationContext, project: Project, user: UserRow) => Promise<void>>;
  /** After a password sign-up (a new user or an upgraded anonymous one) is written. */
  readonly passwordSignUp: ReadonlyArray<
    (ctx: OperationContext, project: Project, user: UserRow, info: PasswordSignUpInfo) => Promise<void>
  >;
  /**
   * Before a sign-in or sign-up by `method` (`password`, `otp`, `oauth`, …) for `email` (null when
   * the method has none) goes ahead; a check throws to refuse it. Reached from every sign-in path
   * through core/sign-up-rules `checkSignInAttempt`.
   */
  readonly signInAttempt: ReadonlyArray<
    (ctx: OperationContext, project: Project, attempt: { email: string | null; method: string }) => Promise<void>
  >;
}

/**
 * The listeners of a Gatehouse core: every new project gets the default team permission
 * definitions, every new user the project's default permissions (upstream apps/backend/prisma/seed.ts;
 * upstream https://github.com/stack-auth/stack-auth/blob/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/lib/permissions.tsx), a sign-in or sign-up of an address whose verified team domain enforces SSO is refused (core/team-domains), the first dashboard owner is recorded as the server's operator (core/ai-chat), a project's `email_theme` must name one of its themes, and a password sign-up with a `verification_callback_url` its verification
 * email (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/auth/password/). `extra` listeners (an embedding app's, a test's) run after these.
 */
export function coreHooks(extra: Partial<CoreHooks> = {}): CoreHooks {
  return {
    projectCreated: [seedProjectDefinitions, ...(extra.projectCreated ?? [])],
    projectConfigCheck: [checkEmailThemeSetting, ...(extra.projectConfigCheck ?? [])],
    userCreated: [grantNewUserDefaults, recordFirstOwner, ...(extra.userCreated ?? [])],
    passwordSignUp: [sendSignUpVerificationEmail, ...(extra.passwordSignUp ?? [])],
    signInAttempt: [assertSsoNotRequired, ...(extra.signInAttempt ?? [])],
  };
}
