import * as v from 'valibot';
import { storeDataImages } from '../images/index.ts';
import { defineOperation } from '../operations/define.ts';
import { KnownError, StatusError } from '../errors/index.ts';
import { QueryBooleanSchema } from '../lib/schemas.ts';
import { toJsonText } from '../lib/json-text.ts';
import { uuid } from '../lib/random.ts';
import { findUser } from '../users/index.ts';
import { grantTeamDefaults } from '../permissions/index.ts';
import { resolveMe, requireUser } from '../auth/user-id.ts';
import { findTeam, insertTeam, insertTeamMember } from './queries.ts';
import { ClientTeamCreateSchema, ServerTeamCreateSchema } from './schemas.ts';
import { toServerTeam, toTeamForAccess, TeamOutput } from './wire.ts';
import { emitWebhookEvent } from '../webhook-events/index.ts';

const QuerySchema = v.strictObject({ add_current_user: v.optional(QueryBooleanSchema) });

/**
 * Upstream's 403 text (a plain status error, no known-error code), followed by where the switch
 * is: the dashboard's "Auth methods" page, the config key, or the project setting.
 */
export const CLIENT_TEAM_CREATION_DISABLED =
  'Client team creation is disabled for this project. Turn on "Users may create teams" on the dashboard\'s Auth methods page (config key teams.allowClientTeamCreation; project setting client_team_creation_enabled).';

/**
 * Creates a team from a display name, profile image, client metadata and creator (server also
 * `client_read_only_metadata`, `server_metadata`). The creator (`creator_user_id`, or the
 * caller with the deprecated `?add_current_user=true`) becomes a member with
 * `team_creator_default_permissions`. A client needs `client_team_creation_enabled` (else 403 text),
 * a user, and may only create as itself (upstream https://github.com/stack-auth/stack-auth/tree/44f4d18648e9b692b90ea2adf07e49d1c831032c/apps/backend/src/app/api/latest/teams/).
 */
export const createTeam = defineOperation({
  id: 'teams.create',
  method: 'POST',
  path: '/teams',
  summary: 'Create a team.',
  access: ['client', 'server', 'admin'],
  input: { body: ServerTeamCreateSchema, query: QuerySchema },
  clientInput: { body: ClientTeamCreateSchema, query: QuerySchema },
  errors: ['CANNOT_GET_OWN_USER_WITHOUT_USER', 'USER_AUTHENTICATION_REQUIRED', 'USER_NOT_FOUND'],
  created: true,
  output: TeamOutput,
  async run(ctx, { body, query }) {
    const { project, accessType } = ctx.auth;
    let creatorId: string | null = null;
    if (accessType === 'client') {
      if (!project.config.clientTeamCreationEnabled) throw new StatusError('forbidden', CLIENT_TEAM_CREATION_DISABLED);
      const user = requireUser(ctx.auth);
      creatorId = resolveMe(ctx.auth, body.creator_user_id ?? 'me');
      if (creatorId !== user.id)
        throw new StatusError(
          'forbidden',
          "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'.",
        );
    } else if (body.creator_user_id !== undefined) {
      creatorId = resolveMe(ctx.auth, body.creator_user_id);
    }
    if (query.add_current_user) {
      const current = resolveMe(ctx.auth, 'me');
      if (creatorId && creatorId !== current)
        throw new StatusError('bad-request', 'add_current_user=true cannot be combined with a different creator_user_id');
      creatorId = current;
    }
    const server = body as v.InferOutput<typeof ServerTeamCreateSchema>;
    const teamId = uuid();
    const team = await ctx.transaction(async (tx) => {
      if (creatorId && !(await findUser(tx.db, project.id, creatorId))) throw new KnownError('USER_NOT_FOUND');
      await insertTeam(tx.db, {
        id: teamId,
        project_id: project.id,
        display_name: body.display_name,
        profile_image_url: (
          await storeDataImages(tx, project.id, { profile_image_url: body.profile_image_url ?? null }, ['profile_image_url'])
        ).profile_image_url,
        client_metadata: toJsonText(body.client_metadata),
        client_read_only_metadata: toJsonText(server.client_read_only_metadata),
        server_metadata: toJsonText(server.server_metadata),
        created_at: tx.now,
      });
      if (creatorId) {
        await insertTeamMember(tx.db, project.id, teamId, creatorId, tx.now);
        await grantTeamDefaults(tx.db, project, teamId, creatorId, 'creator', tx.now);
      }
      const created = (await findTeam(tx.db, project.id, teamId))!;
      await emitWebhookEvent(tx, project.id, 'team.created', toServerTeam(created));
      if (creatorId) await emitWebhookEvent(tx, project.id, 'team_membership.created', { team_id: teamId, user_id: creatorId });
      return created;
    });
    return toTeamForAccess(accessType, team);
  },
});
