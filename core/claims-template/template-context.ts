import type { Kysely } from 'kysely';
import type { Database } from '../storage/tables.ts';
import type { UserRow } from '../users/index.ts';
import { findTeam, listUserTeamIds } from '../teams/index.ts';
import { listProjectGrants, listTeamGrants } from '../permissions/index.ts';
import { parseJsonText } from '../lib/json-text.ts';
import type { ParsedTemplate } from '../lib/claims-template.ts';

const metadata = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return parseJsonText(text);
  } catch {
    return null;
  }
};

/**
 * The values a claims template reads for `user` (core/lib/claims-template.ts): the user's row, and only what the
 * template's paths need beyond it (the selected team's row, permissions, team ids: one query each).
 */
export async function templateContext(
  db: Kysely<Database>,
  projectId: string,
  user: UserRow,
  claims: ReadonlyArray<[string, ParsedTemplate]>,
): Promise<Record<string, unknown>> {
  const used = new Set(claims.flatMap(([, t]) => t.paths.map((p) => `${p[0]}.${p[1] ?? ''}`)));
  const needs = (path: string) => used.has(path);
  const needsTeam = [...used].some((p) => p.startsWith('team.'));
  const teamId = user.selected_team_id;
  const [team, projectPermissions, teamIds, teamPermissions] = await Promise.all([
    needsTeam && teamId ? findTeam(db, projectId, teamId) : null,
    needs('user.project_permissions') ? listProjectGrants(db, projectId, { userId: user.id, recursive: true }) : null,
    needs('user.team_ids') ? listUserTeamIds(db, projectId, user.id) : null,
    needs('team.permissions') && teamId ? listTeamGrants(db, projectId, { userId: user.id, teamId, recursive: true }) : null,
  ]);
  return {
    user: {
      id: user.id,
      display_name: user.display_name,
      primary_email: user.primary_email,
      primary_email_verified: user.primary_email_verified,
      profile_image_url: user.profile_image_url,
      signed_up_at: Math.floor(Number(user.signed_up_at) / 1000),
      is_anonymous: user.is_anonymous,
      client_metadata: metadata(user.client_metadata),
      client_read_only_metadata: metadata(user.client_read_only_metadata),
      server_metadata: metadata(user.server_metadata),
      ...(projectPermissions ? { project_permissions: projectPermissions.map((g) => g.id) } : {}),
      ...(teamIds ? { team_ids: [...teamIds].sort() } : {}),
    },
    ...(team
      ? {
          team: {
            id: team.id,
            display_name: team.display_name,
            profile_image_url: team.profile_image_url,
            client_metadata: metadata(team.client_metadata),
            client_read_only_metadata: metadata(team.client_read_only_metadata),
            server_metadata: metadata(team.server_metadata),
            permissions: teamPermissions ? teamPermissions.map((g) => g.id) : [],
          },
        }
      : {}),
  };
}
