import type { Kysely } from 'kysely';
import { KnownError, StatusError } from '../errors/index.ts';
import type { RequestAuth } from '../auth/request-auth.ts';
import type { Database } from '../storage/tables.ts';
import { hasTeamPermission } from '../permissions/index.ts';
import type { ApiKeyType } from './secret.ts';

/** 400 text unless the project allows keys of `type` (`allow_user_api_keys` / `allow_team_api_keys`). */
export function requireKeysEnabled(auth: RequestAuth, type: ApiKeyType): void {
  if (type === 'user' && !auth.project.config.allowUserApiKeys)
    throw new StatusError('bad-request', 'User API keys are not enabled for this project.');
  if (type === 'team' && !auth.project.config.allowTeamApiKeys)
    throw new StatusError('bad-request', 'Team API keys are not enabled for this project.');
}

/**
 * For client callers: a signed-in user (USER_AUTHENTICATION_REQUIRED) managing its own keys
 * (403 text otherwise) or a team's keys with `$manage_api_keys` there. Without that permission the
 * answer is API_KEY_NOT_FOUND, so the team's existence does not leak (upstream behaviour).
 * Server and admin callers pass.
 */
export async function requireCanManage(
  db: Kysely<Database>,
  auth: RequestAuth,
  owner: { userId?: string | null; teamId?: string | null },
): Promise<void> {
  if (auth.accessType !== 'client') return;
  if (!auth.user) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
  if (owner.userId && owner.userId !== auth.user.id) throw new StatusError('forbidden', 'Client can only manage their own api keys');
  if (owner.teamId && !(await hasTeamPermission(db, auth.project.id, owner.teamId, auth.user.id, '$manage_api_keys'))) {
    throw new KnownError('API_KEY_NOT_FOUND');
  }
}
