import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Insertable, type Updateable } from 'kysely';
import type { Database, UsersTable } from '../storage/tables.ts';
import { precompiled } from '../storage/precompiled.ts';

/** A user row as stored. Domain code reads these fields directly. */
export type UserRow = Selectable<UsersTable>;

const userById = precompiled((db, a: { projectId: string; userId: string }) =>
  db.selectFrom('users').selectAll().where('project_id', '=', a.projectId).where('id', '=', a.userId),
);

/** The user `userId` of `projectId`, or null. Precompiled: it runs on every refresh and sign-in. */
export async function findUser(db: Kysely<Database>, projectId: string, userId: string): Promise<UserRow | null> {
  return (await userById.executeTakeFirst(db, { projectId, userId })) ?? null;
}

const userForRequest = precompiled((db, a: { projectId: string; userId: string }) =>
  db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('oauth_accounts')
            .select('oauth_accounts.id')
            .whereRef('oauth_accounts.project_id', '=', 'users.project_id')
            .whereRef('oauth_accounts.user_id', '=', 'users.id'),
        )
        .as('has_oauth_links'),
    )
    .where('users.project_id', '=', a.projectId)
    .where('users.id', '=', a.userId),
);

/**
 * The user of a request's access token, with whether the user has any linked OAuth provider
 * account (`oauth_accounts`, table of core/auth-oauth), in one statement: the user object's
 * `oauth_providers` then needs its own query only for users that have links. Precompiled
 * (core/storage/precompiled.ts): it runs on every authenticated request.
 */
export async function findUserForRequest(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
): Promise<{ user: UserRow; hasOAuthLinks: boolean } | null> {
  const row = await userForRequest.executeTakeFirst(db, { projectId, userId });
  if (!row) return null;
  const { has_oauth_links: hasOAuthLinks, ...user } = row;
  // SQLite answers 0/1, PostgreSQL a boolean.
  return { user: user as UserRow, hasOAuthLinks: Boolean(Number(hasOAuthLinks)) };
}

/** The user signing in with `email` (auth-enabled primary email), or null. `email` must be normalized. */
export async function findUserByAuthEmail(db: Kysely<Database>, projectId: string, email: string): Promise<UserRow | null> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('primary_email', '=', email)
    .where('primary_email_auth_enabled', '=', true)
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
export async function findOtherUserByAuthEmail(
  db: Kysely<Database>,
  projectId: string,
  email: string,
  exceptUserId: string,
): Promise<UserRow | null> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('primary_email', '=', email)
    .where('primary_email_auth_enabled', '=', true)
    .where('id', '!=', exceptUserId)
    .executeTakeFirst();
  return row ?? null;
}

/** Sort keys of `GET /users`: upstream's `signed_up_at`, and `last_active_at`. */
export type UserListOrder = 'signed_up_at' | 'last_active_at';

/** Filters and order of one page of `GET /users` (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/users/). */
export interface UserListOptions {
  /** Page size; undefined lists every match. */
  limit?: number;
  /** The first user of the page (the previous page's `next_cursor`): its id and its sort key value. */
  cursor?: { id: string; value: number };
  orderBy: UserListOrder;
  desc: boolean;
  /** Free text matched, case-insensitively, against id, display name and primary email. */
  query?: string;
  teamId?: string;
  /** `exclude`: no anonymous users; `only`: only anonymous users; `include`: both. */
  anonymous: 'exclude' | 'include' | 'only';
  /** When false, users with a restricted reason (admin restriction, or unverified email if required) are left out. */
  includeRestricted: boolean;
  requireEmailVerification: boolean;
  /** Which index answers `query` (migration 0017): FTS5 trigram on SQLite, pg_trgm on PostgreSQL. */
  dialect: 'sqlite' | 'postgres';
}

/** The sort key of `order`, as SQL: `last_active_at` falls back to `signed_up_at` (the index's expression). */
function sortKey(order: UserListOrder) {
  return order === 'last_active_at' ? sql<number>`coalesce(users.last_active_at, users.signed_up_at)` : sql<number>`users.signed_up_at`;
}

/** The value of `order`'s sort key for `user` (the cursor's position). */
export function sortValue(user: UserRow, order: UserListOrder): number {
  return Number(order === 'last_active_at' ? (user.last_active_at ?? user.signed_up_at) : user.signed_up_at);
}

/** Search text shorter than this many characters cannot use a trigram index and is scanned. */
const TRIGRAM = 3;

/**
 * One page of a project's users ordered by `(sort key, id)`, by keyset (the cursor's position),
 * so every page costs the same at any depth (a million users). Fetches `limit + 1` rows
 * so the caller can tell whether another page follows.
 *
 * `query` is a case-insensitive substring of id, email or display name. From 3 characters on it
 * is answered through a trigram index (migration 0017): on PostgreSQL the planner uses the
 * pg_trgm GIN indexes for `lower(col) like …`; on SQLite the FTS5 trigram table answers it.
 * Shorter text scans the project's users with LIKE.
 */
export async function listUsersPage(db: Kysely<Database>, projectId: string, options: UserListOptions): Promise<UserRow[]> {
  const dir = options.desc ? 'desc' : 'asc';
  const key = sortKey(options.orderBy);
  let base = db.selectFrom('users').selectAll().where('project_id', '=', projectId);
  if (options.anonymous === 'exclude') base = base.where('is_anonymous', '=', false);
  if (options.anonymous === 'only') base = base.where('is_anonymous', '=', true);
  if (!options.includeRestricted) {
    base = base.where('is_anonymous', '=', false).where('restricted_by_admin', '=', false);
    if (options.requireEmailVerification) base = base.where('primary_email_verified', '=', true);
  }
  if (options.teamId) {
    const teamId = options.teamId;
    base = base.where('id', 'in', (sub) =>
      sub.selectFrom('team_members').select('user_id').where('project_id', '=', projectId).where('team_id', '=', teamId),
    );
  }
  if (options.cursor) {
    const { id, value } = options.cursor;
    // A plain range on the sort key (`key <= x`), which both databases answer from the sort
    // index, then the tie-break on id among the rows at `x`. Written as `key < x or (key = x and
    // id <= y)` alone it is no range: SQLite scanned up to the cursor, 1.1 s in the middle of a
    // million users; a row value `(key, id) <= (x, y)` is one on PostgreSQL and for a column on
    // SQLite, but not for SQLite's expression index on last activity. The cursor's user starts the
    // page (upstream's cursor is the next page's first item).
    base = options.desc
      ? base.where(key, '<=', value).where((eb) => eb.or([eb(key, '<', value), eb('id', '<=', id)]))
      : base.where(key, '>=', value).where((eb) => eb.or([eb(key, '>', value), eb('id', '>=', id)]));
  }
  const ordered = base.orderBy(key, dir).orderBy('id', dir);
  const page = (limit: number | undefined) => (limit === undefined ? undefined : limit + 1);
  if (!options.query) {
    const limit = page(options.limit);
    return (limit === undefined ? ordered : ordered.limit(limit)).execute();
  }
  // U+0001 joins the fields in SQLite's search index (migration 0017): never part of a match.
  const text = options.query.toLowerCase().replaceAll('\u0001', '');
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const like = (q: typeof base) =>
    q.where((eb) =>
      eb.or([
        eb(sql`lower(users.id)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(users.display_name)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(users.primary_email)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  const limit = page(options.limit);
  if ([...text].length < TRIGRAM) {
    const scanned = like(base).orderBy(key, dir).orderBy('id', dir);
    return (limit === undefined ? scanned : scanned.limit(limit)).execute();
  }
  // A common text (one that matches many users) fills the page within the first rows in sort
  // order: look there first, in the sort index, a bounded number of rows. Only when that does not
  // fill the page is the trigram index asked, which then returns few rows to sort (a text that
  // matches most of a million users would otherwise be every row fetched, then sorted).
  // The window is aliased `users`, so it has the table's columns under the table's name (the cast
  // tells the type checker so).
  // SQLite's lower() folds ASCII only, while its trigram index folds all of Unicode: there the
  // LIKE look-ahead would miss matches for a text with other letters, so only ASCII text takes it.
  if (limit !== undefined && (options.dialect === 'postgres' || /^[\x20-\x7e]*$/.test(text))) {
    const window = db.selectFrom(ordered.limit(SEARCH_PROBE_ROWS).as('users')).selectAll();
    const probe = await like(window as unknown as typeof base)
      .orderBy(key, dir)
      .orderBy('id', dir)
      .limit(limit)
      .execute();
    if (probe.length === limit) return probe;
  }
  let indexed = base;
  if (options.dialect === 'sqlite') {
    // A phrase of the trigram tokenizer matches the text as a contiguous substring, with Unicode
    // case folding; the fields are joined with U+0001, removed from the text above, so a match
    // never spans two fields.
    const phrase = `"${text.replace(/"/g, '""')}"`;
    indexed = indexed.where(
      'id',
      'in',
      sql<string>`(select k.user_id from users_search s join users_search_keys k on k.n = s.rowid where users_search match ${phrase})`,
    );
  } else {
    // The matches are collected first (a materialized CTE: the pg_trgm bitmap scans), then the
    // page is sorted out of them. Left to itself with `order by … limit`, the planner walks the
    // sort index and filters, betting on its estimate of the matches (1 in 100): for a text whose
    // matches all lie far from the sort's start that read 870,000 rows (2.5 s) instead of 11,111
    // through the index (48 ms). The look-ahead above already served texts that match early rows.
    const matches = db
      .with(
        (cte) => cte('matches').materialized(),
        () => like(indexed),
      )
      .selectFrom('matches as users')
      .selectAll()
      .orderBy(key, dir)
      .orderBy('id', dir);
    return (limit === undefined ? matches : matches.limit(limit)).execute() as Promise<UserRow[]>;
  }
  const found = indexed.orderBy(key, dir).orderBy('id', dir);
  return (limit === undefined ? found : found.limit(limit)).execute();
}

/**
 * How many rows, in sort order, a search looks through before it asks the trigram index
 * ({@link listUsersPage}): enough for a text that matches one user in a hundred to fill a page of
 * 25, few enough to cost a few milliseconds.
 */
const SEARCH_PROBE_ROWS = 2_000;

/** A user's linked OAuth provider accounts as the user object shows them (`oauth_providers`, oldest first). */
export interface OAuthProviderLink {
  id: string;
  account_id: string;
  email: string | null;
}

/** The linked OAuth provider accounts of several users of a project, by user id (table of core/auth-oauth). */
export async function listOAuthProviderLinks(
  db: Kysely<Database>,
  projectId: string,
  userIds: string[],
): Promise<Map<string, OAuthProviderLink[]>> {
  const out = new Map<string, OAuthProviderLink[]>();
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom('oauth_accounts')
    .select(['user_id', 'provider_id', 'provider_account_id', 'email'])
    .where('project_id', '=', projectId)
    .where('user_id', 'in', userIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = out.get(row.user_id) ?? [];
    list.push({ id: row.provider_id, account_id: row.provider_account_id, email: row.email });
    out.set(row.user_id, list);
  }
  return out;
}

/** Links provider accounts to a new user (`POST /users` `oauth_providers`), usable for sign-in and as connected accounts. */
export async function insertOAuthProviderLinks(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  links: OAuthProviderLink[],
  now: number,
): Promise<void> {
  for (const link of links) {
    await db
      .insertInto('oauth_accounts')
      .values({
        id: randomUUID(),
        project_id: projectId,
        user_id: userId,
        provider_id: link.id,
        provider_account_id: link.account_id,
        email: link.email,
        allow_sign_in: true,
        allow_connected_accounts: true,
        created_at: now,
      })
      .execute();
  }
}
