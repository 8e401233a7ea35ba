import type { Kysely } from 'kysely';
import { KnownError } from '../errors/index.ts';
import { INTERNAL_PROJECT_ID, type RequestAuth } from '../auth/request-auth.ts';
import type { OperationContext } from '../operations/define.ts';
import type { Project } from '../projects/index.ts';
import type { UserRow } from '../users/index.ts';
import type { Database } from '../storage/tables.ts';
import { findFirstOwnerId, insertServerSettingOnce, readServerSetting } from './queries.ts';

/** `server_settings` key naming the server operator (the first dashboard owner). */
const OPERATOR_KEY = 'operator_user_id';

/**
 * `userCreated` listener (core/hooks.ts): the first non-anonymous user of the internal project
 * (the person who set the server up) is recorded as the server's operator, once.
 */
export async function recordFirstOwner(ctx: OperationContext, project: Project, user: UserRow): Promise<void> {
  if (project.id !== INTERNAL_PROJECT_ID || user.is_anonymous) return;
  await insertServerSettingOnce(ctx.db, OPERATOR_KEY, user.id);
}

/** The server operator's user id (the first dashboard owner), or null before anyone signed up. */
export async function operatorId(db: Kysely<Database>): Promise<string | null> {
  const recorded = await readServerSetting(db, OPERATOR_KEY);
  if (recorded) return recorded;
  // A server from before the record existed: its earliest owner, recorded from now on.
  const first = await findFirstOwnerId(db);
  if (first) await insertServerSettingOnce(db, OPERATOR_KEY, first);
  return first === null ? null : ((await readServerSetting(db, OPERATOR_KEY)) ?? first);
}

/**
 * Whether the caller may change the server's (deployment-wide) settings: the holder of the
 * internal project's admin key, or the operator (the first dashboard owner, who set the server
 * up; later owners join through invitations). Other owners may see whether the assistant is on.
 *
 * @throws KnownError EXPECTED_INTERNAL_PROJECT, USER_AUTHENTICATION_REQUIRED.
 */
export async function isOperator(ctx: OperationContext<RequestAuth>): Promise<boolean> {
  if (ctx.auth.project.id !== INTERNAL_PROJECT_ID) throw new KnownError('EXPECTED_INTERNAL_PROJECT');
  if (ctx.auth.accessType === 'admin' && !ctx.auth.user && !ctx.auth.viaAdminAccessToken) return true;
  if (!ctx.auth.user) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
  return (await operatorId(ctx.db)) === ctx.auth.user.id;
}
