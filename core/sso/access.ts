import type { OperationContext } from '../operations/define.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import { KnownError } from '../errors/index.ts';
import { getTeamOrThrow } from '../teams/index.ts';
import { requireTeamPermission } from '../permissions/index.ts';
import { requireUser } from '../auth/user-id.ts';
import { findConnection } from './queries.ts';
import type { SsoConnection } from './connection.ts';

/**
 * Checks that the caller may manage `teamId`'s connections: server and admin access may; a client
 * (a signed-in user) needs the system team permission `$manage_sso` in that team.
 *
 * @throws KnownError TEAM_NOT_FOUND, USER_AUTHENTICATION_REQUIRED, TEAM_PERMISSION_REQUIRED
 */
export async function requireManageSso(ctx: OperationContext<RequestAuth>, teamId: string): Promise<void> {
  const projectId = ctx.auth.project.id;
  await getTeamOrThrow(ctx.db, projectId, teamId);
  if (ctx.auth.accessType === 'client') await requireTeamPermission(ctx.db, projectId, teamId, requireUser(ctx.auth).id, '$manage_sso');
}

/**
 * A connection of `teamId` in the caller's project, after {@link requireManageSso}.
 *
 * @throws KnownError SSO_CONNECTION_NOT_FOUND (also for another team's or project's connection)
 */
export async function getManagedConnection(
  ctx: OperationContext<RequestAuth>,
  teamId: string,
  connectionId: string,
): Promise<SsoConnection> {
  await requireManageSso(ctx, teamId);
  const connection = await findConnection(ctx.db, connectionId);
  if (!connection || connection.projectId !== ctx.auth.project.id || connection.teamId !== teamId)
    throw new KnownError('SSO_CONNECTION_NOT_FOUND');
  return connection;
}

/** Known errors of the management operations' access checks. */
export const MANAGE_ERRORS = ['TEAM_NOT_FOUND', 'USER_AUTHENTICATION_REQUIRED', 'TEAM_PERMISSION_REQUIRED'] as const;
