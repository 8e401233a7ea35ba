import * as v from 'valibot';
import { defineOperation } from '../operations/define.ts';
import { KnownError } from '../errors/index.ts';
import { UuidSchema } from '../lib/schemas.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import { isTeamMember } from '../team-membership/index.ts';
import { teamPermissionExists } from '../permissions/index.ts';
import { findProject, updateProject } from './queries.ts';
import { requireInternalUser } from './require-internal-user.ts';

/**
 * Moves a project to another internal team (internal project, signed-in user); `success` is the
 * string "true", as upstream's `internal/projects/transfer/route.tsx` answers. The user must hold
 * `team_admin` in the current owner team and belong to the new one. A user outside the owner team
 * is told the project does not exist, unlike upstream, so project ids cannot be probed
 * (docs/compatibility.md).
 */
export const transferProject = defineOperation({
  id: 'projects.transfer',
  method: 'POST',
  path: '/internal/projects/transfer',
  summary: 'Transfer a project to another of your teams.',
  access: ['client', 'server', 'admin'],
  input: { body: v.strictObject({ project_id: UuidSchema, new_team_id: UuidSchema }) },
  errors: [
    'EXPECTED_INTERNAL_PROJECT',
    'USER_AUTHENTICATION_REQUIRED',
    'PROJECT_NOT_FOUND',
    'TEAM_PERMISSION_REQUIRED',
    'TEAM_MEMBERSHIP_NOT_FOUND',
  ],
  output: v.strictObject({ success: v.literal('true') }),
  async run(ctx, { body }) {
    const user = requireInternalUser(ctx.auth);
    return ctx.transaction(async (tx) => {
      const project = await findProject(tx.db, body.project_id);
      if (!project || !project.ownerTeamId || !(await isTeamMember(tx.db, INTERNAL_PROJECT_ID, project.ownerTeamId, user.id))) {
        throw new KnownError('PROJECT_NOT_FOUND', { project_id: body.project_id });
      }
      if (!(await teamPermissionExists(tx.db, INTERNAL_PROJECT_ID, project.ownerTeamId, user.id, 'team_admin'))) {
        throw new KnownError('TEAM_PERMISSION_REQUIRED', { team_id: project.ownerTeamId, user_id: user.id, permission_id: 'team_admin' });
      }
      if (!(await isTeamMember(tx.db, INTERNAL_PROJECT_ID, body.new_team_id, user.id))) {
        throw new KnownError('TEAM_MEMBERSHIP_NOT_FOUND', { team_id: body.new_team_id, user_id: user.id });
      }
      await updateProject(tx.db, { ...project, ownerTeamId: body.new_team_id });
      return { success: 'true' };
    });
  },
});
