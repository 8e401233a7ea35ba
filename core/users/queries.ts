import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Insertable, type Updateable } from 'kysely';
import type { Database, UsersTable } from '../storage/tables.ts';

/** A user row as stored. Domain code reads these fields directly. */
export type UserRow = Selectable<UsersTable>;

export async function findUser(db: Kysely<Database>, projectId: string, userId: string): Promise<UserRow | null> {
  const row = await db.selectFrom('users').selectAll().where('project_id', '=', projectId).where('id', '=', userId).executeTakeFirst();
  return row ?? null;
}

/** The user signing in with `email` (auth-enabled primary email), or null. `email` must be normalized. */
export async function findUserByAuthEmail(db: Kysely<Database>, projectId: string, email: string): Promise<UserRow | null> {
  const row = await db.selectFrom('users').selectAll()
    .where('project_id', '=', projectId).where('primary_email', '=', email).where('primary_email_auth_enabled', '=', 1)
    .executeTakeFirst();
  return row ?? null;
}

export async function insertUser(db: Kysely<Database>, row: Insertable<UsersTable>): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function updateUser(db: Kysely<Database>, projectId: string, userId: string, changes: Updateable<UsersTable>): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('users').set(changes).where('project_id', '=', projectId).where('id', '=', userId).execute();
}

export async function deleteUser(db: Kysely<Database>, projectId: string, userId: string): Promise<void> {
  await db.deleteFrom('users').where('project_id', '=', projectId).where('id', '=', userId).execute();
}

/** The auth-enabled user holding `email` other than `exceptUserId`, or null. `email` must be normalized. */
export async function findOtherUserByAuthEmail(db: Kysely<Database>, projectId: string, email: string, exceptUserId: string): Promise<UserRow | null> {
  const row = await db.selectFrom('users').selectAll()
    .where('project_id', '=', projectId).where('primary_email', '=', email).where('primary_email_auth_enabled', '=', 1)
    .where('id', '!=', exceptUserId)
    .executeTakeFirst();
  return row ?? null;
}

/** Filters and order of one page of `GET /users` (upstream apps/backend/src/app/api/latest/users/). */
export interface UserListOptions {
  /** Page size; undefined lists every match. */
  limit?: number;
  /** Id of the first user of the page (the previous page's `next_cursor`). */
  cursor?: { id: string; signedUpAt: number };
  desc: boolean;
  /** Free text matched, case-insensitively, against id, display name and primary email. */
  query?: string;
  teamId?: string;
  /** `exclude`: no anonymous users; `only`: only anonymous users; `include`: both. */
  anonymous: 'exclude' | 'include' | 'only';
  /** When false, users with a restricted reason (admin restriction, or unverified email if required) are left out. */
  includeRestricted: boolean;
  requireEmailVerification: boolean;
}

/**
 * One page of a project's users ordered by `(signed_up_at, id)`. Fetches `limit + 1` rows so the
 * caller can tell whether another page follows.
 */
export async function listUsersPage(db: Kysely<Database>, projectId: string, options: UserListOptions): Promise<UserRow[]> {
  const dir = options.desc ? 'desc' : 'asc';
  let q = db.selectFrom('users').selectAll().where('project_id', '=', projectId);
  if (options.anonymous === 'exclude') q = q.where('is_anonymous', '=', 0);
  if (options.anonymous === 'only') q = q.where('is_anonymous', '=', 1);
  if (!options.includeRestricted) {
    q = q.where('is_anonymous', '=', 0).where('restricted_by_admin', '=', 0);
    if (options.requireEmailVerification) q = q.where('primary_email_verified', '=', 1);
  }
  if (options.teamId) {
    const teamId = options.teamId;
    q = q.where('id', 'in', (sub) => sub.selectFrom('team_members').select('user_id').where('project_id', '=', projectId).where('team_id', '=', teamId));
  }
  if (options.query) {
    const pattern = `%${options.query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or([
      eb(sql`lower(id)`, 'like', sql`${pattern} escape '\\'`),
      eb(sql`lower(display_name)`, 'like', sql`${pattern} escape '\\'`),
      eb(sql`lower(primary_email)`, 'like', sql`${pattern} escape '\\'`),
    ]));
  }
  if (options.cursor) {
    const { id, signedUpAt } = options.cursor;
    const op = options.desc ? '<' : '>';
    q = q.where((eb) => eb.or([
      eb('signed_up_at', op, signedUpAt),
      eb.and([eb('signed_up_at', '=', signedUpAt), eb('id', options.desc ? '<=' : '>=', id)]),
    ]));
  }
  q = q.orderBy('signed_up_at', dir).orderBy('id', dir);
  if (options.limit !== undefined) q = q.limit(options.limit + 1);
  return q.execute();
}

/** A user's linked OAuth provider accounts as the user object shows them (`oauth_providers`, oldest first). */
export interface OAuthProviderLink { id: string; account_id: string; email: string | null }

/** The linked OAuth provider accounts of several users of a project, by user id (table of core/auth-oauth). */
export async function listOAuthProviderLinks(db: Kysely<Database>, projectId: string, userIds: string[]): Promise<Map<string, OAuthProviderLink[]>> {
  const out = new Map<string, OAuthProviderLink[]>();
  if (userIds.length === 0) return out;
  const rows = await db.selectFrom('oauth_accounts').select(['user_id', 'provider_id', 'provider_account_id', 'email'])
    .where('project_id', '=', projectId).where('user_id', 'in', userIds).orderBy('created_at').orderBy('id').execute();
  for (const row of rows) {
    const list = out.get(row.user_id) ?? [];
    list.push({ id: row.provider_id, account_id: row.provider_account_id, email: row.email });
    out.set(row.user_id, list);
  }
  return out;
}

/** Links provider accounts to a new user (`POST /users` `oauth_providers`), usable for sign-in and as connected accounts. */
export async function insertOAuthProviderLinks(db: Kysely<Database>, projectId: string, userId: string, links: OAuthProviderLink[], now: number): Promise<void> {
  for (const link of links) {
    await db.insertInto('oauth_accounts').values({
      id: randomUUID(), project_id: projectId, user_id: userId, provider_id: link.id, provider_account_id: link.account_id,
      email: link.email, allow_sign_in: 1, allow_connected_accounts: 1, created_at: now,
    }).execute();
  }
}
