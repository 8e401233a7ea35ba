import type * as v from 'valibot';
import type { Updateable } from 'kysely';
import { releaseReplacedImages, storeDataImages } from '../images/index.ts';
import { defineOperation } from '../operations/define.ts';
import { toJsonText } from '../lib/json-text.ts';
import type { TeamsTable } from '../storage/tables.ts';
import { requireTeamPermission } from '../permissions/index.ts';
import { requireUser } from '../auth/user-id.ts';
import { getTeam } from './lookup.ts';
import { findTeam, updateTeam as updateTeamRow } from './queries.ts';
import { ClientTeamUpdateSchema, ServerTeamUpdateSchema, TeamParamsSchema } from './schemas.ts';
import { toServerTeam, toTeamForAccess, TeamOutput } from './wire.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';

/**
 * Updates a team's display name, profile image and client metadata (server also
 * `client_read_only_metadata`, `server_metadata`), answering the team. A client needs `$update_team`.
 */
export const updateTeam = defineOperation({
  id: 'teams.update',
  method: 'PATCH',
  path: '/teams/:team_id',
  summary: 'Update a team.',
  access: ['client', 'server', 'admin'],
  input: { params: TeamParamsSchema, body: ServerTeamUpdateSchema },
  clientInput: { params: TeamParamsSchema, body: ClientTeamUpdateSchema },
  errors: ['TEAM_NOT_FOUND', 'TEAM_PERMISSION_REQUIRED', 'USER_AUTHENTICATION_REQUIRED'],
  output: TeamOutput,
  async run(ctx, { params, body }) {
    const projectId = ctx.auth.project.id;
    const b = body as v.InferOutput<typeof ServerTeamUpdateSchema>;
    return ctx.transaction(async (tx) => {
      const before = await getTeam(tx.db, projectId, params.team_id);
      if (ctx.auth.accessType === 'client')
        await requireTeamPermission(tx.db, projectId, params.team_id, requireUser(ctx.auth).id, '$update_team');
      const changes: Updateable<TeamsTable> = {};
      if (b.display_name !== undefined) changes.display_name = b.display_name;
      if (b.profile_image_url !== undefined) {
        changes.profile_image_url = (
          await storeDataImages(tx, projectId, { profile_image_url: b.profile_image_url }, ['profile_image_url'])
        ).profile_image_url;
        await releaseReplacedImages(tx, projectId, before, changes, ['profile_image_url']);
      }
      if (b.client_metadata !== undefined) changes.client_metadata = toJsonText(b.client_metadata);
      if (b.client_read_only_metadata !== undefined) changes.client_read_only_metadata = toJsonText(b.client_read_only_metadata);
      if (b.server_metadata !== undefined) changes.server_metadata = toJsonText(b.server_metadata);
      await updateTeamRow(tx.db, projectId, params.team_id, changes);
      const team = (await findTeam(tx.db, projectId, params.team_id))!;
      await emitWebhookEvent(tx, projectId, 'team.updated', toServerTeam(team));
      return toTeamForAccess(ctx.auth.accessType, team);
    });
  },
});
