import type { OperationContext, RawReply } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import { codeRedirect, issueAuthorizationCode, settleAccount, type OuterFlow, type ProviderUserInfo } from '../auth-oauth/index.ts';
import { findTeamMember, insertTeamMember } from '../teams/index.ts';
import { grantTeamDefaults, grantTeamPermissionIds } from '../permissions/index.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';
import { recordSignInFailure } from '../sign-in-log/index.ts';
import { ssoProviderId, type SsoConnection } from './connection.ts';
import { idpVouchesFor } from './email-routing.ts';
import { applyGroupPermissions } from './group-permissions.ts';

/**
 * Just-in-time membership: a user who signs in through a team's connection joins that team, with
 * the connection's `default_permissions` (or the project's `team_member_default_permissions`
 * when it has none). An existing member keeps the permissions it has. Inside the sign-in's transaction.
 */
async function joinTeam(tx: OperationContext, project: Project, connection: SsoConnection, userId: string): Promise<void> {
  if (await findTeamMember(tx.db, project.id, connection.teamId, userId)) return;
  await insertTeamMember(tx.db, project.id, connection.teamId, userId, tx.now);
  if (connection.defaultPermissions === null) await grantTeamDefaults(tx.db, project, connection.teamId, userId, 'member', tx.now);
  else await grantTeamPermissionIds(tx.db, project, connection.teamId, userId, connection.defaultPermissions, tx.now);
  await emitWebhookEvent(tx, project.id, 'team_membership.created', { team_id: connection.teamId, user_id: userId });
}

/**
 * Ends a sign-in through a connection as an OAuth sign-in ends (core/auth-oauth callback.ts): in
 * one transaction finds or signs up the user of the IdP account (linked under `sso:<connection
 * id>`; the address counts as verified only when the IdP may vouch for it, email-routing.ts),
 * joins the connection's team, applies the connection's group mapping (group-permissions.ts), and
 * issues the authorization code the app redeems at `/auth/oauth/token`. With the connection's
 * `mfa_policy` `require_ours` a user with TOTP is asked for a code there, as after an OAuth
 * sign-in (MULTI_FACTOR_AUTHENTICATION_REQUIRED with an attempt code for `/auth/mfa/sign-in`); with
 * `trust_idp` the IdP's sign-in counts as both factors. Answers 303 to the app's `redirect_uri`
 * with `code` and `state`. The sign-in is logged.
 */
export async function finishSsoSignIn(
  ctx: OperationContext,
  project: Project,
  connection: SsoConnection,
  flow: OuterFlow,
  identity: Omit<ProviderUserInfo, 'emailVerified'>,
  groups: readonly string[],
): Promise<RawReply> {
  const info: ProviderUserInfo = { ...identity, emailVerified: await idpVouchesFor(ctx.db, connection, identity.email) };
  const { code, userId, isNewUser } = await ctx.transaction(async (tx) => {
    const settled = await settleAccount(
      tx,
      project,
      ssoProviderId(connection.id),
      info,
      'authenticate',
      null,
      flow.botChallenge ?? { result: 'error' },
    );
    await joinTeam(tx, project, connection, settled.user.id);
    await applyGroupPermissions(tx, project, connection, settled.user.id, groups);
    const issued = await issueAuthorizationCode(tx, {
      projectId: project.id,
      userId: settled.user.id,
      redirectUri: flow.redirectUri,
      codeChallenge: flow.codeChallenge,
      isNewUser: settled.isNewUser,
      afterCallbackRedirectUrl: flow.afterCallbackRedirectUrl,
      kind: connection.mfaPolicy === 'trust_idp' ? 'sso_trusted' : 'sign_in',
    });
    return { code: issued, userId: settled.user.id, isNewUser: settled.isNewUser };
  });
  ctx.runtime.log.info(
    {
      project_id: project.id,
      connection_id: connection.id,
      team_id: connection.teamId,
      user_id: userId,
      is_new_user: isNewUser,
      type: connection.type,
      mfa_policy: connection.mfaPolicy,
    },
    'SSO sign-in',
  );
  return codeRedirect(flow, code, true);
}

/** Records a refused SSO sign-in in the project's sign-in failure log (no address, no IdP payload). */
export function recordSsoFailure(ctx: OperationContext, connection: SsoConnection): Promise<void> {
  return recordSignInFailure(ctx.db, {
    projectId: connection.projectId,
    userId: null,
    factor: 'sso',
    reason: 'sso_response_refused',
    now: ctx.now,
  });
}
