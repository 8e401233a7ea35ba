import { defineOperation } from '../operations/define.ts';
import { toAdminProject, toClientProject, ClientProjectOutput, AdminProjectOutput } from './wire.ts';

/** Reads the client view of the project (upstream apps/backend/prisma/seed.ts). */
export const getCurrentProject = defineOperation({
  id: 'projects.getCurrent',
  method: 'GET',
  path: '/projects/current',
  summary: 'Get the public configuration of the current project.',
  access: ['client', 'server', 'admin'],
  input: {},
  errors: [],
  output: ClientProjectOutput,
  async run(ctx) {
    return toClientProject(ctx.auth.project);
  },
});

/** Reads the full admin project object (admin access). */
export const getCurrentProjectAdmin = defineOperation({
  id: 'projects.getCurrentAdmin',
  method: 'GET',
  path: '/internal/projects/current',
  summary: 'Get the current project with its full configuration.',
  access: ['admin'],
  input: {},
  errors: [],
  output: AdminProjectOutput,
  async run(ctx) {
    return toAdminProject(ctx.auth.project);
  },
});
