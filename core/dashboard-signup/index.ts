import type { Runtime } from '../runtime.ts';
import type { OperationContext } from '../operations/define.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import { KnownError } from '../errors/index.ts';
import { normalizeEmail } from '../lib/email.ts';
import { listVerificationCodes, wasCodeSentTo } from '../verification-codes/index.ts';
import type { UserRow } from '../users/index.ts';
import { internalOwnerExists } from './queries.ts';

/** Verification-code purpose of team invitations (core/team-invitations). */
const TEAM_INVITATION_PURPOSE = 'team_invitation';

/** What the dashboard shell needs to know: is this the first run, and may strangers sign up. */
export interface DashboardSignUpState {
  /** No (non-anonymous) internal-project user exists yet: show the first owner's sign-up. */
  firstRun: boolean;
  /** Client sign-up to the internal project is accepted right now. */
  signUpOpen: boolean;
  /** The host keeps sign-up open after the first owner (`GATEHOUSE_DASHBOARD_SIGNUP=open`). */
  signUpStaysOpen: boolean;
}

/** The dashboard's sign-up state, read from storage and the host's `dashboardSignUpOpen` option. */
export async function dashboardSignUpState(runtime: Runtime): Promise<DashboardSignUpState> {
  const firstRun = !(await internalOwnerExists(runtime.db));
  const staysOpen = runtime.dashboardSignUpOpen();
  return { firstRun, signUpOpen: firstRun || staysOpen, signUpStaysOpen: staysOpen };
}

/**
 * Server-side first-run rule: once the internal project has a user, sign-up to it with
 * client access (password, one-time code, anonymous) is refused with SIGN_UP_NOT_ENABLED, unless
 * the host keeps it open (`dashboardSignUpOpen`, `GATEHOUSE_DASHBOARD_SIGNUP=open` in the server) or `email` has a pending invitation to a
 * dashboard team (owners invite others through their team). Other projects, and users created
 * with the server or admin key, are unaffected. Sign-up operations call it where they would
 * create a user (a hook of one line each), with the email signing up (none for anonymous).
 *
 * @throws KnownError SIGN_UP_NOT_ENABLED.
 */
export async function assertDashboardSignUpAllowed(ctx: OperationContext, email: string | null = null): Promise<void> {
  const auth = ctx.auth;
  if (!auth || auth.project.id !== INTERNAL_PROJECT_ID || auth.accessType !== 'client') return;
  if (ctx.runtime.dashboardSignUpOpen()) return;
  if (!(await internalOwnerExists(ctx.db))) return;
  if (
    email !== null &&
    (await listVerificationCodes(ctx, INTERNAL_PROJECT_ID, TEAM_INVITATION_PURPOSE, { email: normalizeEmail(email) })).length > 0
  )
    return;
  throw new KnownError('SIGN_UP_NOT_ENABLED');
}

/**
 * The other half of the invitation exception: while dashboard sign-up is
 * closed, an account registered for an address that had already been invited, and whose address
 * is still unverified, has not proved it owns the address, so it may not create projects until it
 * does (accepting the invitation with its emailed code, or verifying the email). Without this,
 * anyone could take an invited address and use the closed dashboard with it.
 *
 * @throws KnownError EMAIL_NOT_VERIFIED.
 */
export async function assertDashboardAccountUsable(ctx: OperationContext, user: UserRow): Promise<void> {
  const auth = ctx.auth;
  if (!auth || auth.project.id !== INTERNAL_PROJECT_ID) return;
  if (user.primary_email_verified || !user.primary_email) return;
  if (ctx.runtime.dashboardSignUpOpen()) return;
  if (await wasCodeSentTo(ctx, INTERNAL_PROJECT_ID, TEAM_INVITATION_PURPOSE, user.primary_email, Number(user.signed_up_at))) {
    throw new KnownError('EMAIL_NOT_VERIFIED');
  }
}
