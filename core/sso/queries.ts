import type { Kysely, Updateable } from 'kysely';
import type { Database, SsoConnectionsTable } from '../storage/tables.ts';
import { fromRow, type SsoConnection } from './connection.ts';

/** A connection by id (any project: the SAML and OpenID endpoints are reached by connection id), or null. */
export async function findConnection(db: Kysely<Database>, connectionId: string): Promise<SsoConnection | null> {
  const row = await db.selectFrom('sso_connections').selectAll().where('id', '=', connectionId).executeTakeFirst();
  return row ? fromRow(row) : null;
}

/** A team's connections, oldest first. */
export async function listTeamConnections(db: Kysely<Database>, projectId: string, teamId: string): Promise<SsoConnection[]> {
  const rows = await db
    .selectFrom('sso_connections')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(fromRow);
}

/**
 * A project's connections whose `domains` list holds `domain` (at most 50, oldest first). The JSON
 * text is matched with LIKE on the quoted domain; domains are validated to letters, digits, dots
 * and hyphens (schemas.ts), so the pattern holds no LIKE wildcard.
 */
export async function listConnectionsNamingDomain(db: Kysely<Database>, projectId: string, domain: string): Promise<SsoConnection[]> {
  const pattern = `%${JSON.stringify(domain)}%`;
  const rows = await db
    .selectFrom('sso_connections')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('domains', 'like', pattern)
    .orderBy('created_at')
    .orderBy('id')
    .limit(50)
    .execute();
  return rows.map(fromRow);
}

/** Inserts a connection row. */
export async function insertConnection(db: Kysely<Database>, row: SsoConnectionsTable): Promise<void> {
  await db.insertInto('sso_connections').values(row).execute();
}

/** Updates a connection row. */
export async function updateConnectionRow(
  db: Kysely<Database>,
  connectionId: string,
  changes: Updateable<SsoConnectionsTable>,
): Promise<void> {
  await db.updateTable('sso_connections').set(changes).where('id', '=', connectionId).execute();
}

/** Deletes a connection (its used assertion ids go with it). */
export async function deleteConnectionRow(db: Kysely<Database>, connectionId: string): Promise<void> {
  await db.deleteFrom('sso_used_assertions').where('connection_id', '=', connectionId).execute();
  await db.deleteFrom('sso_connections').where('id', '=', connectionId).execute();
}

/**
 * Records a SAML assertion id as used through a connection, unless it already is.
 *
 * @returns false when the id was recorded before (a replay)
 */
export async function recordAssertionId(
  db: Kysely<Database>,
  connectionId: string,
  assertionId: string,
  expiresAt: number,
  now: number,
): Promise<boolean> {
  await db.deleteFrom('sso_used_assertions').where('expires_at', '<', now).execute();
  const result = await db
    .insertInto('sso_used_assertions')
    .values({ connection_id: connectionId, assertion_id: assertionId, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['connection_id', 'assertion_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Connections reading their IdP from a metadata URL last fetched before `before` (or never), oldest fetch first. */
export async function listStaleMetadataConnections(db: Kysely<Database>, before: number, limit: number): Promise<SsoConnection[]> {
  const rows = await db
    .selectFrom('sso_connections')
    .selectAll()
    .where('idp_metadata_url', 'is not', null)
    .where((eb) => eb.or([eb('metadata_fetched_at', 'is', null), eb('metadata_fetched_at', '<', before)]))
    .orderBy('metadata_fetched_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(fromRow);
}

/**
 * Claims a connection for a metadata refresh: moves `metadata_fetched_at` from `seen` to `now`.
 *
 * @returns false when another process moved it first
 */
export async function claimMetadataRefresh(db: Kysely<Database>, connectionId: string, seen: number | null, now: number): Promise<boolean> {
  const result = await db
    .updateTable('sso_connections')
    .set({ metadata_fetched_at: now })
    .where('id', '=', connectionId)
    .where((eb) => (seen === null ? eb('metadata_fetched_at', 'is', null) : eb('metadata_fetched_at', '=', seen)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Whether the project has at least one SSO connection. */
export async function projectHasConnections(db: Kysely<Database>, projectId: string): Promise<boolean> {
  const row = await db.selectFrom('sso_connections').select('id').where('project_id', '=', projectId).limit(1).executeTakeFirst();
  return row !== undefined;
}
