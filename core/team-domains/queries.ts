import type { Kysely } from 'kysely';
import type { Database, TeamDomainsTable } from '../storage/tables.ts';

/** A team's claimed domain (`team_domains` row). */
export type TeamDomainRow = TeamDomainsTable;

/** The domain `domain` claimed by `teamId`, or null. */
export async function findTeamDomain(
  db: Kysely<Database>,
  projectId: string,
  teamId: string,
  domain: string,
): Promise<TeamDomainRow | null> {
  const row = await db
    .selectFrom('team_domains')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('domain', '=', domain)
    .executeTakeFirst();
  return row ?? null;
}

/** The domains `teamId` claims, by name. */
export async function listTeamDomainRows(db: Kysely<Database>, projectId: string, teamId: string): Promise<TeamDomainRow[]> {
  return db
    .selectFrom('team_domains')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .orderBy('domain')
    .limit(MAX_DOMAINS_PER_TEAM)
    .execute();
}

/** Most domains one team may claim. */
export const MAX_DOMAINS_PER_TEAM = 50;

/** How many domains `teamId` claims. */
export async function countTeamDomains(db: Kysely<Database>, projectId: string, teamId: string): Promise<number> {
  const row = await db
    .selectFrom('team_domains')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The row of the team that has verified `domain` in the project, or null. */
export async function findVerifiedDomain(db: Kysely<Database>, projectId: string, domain: string): Promise<TeamDomainRow | null> {
  const row = await db
    .selectFrom('team_domains')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('verified_domain', '=', domain)
    .executeTakeFirst();
  return row ?? null;
}

export async function insertTeamDomain(db: Kysely<Database>, row: TeamDomainRow): Promise<void> {
  await db.insertInto('team_domains').values(row).execute();
}

/** Sets the verified state (`verifiedAt` null unverifies) and/or the SSO flag of a claimed domain. */
export async function updateTeamDomainRow(
  db: Kysely<Database>,
  row: Pick<TeamDomainRow, 'project_id' | 'team_id' | 'domain'>,
  fields: Partial<Pick<TeamDomainRow, 'verified_domain' | 'verified_at' | 'sso_enforced'>>,
): Promise<void> {
  await db
    .updateTable('team_domains')
    .set(fields)
    .where('project_id', '=', row.project_id)
    .where('team_id', '=', row.team_id)
    .where('domain', '=', row.domain)
    .execute();
}

/** Deletes a claimed domain; true when there was one. */
export async function deleteTeamDomainRow(db: Kysely<Database>, projectId: string, teamId: string, domain: string): Promise<boolean> {
  const result = await db
    .deleteFrom('team_domains')
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('domain', '=', domain)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
