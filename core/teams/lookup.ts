import type { Kysely } from 'kysely';
import { KnownError } from '../errors/index.ts';
import type { Database } from '../storage/tables.ts';
import { findTeam, findTeamMember, type TeamMemberRow, type TeamRow } from './queries.ts';

/** The team, or TEAM_NOT_FOUND `{team_id}`. */
export async function getTeam(db: Kysely<Database>, projectId: string, teamId: string): Promise<TeamRow> {
  const team = await findTeam(db, projectId, teamId);
  if (!team) throw new KnownError('TEAM_NOT_FOUND', { team_id: teamId });
  return team;
}

/** The membership, or TEAM_MEMBERSHIP_NOT_FOUND `{team_id, user_id}`. */
export async function getTeamMember(db: Kysely<Database>, projectId: string, teamId: string, userId: string): Promise<TeamMemberRow> {
  const member = await findTeamMember(db, projectId, teamId, userId);
  if (!member) throw new KnownError('TEAM_MEMBERSHIP_NOT_FOUND', { team_id: teamId, user_id: userId });
  return member;
}
