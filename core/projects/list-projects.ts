import { defineOperation } from '../operations/define.ts';
import { INTERNAL_PROJECT_ID } from '../auth/request-auth.ts';
import { listUserTeamIds } from '../teams/index.ts';
import { listProjectsOwnedByTeams } from './queries.ts';
import { requireInternalUser } from './require-internal-user.ts';
import { toAdminProject, AdminProjectOutput } from './wire.ts';
import { listOutput } from '../operations/output.ts';

/** Lists the projects owned by the signed-in user's internal teams. */
export const listProjects = defineOperation({
  id: 'projects.list',
  method: 'GET',
  path: '/internal/projects',
  summary: 'List the projects you own through your teams.',
  access: ['client', 'server', 'admin'],
  input: {},
  errors: ['EXPECTED_INTERNAL_PROJECT', 'USER_AUTHENTICATION_REQUIRED'],
  output: listOutput(AdminProjectOutput),
  async run(ctx) {
    const user = requireInternalUser(ctx.auth);
    const teamIds = await listUserTeamIds(ctx.db, INTERNAL_PROJECT_ID, user.id);
    const projects = await listProjectsOwnedByTeams(ctx.db, teamIds);
    return { items: projects.map(toAdminProject), is_paginated: false };
  },
});
