import { defineOperation } from '../operations/define.ts';
import { toClientProject, ClientProjectOutput } from './wire.ts';

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
