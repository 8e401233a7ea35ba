import type { Kysely, Selectable } from 'kysely';
import type { Database, OAuthAccountsTable, OAuthAuthorizationCodesTable, OAuthFlowsTable, OAuthTokensTable } from '../storage/tables.ts';

export type OAuthFlowRow = Selectable<OAuthFlowsTable>;
export type AuthorizationCodeRow = Selectable<OAuthAuthorizationCodesTable>;
export type OAuthAccountRow = Selectable<OAuthAccountsTable>;
export type OAuthTokenRow = Selectable<OAuthTokensTable>;

// ── flows towards providers ────────────────────────────────────────────────────────────────

export async function insertFlow(db: Kysely<Database>, row: OAuthFlowRow): Promise<void> {
  await db.insertInto('oauth_flows').values(row).execute();
}

/** Removes and returns the flow of a state hash (single use), or null when there is none. */
export async function takeFlow(db: Kysely<Database>, stateHash: string): Promise<OAuthFlowRow | null> {
  const row = await db.selectFrom('oauth_flows').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
  if (!row) return null;
  const deleted = await db.deleteFrom('oauth_flows').where('state_hash', '=', stateHash).executeTakeFirst();
  // A concurrent callback with the same state took it first.
  return Number(deleted.numDeletedRows) === 1 ? row : null;
}

/** Drops flows that expired before `now` (housekeeping on each new flow). */
export async function deleteExpiredFlows(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('oauth_flows').where('expires_at', '<', now).execute();
}

// ── Gatehouse authorization codes ─────────────────────────────────────────────────────────

export async function insertAuthorizationCode(db: Kysely<Database>, row: AuthorizationCodeRow): Promise<void> {
  await db.insertInto('oauth_authorization_codes').values(row).execute();
}

/**
 * Marks the code used and returns it, only if it was unused: the one redemption attempt a code
 * gets. Null for unknown or already used codes.
 */
export async function consumeAuthorizationCode(
  db: Kysely<Database>,
  projectId: string,
  codeHash: string,
  now: number,
): Promise<AuthorizationCodeRow | null> {
  const result = await db
    .updateTable('oauth_authorization_codes')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('project_id', '=', projectId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  const row = await db.selectFrom('oauth_authorization_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
  return row ?? null;
}

export async function deleteExpiredAuthorizationCodes(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('oauth_authorization_codes').where('expires_at', '<', now).execute();
}

// ── linked provider accounts ──────────────────────────────────────────────────────────────

export async function findAccountByProviderAccount(
  db: Kysely<Database>,
  projectId: string,
  providerId: string,
  providerAccountId: string,
): Promise<OAuthAccountRow | null> {
  const row = await db
    .selectFrom('oauth_accounts')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('provider_id', '=', providerId)
    .where('provider_account_id', '=', providerAccountId)
    .executeTakeFirst();
  return row ?? null;
}

/** A user's accounts, oldest first; only those of `providerId` when given. */
export async function listUserAccounts(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  providerId?: string,
): Promise<OAuthAccountRow[]> {
  let query = db.selectFrom('oauth_accounts').selectAll().where('project_id', '=', projectId).where('user_id', '=', userId);
  if (providerId !== undefined) query = query.where('provider_id', '=', providerId);
  return query.orderBy('created_at').orderBy('id').execute();
}

/** Every account of a project (server listing without a user), oldest first. */
export async function listProjectAccounts(db: Kysely<Database>, projectId: string): Promise<OAuthAccountRow[]> {
  return db
    .selectFrom('oauth_accounts')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(10_000)
    .execute();
}

export async function insertAccount(db: Kysely<Database>, row: OAuthAccountRow): Promise<void> {
  await db.insertInto('oauth_accounts').values(row).execute();
}

export async function updateAccount(
  db: Kysely<Database>,
  projectId: string,
  id: string,
  fields: Partial<Pick<OAuthAccountRow, 'email' | 'allow_sign_in' | 'allow_connected_accounts' | 'provider_account_id'>>,
): Promise<void> {
  if (Object.keys(fields).length === 0) return;
  await db.updateTable('oauth_accounts').set(fields).where('project_id', '=', projectId).where('id', '=', id).execute();
}

export async function deleteAccount(db: Kysely<Database>, projectId: string, id: string): Promise<void> {
  await db.deleteFrom('oauth_accounts').where('project_id', '=', projectId).where('id', '=', id).execute();
}

/** Deletes every provider account of a user (their stored tokens go with them: ON DELETE CASCADE); returns how many. */
export async function deleteUserAccounts(db: Kysely<Database>, projectId: string, userId: string): Promise<number> {
  const result = await db.deleteFrom('oauth_accounts').where('project_id', '=', projectId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ── provider tokens (sealed) ──────────────────────────────────────────────────────────────

export async function insertToken(db: Kysely<Database>, row: OAuthTokenRow): Promise<void> {
  await db.insertInto('oauth_tokens').values(row).execute();
}

/** Valid tokens of `kind` for the given accounts, newest first. */
export async function listValidTokens(
  db: Kysely<Database>,
  projectId: string,
  accountIds: string[],
  kind: 'refresh' | 'access',
): Promise<OAuthTokenRow[]> {
  if (accountIds.length === 0) return [];
  return db
    .selectFrom('oauth_tokens')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('oauth_account_id', 'in', accountIds)
    .where('kind', '=', kind)
    .where('is_valid', '=', true)
    .orderBy('created_at', 'desc')
    .execute();
}

export async function invalidateToken(db: Kysely<Database>, projectId: string, id: string): Promise<void> {
  await db.updateTable('oauth_tokens').set({ is_valid: false }).where('project_id', '=', projectId).where('id', '=', id).execute();
}
